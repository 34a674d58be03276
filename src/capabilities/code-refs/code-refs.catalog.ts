/** The code-refs capability's commands (code slices with their sha256), in catalog order. */

import { codeRefAttach, codeRefCheck } from "./code-refs.commands";

export const CODE_REF_COMMANDS = [codeRefAttach, codeRefCheck];
