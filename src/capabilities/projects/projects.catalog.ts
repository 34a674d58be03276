/** The projects capability's commands (Record-Sync projects, run against the Directory), in catalog order. */

import type { DirectoryCommand, WorkspaceCommand } from "../../commands/registry";
import { asRecordSync } from "../records/record-sync";
import { recordsOverview } from "./overview.commands";
import { createProject, getProject, listProjects } from "./projects.commands";

export const PROJECT_COMMANDS: DirectoryCommand[] = [createProject, listProjects, getProject];

/** `records.project.overview`, a Record-Sync read of the project's workspace: listed first among the Record-Sync commands. */
export const PROJECT_OVERVIEW_COMMANDS: WorkspaceCommand[] = [asRecordSync(recordsOverview)];
