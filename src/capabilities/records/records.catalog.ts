/**
 * The Record-Sync capability's commands (seed 004, docs/records.md), in catalog order (after the project overview, which the projects capability defines): orientation,
 * activation, mutations, session lifecycle, history and activity.
 */
import type { WorkspaceCommand } from "../../commands/registry";
import { recordsActivate } from "./activation.commands";
import { recordsActivity, recordsDiff, recordsHistory, recordsSessions } from "./history.commands";
import { recordsCreate, recordsTransition, recordsUpdate } from "./mutation.commands";
import { recordsGetRef, recordsList, recordsSearch } from "./orientation.commands";
import { asRecordSync } from "./record-sync";
import { recordsCloseSession, recordsSaveSession } from "./session.commands";
import { recordsSync } from "./sync.commands";

export { recordSyncSummary } from "./summary.store";

export const RECORD_COMMANDS: WorkspaceCommand[] = [
  recordsSearch,
  recordsList,
  recordsGetRef,
  recordsActivate,
  recordsSync,
  recordsCreate,
  recordsUpdate,
  recordsTransition,
  recordsSaveSession,
  recordsCloseSession,
  recordsHistory,
  recordsDiff,
  recordsSessions,
  recordsActivity,
].map(asRecordSync);
