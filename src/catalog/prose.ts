/**
 * The server's prose for a connection: error messages, recovery hints, warnings, purposes and the
 * capsule's and radar's lines name commands by their flat tool names (`tasks_context`), which only some
 * toolsets list. The suggestion renderer (suggestions.ts) passes each prose text through `renderProse`
 * with the way its connection calls a command, so what an agent reads names a call it can make.
 *
 * Which texts are prose is decided by where they stand (`isProseField`), never by what they say: the
 * fields that hold what a writer stored (a note's content, a card's text or title, a record's body, a
 * job event's message, any `meta`) are never rewritten. A writer's words quoted inside a prose line (a
 * title in a capsule line, a plan's contract as the radar's why) are rendered with the line: a tool
 * named there is named in the caller's dialect, which keeps its meaning.
 * Within prose, a flat tool name in double quotes ("notes_commit") is a value quoted back (an unknown op
 * echoed, a string to pass) and stays as written; so does one inside a dotted command name
 * (`think.context_pack`), which is how rendered calls name commands, so rendering twice changes nothing.
 */

import type { Command } from "../commands/registry";
import { findCommand } from "./catalog";

/**
 * A word shaped like a flat tool name with an underscore (`tasks_create`; plain words such as `status`
 * or `open` are ordinary English and stay), not part of a dotted name, a path or a longer identifier.
 */
const TOOL_WORD = /(?<![\w.\-/"])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w\-/"])/g;

/** Keys whose strings (or lists of strings) are the server's prose wherever they stand. */
const PROSE_KEYS: ReadonlySet<string> = new Set(["recovery", "recovery_hint", "purpose", "why", "next", "hint", "see", "unsaved_warning"]);

/** Where a `message` is the server's even without a `code` beside it: Record-Sync's warnings and conflicts (seed 004). */
const MESSAGE_HOLDERS: ReadonlySet<string> = new Set(["warnings", "conflict"]);

/**
 * Subtrees that hold what callers stored or sent, never prose: `meta` is a writer's, `details` are an
 * error's machine-readable facts (the op or name it echoes among them).
 */
const NOT_PROSE_KEYS: ReadonlySet<string> = new Set(["meta", "details"]);

/**
 * Whether the string (or list of strings) under `key` of `parent` is prose: a prose key, or the
 * `message` of a diagnostic (an object with a string `code`: an error, a warning, a lint issue; or one
 * that stands in `warnings` or as a `conflict`, `parentKey` being where `parent` stands). A job event's
 * `message` is its reporter's and stays.
 */
export function isProseField(key: string, parent: Record<string, unknown>, parentKey: string | undefined): boolean {
  if (PROSE_KEYS.has(key)) return true;
  if (key !== "message") return false;
  return typeof parent.code === "string" || (parentKey !== undefined && MESSAGE_HOLDERS.has(parentKey));
}

/** Whether nothing under `key` is prose (what a writer stored, an error's echoed facts). */
export function holdsNoProse(key: string): boolean {
  return NOT_PROSE_KEYS.has(key);
}

/**
 * `text` with each flat tool name replaced by `callForm(command)` (undefined: the name stays, the
 * connection lists the tool). A text with no underscore is returned as it is, at no cost.
 */
export function renderProse(text: string, callForm: (command: Command) => string | undefined): string {
  if (!text.includes("_")) return text;
  return text.replace(TOOL_WORD, (word) => {
    const command = findCommand(word);
    if (command === undefined || command.tool !== word) return word;
    return callForm(command) ?? word;
  });
}
