/** The docs capability's commands (notes, show, diff, merge, export, the document list), in catalog order. */

import { diff, docsList, exportSnapshot, merge, notesCommit, show } from "./docs.commands";

export const DOCS_COMMANDS = [notesCommit, show, diff, merge, exportSnapshot, docsList];
