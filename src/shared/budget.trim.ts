/**
 * The trimming passes of the budget ladder (budget.ts), over a command's trimmable lists: first an
 * item's body is replaced by its ids and refs (`trimmed: true`), oldest item first across the lists in
 * their declared order, then whole items are dropped, oldest first. Sizes are tracked incrementally and
 * checked exactly. Pure; never mutates its input.
 */
import { countLines, renderTextBlock, utf8Bytes } from "./json";

export type Payload = Record<string, unknown>;

/** How a command's payload may shrink: which lists, from which end, and what survives a stub. */
export interface BudgetSpec {
  /** Array fields that may be trimmed (`key` or `parent.key`), in the order they are trimmed. */
  lists: string[];
  /** Fields of a list item kept when its body is stubbed (ids, refs, order keys). */
  keep: string[];
  /**
   * Trim from the end of a list instead of its start: for newest-first lists (the oldest items are
   * last) and for forward pages that continue after their last item (the items a next page shows again).
   * `true` applies to every list; a list of paths applies to those lists only.
   */
  trimFromEnd?: boolean | string[];
  /** Fixes derived fields (pagination) after items were dropped; sees the untrimmed payload too. */
  repair?: (trimmed: Payload, original: Payload) => Payload;
  /**
   * The command's own small forms, largest first, tried before the generic minimal signal when even
   * the trimmed payload does not fit (e.g. a resume view degrading to its capsule).
   */
  stubs?: (original: Payload) => Payload[];
  /**
   * The command sizes its sections by the budget (the resume views' tiers): a larger budget returns more
   * of the answer, which may be cut again, so a recovery promises more, not the whole.
   */
  sized?: boolean;
}

export interface Limits {
  chars: number;
  bytes: number | undefined;
  lines: number | undefined;
}

export interface Size {
  chars: number;
  bytes: number;
  lines: number;
}

/** The `budget` field is added after measuring; it takes one more line of the text block. */
const BUDGET_FIELD_LINES = 1;

/** Bytes and lines are measured only when a budget asks for them (each costs another pass). */
export function measure(payload: Payload, limits: Pick<Limits, "bytes" | "lines">): Size {
  const compact = JSON.stringify(payload);
  return {
    chars: compact.length,
    bytes: limits.bytes === undefined ? 0 : utf8Bytes(compact),
    lines: limits.lines === undefined ? 0 : countLines(renderTextBlock(payload)) + BUDGET_FIELD_LINES,
  };
}

export function within(size: Size, limits: Limits): boolean {
  return (
    size.chars <= limits.chars &&
    (limits.bytes === undefined || size.bytes <= limits.bytes) &&
    (limits.lines === undefined || size.lines <= limits.lines)
  );
}

export function fits(payload: Payload, limits: Limits): boolean {
  return within(measure(payload, limits), limits);
}

export function stub(item: unknown, keep: string[]): unknown {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
  const out: Record<string, unknown> = {};
  for (const key of keep) if (key in item) out[key] = (item as Record<string, unknown>)[key];
  out.trimmed = true;
  return out;
}

/** Re-trims after a repair that grew the payload (each pass shrinks or stops). */
const MAX_REPAIR_PASSES = 4;

/** The payload trimmed until it fits `limits` (or until nothing is left to trim), repaired. */
export function trimToFit(payload: Payload, spec: BudgetSpec, limits: Limits, original: Payload): { payload: Payload; size: Size } {
  let current = shrinkLists(payload, spec, limits);
  if (spec.repair) current = spec.repair(current, original);
  let size = measure(current, limits);
  // A repair may add a little (cursors, truncation markers): trim again until it fits or nothing moves.
  for (let pass = 0; pass < MAX_REPAIR_PASSES && spec.repair && !within(size, limits); pass++) {
    const before = size.chars;
    current = spec.repair(shrinkLists(current, spec, limits), original);
    size = measure(current, limits);
    if (size.chars >= before) break;
  }
  return { payload: current, size };
}

function shrinkLists(payload: Payload, spec: BudgetSpec, limits: Limits): Payload {
  const current: Payload = { ...payload };
  // Each list is copied (with its parent object, for `parent.child` paths) so trimming never mutates the input.
  const arrays: unknown[][] = [];
  const fromEnd = new Set<unknown[]>();
  const trimsFromEnd = (path: string) => spec.trimFromEnd === true || (Array.isArray(spec.trimFromEnd) && spec.trimFromEnd.includes(path));
  for (const path of spec.lists) {
    const [head, child] = path.split(".") as [string, string | undefined];
    if (child === undefined) {
      if (!Array.isArray(current[head])) continue;
      const copy = [...(current[head] as unknown[])];
      current[head] = copy;
      arrays.push(copy);
      if (trimsFromEnd(path)) fromEnd.add(copy);
    } else {
      const parent = current[head];
      if (parent === null || typeof parent !== "object" || !Array.isArray((parent as Payload)[child])) continue;
      const copy = [...((parent as Payload)[child] as unknown[])];
      current[head] = { ...(parent as Payload), [child]: copy };
      arrays.push(copy);
      if (trimsFromEnd(path)) fromEnd.add(copy);
    }
  }
  // Sizes are tracked incrementally (re-serializing per step would be quadratic), then checked exactly.
  const size = measure(current, limits);
  // UTF-8 sizes are tracked only when a byte budget asks for them (each is another encoding pass).
  const bytesOf = (text: string) => (limits.bytes === undefined ? 0 : utf8Bytes(text));
  // Pass 1: stub bodies, oldest first, across lists in their declared order.
  for (const items of arrays) {
    for (const index of trimOrder(items.length, fromEnd.has(items))) {
      if (within(size, limits)) break;
      const before = JSON.stringify(items[index]);
      const replaced = stub(items[index], spec.keep);
      const after = JSON.stringify(replaced);
      // An item already as lean as its stub (a mention, a mirrored entry) stays as it is.
      if (after.length >= before.length) continue;
      items[index] = replaced;
      size.chars -= before.length - after.length;
      size.bytes -= bytesOf(before) - bytesOf(after);
    }
  }
  // Pass 2: drop stubbed items, oldest first.
  for (const items of arrays) {
    while (items.length > 0 && !within(size, limits)) {
      const dropped = JSON.stringify(fromEnd.has(items) ? items.pop() : items.shift());
      size.chars -= dropped.length + (items.length > 0 ? 1 : 0);
      size.bytes -= bytesOf(dropped) + (items.length > 0 ? 1 : 0);
      size.lines -= 1;
    }
  }
  // Characters and bytes were tracked exactly; lines are estimated (the items of a nested list share a
  // line of the text block), so only a line budget needs the exact check, dropping further if it fails.
  if (limits.lines === undefined || fits(current, limits)) return current;
  for (const items of arrays) {
    while (items.length > 0 && !fits(current, limits)) {
      if (fromEnd.has(items)) items.pop();
      else items.shift();
    }
  }
  return current;
}

function* trimOrder(length: number, fromEnd: boolean | undefined): Generator<number> {
  if (fromEnd) for (let i = length - 1; i >= 0; i--) yield i;
  else for (let i = 0; i < length; i++) yield i;
}

/**
 * The trimmed payload at the smallest character budget in (`from`, `to`] at which it satisfies `wanted`
 * (a binary search: a larger budget keeps at least the items a smaller one keeps), or undefined when
 * not even `to` does. Bytes and lines are left unbounded: the caller measures what it names.
 */
export function smallestTrim(
  payload: Payload,
  spec: BudgetSpec,
  original: Payload,
  from: number,
  to: number,
  wanted: (trimmed: Payload) => boolean,
): Payload | undefined {
  const at = (chars: number) => {
    const limits: Limits = { chars, bytes: undefined, lines: undefined };
    const trimmed = trimToFit(payload, spec, limits, original);
    return within(trimmed.size, limits) && wanted(trimmed.payload) ? trimmed.payload : undefined;
  };
  let best = at(to);
  if (best === undefined) return undefined;
  let low = from;
  let high = to;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const found = at(middle);
    if (found === undefined) low = middle;
    else {
      high = middle;
      best = found;
    }
  }
  return best;
}
