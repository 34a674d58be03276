/**
 * Which commands each small toolset lists (worker/surfaces/surfaces.ts builds the toolsets): `core`
 * and `daily` by their commands' flat tool names, and the portal `daily` lists besides them as the door
 * to every other command. The choice of commands lives here, in the catalog seam, so that the Worker
 * names no command; surfaces.ts checks every name against the tool definitions when it builds them.
 */

/** The smallest loop: where you are, write a note, read it, branch and note in one call. */
export const CORE_TOOLS: readonly string[] = ["status", "notes_commit", "show", "macro_branch_note"];

/** The golden path's flat tools. */
export const DAILY_TOOLS: readonly string[] = [
  "init",
  "status",
  "help",
  "notes_commit",
  "show",
  "diff",
  "merge",
  "branch_create",
  "branch_list",
  "checkout",
  "macro_branch_note",
  "log",
];

/** The portal daily lists besides its flat tools: suggestions of other commands go through its `call` op. */
export const DAILY_DOOR = "system";
