/**
 * Pages the budget ladder's trim emptied (budget.ts): a page that had items shows none, so its
 * `next_cursor` would give the same page again (a stall) or pass over items never shown. Such a page
 * keeps `has_more: true` and loses its `next_cursor`. A page asked for with a cursor (the caller is
 * paging) also gets a warning whose recovery names the budget at which it shows its next item; a first
 * page's cut is told by the ladder's truncation warning, whose room the answer keeps. Pure.
 */
import type { Payload } from "./budget.trim";
import type { Warning } from "./result";

/** Not the answer's pages: what the ladder and a portal add. */
const NOT_PAGES = new Set(["warnings", "budget", "capsule"]);

/** A pagination object (`{cursor, has_more, count}`, `next_cursor` when more remain). */
function isPage(value: unknown): value is Payload & { count: number } {
  return (
    value !== null && typeof value === "object" && "cursor" in value && "has_more" in value && typeof (value as Payload).count === "number"
  );
}

function isObject(value: unknown): value is Payload {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The paths of the paginations whose page had items in `original` and has none in `trimmed`; with
 * `paging`, only those asked for with a cursor.
 */
export function emptiedPages(trimmed: Payload, original: Payload, paging = false, path: string[] = [], out: string[][] = []): string[][] {
  for (const [key, now] of Object.entries(trimmed)) {
    const before = original[key];
    if (NOT_PAGES.has(key) || !isObject(now) || !isObject(before)) continue;
    if (isPage(now) && isPage(before)) {
      if (now.count === 0 && before.count > 0 && (!paging || before.cursor !== null)) out.push([...path, key]);
    } else emptiedPages(now, before, paging, [...path, key], out);
  }
  return out;
}

/** Whether every page at `pages` shows an item in `payload`. */
export function pagesShowItems(payload: Payload, pages: string[][]): boolean {
  return pages.every((path) => {
    let value: unknown = payload;
    for (const key of path) value = isObject(value) ? value[key] : undefined;
    return isPage(value) && value.count > 0;
  });
}

/** `payload` with each page at `pages` holding more (`has_more`) and no `next_cursor`. */
export function withheldCursors(payload: Payload, pages: string[][]): Payload {
  const withhold = (value: Payload, path: string[]): Payload => {
    const [key, ...rest] = path as [string, ...string[]];
    const inner = value[key];
    if (!isObject(inner)) return value;
    if (rest.length > 0) return { ...value, [key]: withhold(inner, rest) };
    const { next_cursor: _withheld, ...page } = inner;
    return { ...value, [key]: { ...page, has_more: true } };
  };
  return pages.reduce(withhold, payload);
}

/** The input that continues a page: `cards_pagination` → `cards_cursor`, `pagination` → `cursor`. */
function cursorOf(path: string[]): string {
  const key = path[path.length - 1] ?? "pagination";
  const named = /^(.+)_pagination$/.exec(key)?.[1];
  return named === undefined ? "cursor" : `${named}_cursor`;
}

/**
 * The warning of pages that cannot show one item: `ask` is the budget part of its recovery (`max_chars
 * 4210`). Short, since it takes room from the answer it is in.
 */
export function pageWarning(pages: string[][], ask: string | undefined): Warning {
  const names = pages.map((path) => path.join(".")).join(", ");
  const cursors = [...new Set(pages.map(cursorOf))].join(", ");
  return {
    code: "BUDGET_ITEM_TOO_LARGE",
    message: `No item of ${names} fits: no next_cursor.`,
    recovery: ask === undefined ? "Narrow the read (limit)." : `Pass ${ask}, same ${cursors}.`,
  };
}
