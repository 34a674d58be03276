/** The projects capability's commands (Record-Sync projects, run against the Directory), in catalog order. */

import type { DirectoryCommand } from "../../commands/registry";
import { createProject, getProject, listProjects } from "./projects.commands";

export const PROJECT_COMMANDS: DirectoryCommand[] = [createProject, listProjects, getProject];
