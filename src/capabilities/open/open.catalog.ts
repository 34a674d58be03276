/** The open capability's command (any artifact by its stable ref). */

import { openRef } from "./open.commands";

export const OPEN_COMMANDS = [openRef];
