/** The vcs capability's commands (checkout, commit, log, reset, reflog, tags), in catalog order. */

import { checkout } from "./checkout.commands";
import { notesCommit } from "./notes.commands";
import { commit, log, reflog, reset, tagCreate, tagDelete, tagList } from "./vcs.commands";

export const VCS_COMMANDS = [checkout, commit, log, reset, reflog, tagCreate, tagList, tagDelete];

/** `vcs.notes.commit`: listed in the catalog first among the document commands, where it has always been shown. */
export const NOTES_COMMANDS = [notesCommit];
