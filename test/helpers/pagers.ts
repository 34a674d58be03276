/**
 * Where the pages of a read's answer sit, for the paging properties (test/budget-paging*.test.ts): each
 * pager names the input that takes its cursor, the path of its pagination (or of the answer's top, for a
 * top-level `next_cursor`) and the list it pages; an item is known by its id.
 */
import { type Answer, READS } from "./ladder-seed";

/** Where a page's cursor sits in an answer and the input that takes it: `pagination` → cursor, `cards_pagination` → cards_cursor. */
export interface Pager {
  input: string;
  /** The path of the pagination object, and of the list it pages. */
  pagination: string[];
  list: string[];
}

export function at(answer: unknown, path: string[]): unknown {
  let value = answer;
  for (const key of path) value = value !== null && typeof value === "object" ? (value as Answer)[key] : undefined;
  return value;
}

/** The first list of an object (its warnings aside): the list a `pagination` or a top-level `next_cursor` pages. */
function listOf(answer: Answer): string | undefined {
  const lists = Object.keys(answer).filter((name) => name !== "warnings" && Array.isArray(answer[name]));
  return lists[0];
}

/** The pagers of an answer whose inputs the command takes. */
export function pagersOf(answer: Answer, inputs: string[], path: string[] = [], out: Pager[] = []): Pager[] {
  // A page whose cursor sits at its top (log, get_record_history): `next_cursor` beside `has_more`.
  const own = path.length === 0 && "has_more" in answer ? listOf(answer) : undefined;
  if (own !== undefined && inputs.includes("cursor")) out.push({ input: "cursor", pagination: [], list: [own] });
  for (const [key, value] of Object.entries(answer)) {
    if (value === null || typeof value !== "object" || Array.isArray(value) || key === "capsule") continue;
    const named = /^(.+)_pagination$/.exec(key)?.[1];
    if (key === "pagination" || named !== undefined) {
      const input = named === undefined ? "cursor" : `${named}_cursor`;
      const list = named ?? listOf(answer);
      if (inputs.includes(input) && list !== undefined) out.push({ input, pagination: [...path, key], list: [...path, list] });
    } else pagersOf(value as Answer, inputs, [...path, key], out);
  }
  return out;
}

/** An item's identity on its page: its id or seq (a trimmed item keeps them), else its whole text. */
export function identity(item: unknown): string {
  if (item === null || typeof item !== "object") return JSON.stringify(item);
  const record = item as Answer;
  for (const key of ["id", "seq", "card_id", "event_id", "conflict_id", "job", "key", "name", "cmd", "version"]) {
    if (typeof record[key] === "string" || typeof record[key] === "number") return `${key}:${record[key]}`;
  }
  return JSON.stringify(record);
}

/** The reads of the budget ladder's command list that page: they take a `cursor` or `<list>_cursor`. */
export const PAGED = READS.filter((command) =>
  Object.keys(command.input.shape).some((name) => name === "cursor" || name.endsWith("_cursor")),
);
