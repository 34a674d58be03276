/**
 * Answers put into words for a person: nested values (the capsule's `where`), a suggested call (what
 * it is for, and which tool an agent would call), and the proof a step still misses. A person reads
 * prose and tables here, never JSON. Pure functions, no DOM.
 */
import type { SuggestedCall } from "./types";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A field name as words: `expires_tick` → "expires tick". */
function keyInWords(key: string): string {
  return key.replace(/_/g, " ");
}

/** A value inside another: a non-empty object is bracketed, so its fields read apart from its neighbours'. */
function nestedInWords(value: unknown): string {
  const words = valueInWords(value);
  return isPlainObject(value) && Object.keys(value).length > 0 ? `(${words})` : words;
}

/**
 * Any answer value as a line of words: "none" for nothing, lists joined by commas, an object as
 * "name value, name value" with nested objects in parentheses, e.g.
 * `notes (branch main, doc notes, by checkout), cards (branch main, doc graph, by checkout)`.
 */
export function valueInWords(value: unknown): string {
  if (value === null || value === undefined || value === "") return "none";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map(nestedInWords).join(", ");
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "none";
    return entries.map(([key, inner]) => `${keyInWords(key)} ${nestedInWords(inner)}`).join(", ");
  }
  return String(value);
}

/** The named fields of an object, each as a label and its value in words (for a definition list). */
export function fieldsInWords(record: Record<string, unknown>): { label: string; words: string }[] {
  return Object.entries(record).map(([key, value]) => ({ label: keyInWords(key), words: valueInWords(value) }));
}

/**
 * Which call a suggestion names, in plain words: the tool, and for a portal envelope the command or
 * operation it runs, e.g. "agents call tasks · tasks.close_step". Its arguments are not shown.
 */
export function callInWords(call: SuggestedCall): string {
  const args = isPlainObject(call.args) ? call.args : {};
  const command = typeof args.cmd === "string" ? args.cmd : typeof args.op === "string" && args.op !== "call" ? args.op : undefined;
  return `agents call ${call.tool}${command ? ` · ${command}` : ""}`;
}

/**
 * The proof a step's close still needs, as a person reads it: "criteria, tests", "none", or "unknown"
 * when the answer did not say. `open STEP-…` counts it with the server's own close gate (criteria and
 * tests always; security, perf and docs when their mode requires them or they already carry proof).
 */
export function missingProofInWords(missing: readonly string[] | undefined): string {
  if (missing === undefined) return "unknown";
  return missing.length === 0 ? "none" : missing.join(", ");
}
