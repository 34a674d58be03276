/** The workspace capability's commands (bulk import and restore, export, the list of workspaces), in catalog order. */

import type { Command } from "../../commands/registry";

import { workspaceExport } from "./export.commands";
import { workspaceImport } from "./workspace.commands";
import { workspaceList } from "./workspace-list.commands";

export const WORKSPACE_COMMANDS: Command[] = [workspaceImport, workspaceExport, workspaceList];
