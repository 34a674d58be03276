/** The branches capability's commands (branches, checkout, idea branches), in catalog order. */

import { branchCreate, branchDelete, branchList, branchRename, checkout, macroBranchNote } from "./branches.commands";
import { ideaBranchMerge } from "./idea-merge.commands";

export const BRANCH_COMMANDS = [branchCreate, branchList, checkout, branchRename, branchDelete, macroBranchNote, ideaBranchMerge];
