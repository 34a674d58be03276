/** The branches capability's commands (create, list, rename, delete; checkout is vcs's), in catalog order. */

import { branchCreate, branchDelete, branchList, branchRename } from "./branches.commands";

export const BRANCH_COMMANDS = [branchCreate, branchList, branchRename, branchDelete];
