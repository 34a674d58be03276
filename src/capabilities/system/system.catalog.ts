/** The system capability's commands (bootstrap, status, help, ping, diagnostics, the catalog's own descriptions), in catalog order. */

import { diagnostics } from "./diagnostics.commands";
import { cmdList, migrationLookup, opsSummary, schemaGet } from "./schema.commands";
import { help, init, ping, status } from "./system.commands";

export const SYSTEM_COMMANDS = [init, status, help, ping, diagnostics, schemaGet, cmdList, opsSummary, migrationLookup];
