/** The visualize capability's command: what a host's app needs to start (docs/app.md). */

import { visualize } from "./visualize.commands";

export const VISUALIZE_COMMANDS = [visualize];
