/** The branches capability's commands (create, list, checkout, rename, delete), in catalog order. */

import { branchCreate, branchDelete, branchList, branchRename, checkout } from "./branches.commands";

export const BRANCH_COMMANDS = [branchCreate, branchList, checkout, branchRename, branchDelete];
