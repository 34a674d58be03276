/**
 * The Record-Sync capability's commands (seed 004, docs/records.md), in catalog order: orientation,
 * activation, mutations, session lifecycle, history and activity.
 */
import type { WorkspaceCommand } from "../../commands/registry";
import { recordsActivate } from "./activation.commands";
import { recordsActivity, recordsDiff, recordsHistory, recordsSessions } from "./history.commands";
import { recordsCreate, recordsTransition, recordsUpdate } from "./mutation.commands";
import { recordsGetRef, recordsList, recordsOverview, recordsSearch } from "./orientation.commands";
import { recordsCloseSession, recordsSaveSession } from "./session.commands";
import { recordsSync } from "./sync.commands";

export { recordSyncSummary } from "./summary.store";

/**
 * What every Record-Sync command declares: `project_id` names its workspace (a project), and it works in
 * the agent's default project when nothing names one; its writes may move the Directory's summary
 * counts (a session activated or closed) without storing a row.
 */
function asRecordSync(command: WorkspaceCommand): WorkspaceCommand {
  return { ...command, projectField: "project_id", movesSummaryCounts: true };
}

export const RECORD_COMMANDS: WorkspaceCommand[] = [
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
].map(asRecordSync);
