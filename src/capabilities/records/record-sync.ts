/**
 * What every Record-Sync command declares (seed 004): `project_id` names its workspace (a project), and
 * it works in the agent's default project when nothing names one; its writes may move the Directory's
 * summary counts (a session activated or closed) without storing a row. The records catalog and the
 * project overview (projects capability) both mark their commands with it.
 */
import type { WorkspaceCommand } from "../../commands/registry";

export function asRecordSync(command: WorkspaceCommand): WorkspaceCommand {
  return { ...command, projectField: "project_id", movesSummaryCounts: true };
}
