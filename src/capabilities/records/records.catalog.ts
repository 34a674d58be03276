/**
 * The Record-Sync capability's commands (seed 004, docs/records.md), in catalog order: orientation,
 * activation, mutations, session lifecycle, history and activity.
 */
import { recordsActivate } from "./activation.commands";
import { recordsActivity, recordsDiff, recordsHistory, recordsSessions } from "./history.commands";
import { recordsCreate, recordsTransition, recordsUpdate } from "./mutation.commands";
import { recordsGetRef, recordsList, recordsOverview, recordsSearch } from "./orientation.commands";
import { recordsCloseSession, recordsSaveSession } from "./session.commands";
import { recordsSync } from "./sync.commands";

export { recordSyncSummary } from "./summary.store";

export const RECORD_COMMANDS = [
  recordsOverview,
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
];
