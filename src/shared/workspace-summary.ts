/**
 * The contract between a workspace and the Directory: the summary a workspace pushes after writes (and
 * answers fresh for `get_project`), and the name of the deployment's one Directory. Both objects import
 * this module, not each other.
 */

/** The one Directory of a deployment (`DIRECTORY.getByName(DIRECTORY_NAME)`). */
export const DIRECTORY_NAME = "directory";

export interface WorkspaceSummary {
  name: string;
  tick: number;
  seq: number;
  branches: number;
  as_of_tick: number;
  /** Record-Sync (seed 004): the project tick, OPEN records, sessions not closed. Absent in older pushes. */
  project_tick?: number;
  open_records?: number;
  open_sessions?: number;
}
