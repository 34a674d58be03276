/** The vcs capability's commands (commit, log, reset, reflog, tags), in catalog order. */

import { commit, log, reflog, reset, tagCreate, tagDelete, tagList } from "./vcs.commands";

export const VCS_COMMANDS = [commit, log, reset, reflog, tagCreate, tagList, tagDelete];
