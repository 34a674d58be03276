/** The docs capability's commands (show, diff, merge, export, the document list), in catalog order. */

import { diff, docsList, exportSnapshot, merge, show } from "./docs.commands";

export const DOCS_COMMANDS = [show, diff, merge, exportSnapshot, docsList];
