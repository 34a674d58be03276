/**
 * The one budget mechanism for every read (DESIGN §5). A read payload is measured as compact JSON
 * without its `budget` field (`used_chars`), and also in UTF-8 bytes and in lines of the text block.
 * When it exceeds the budget it is trimmed in two passes over the command's trimmable lists, oldest
 * item first: first an item's body is replaced by its ids (ids and refs outlive bodies), then whole
 * items are dropped. If even the bare payload does not fit, a minimal stub is returned instead.
 * Pure: no I/O, no clock.
 */
import { countLines, renderTextBlock, utf8Bytes } from "./json";
import { BUDGET_PROFILES, type BudgetProfile, MAX_BUDGET_CHARS, MIN_BUDGET_CHARS } from "./limits";
import type { Warning } from "./result";

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
}

type Payload = Record<string, unknown>;

export interface BudgetArgs {
  max_chars?: number | undefined;
  context_budget?: number | undefined;
  max_bytes?: number | undefined;
  max_lines?: number | undefined;
  budget_profile?: BudgetProfile | undefined;
}

export interface BudgetReport {
  max_chars: number;
  used_chars: number;
  truncated: boolean;
  max_bytes?: number;
  max_lines?: number;
}

interface Limits {
  chars: number;
  bytes: number | undefined;
  lines: number | undefined;
}

export function resolveLimits(args: BudgetArgs, defaultProfile: BudgetProfile): { limits: Limits; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const explicit = args.max_chars ?? args.context_budget;
  const profileCap = BUDGET_PROFILES[args.budget_profile ?? defaultProfile];
  const requested = explicit ?? profileCap;
  let chars = Math.min(requested, MAX_BUDGET_CHARS);
  // A profile named explicitly is a ceiling too (seed 002: profiles cap max_chars).
  if (args.budget_profile !== undefined && chars > profileCap) {
    warnings.push({
      code: "BUDGET_PROFILE_CAPPED",
      message: `max_chars ${requested} is above the ${args.budget_profile} profile's ${profileCap}; capped.`,
      recovery: "Pass budget_profile audit (80000) for a larger answer.",
    });
    chars = profileCap;
  }
  if (chars < MIN_BUDGET_CHARS) {
    warnings.push({
      code: "BUDGET_MIN_CLAMPED",
      message: `max_chars ${requested} is below the smallest safe payload; raised to ${MIN_BUDGET_CHARS}.`,
      recovery: `Pass max_chars >= ${MIN_BUDGET_CHARS}.`,
    });
    chars = MIN_BUDGET_CHARS;
  }
  const bytes = args.max_bytes === undefined ? undefined : Math.max(args.max_bytes, MIN_BUDGET_CHARS);
  const lines = args.max_lines === undefined ? undefined : Math.max(args.max_lines, 3);
  return { limits: { chars, bytes, lines }, warnings };
}

/** The `budget` field is added after measuring; it takes one more line of the text block. */
const BUDGET_FIELD_LINES = 1;

/** Bytes and lines are measured only when a budget asks for them (each costs another pass). */
function measure(payload: Payload, limits: Limits): { chars: number; bytes: number; lines: number } {
  const compact = JSON.stringify(payload);
  return {
    chars: compact.length,
    bytes: limits.bytes === undefined ? 0 : utf8Bytes(compact),
    lines: limits.lines === undefined ? 0 : countLines(renderTextBlock(payload)) + BUDGET_FIELD_LINES,
  };
}

function within(size: { chars: number; bytes: number; lines: number }, limits: Limits): boolean {
  return (
    size.chars <= limits.chars &&
    (limits.bytes === undefined || size.bytes <= limits.bytes) &&
    (limits.lines === undefined || size.lines <= limits.lines)
  );
}

function fits(payload: Payload, limits: Limits): boolean {
  return within(measure(payload, limits), limits);
}

function stub(item: unknown, keep: string[]): unknown {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
  const out: Record<string, unknown> = {};
  for (const key of keep) if (key in item) out[key] = (item as Record<string, unknown>)[key];
  out.trimmed = true;
  return out;
}

/** Re-trims after a repair that grew the payload (each pass shrinks or stops). */
const MAX_REPAIR_PASSES = 4;

const TRUNCATED: Warning = {
  code: "BUDGET_TRUNCATED",
  message: "The answer was trimmed to the budget: older items lost their bodies or were dropped.",
  recovery: "Page with `cursor`, lower `limit`, or raise `max_chars` (audit profile: 80000).",
};

const MINIMAL: Warning = {
  code: "BUDGET_MINIMAL",
  message: "Nothing but a minimal stub fits this budget.",
  recovery: "Raise `max_chars` or narrow the read (limit, doc, cursor).",
};

function withWarnings(payload: Payload, warnings: Warning[]): Payload {
  if (warnings.length === 0) return payload;
  const existing = Array.isArray(payload.warnings) ? (payload.warnings as Warning[]) : [];
  return { ...payload, warnings: [...existing, ...warnings] };
}

/** Characters (and UTF-8 bytes) the caller will add to the payload after trimming: a portal's capsule. */
export interface Reserve {
  chars: number;
  bytes: number;
}

/** However large the reserve, the payload may still use this much (a minimal stub and its warning). */
const MIN_PAYLOAD_CHARS = 64;

/**
 * Trim `payload` to the budget; returns the payload with `budget` (and warnings) attached. A `reserve`
 * is taken off the budget first and counted in `used_chars`: the caller adds exactly that much after.
 */
export function applyBudget(
  payload: Payload,
  spec: BudgetSpec | undefined,
  args: BudgetArgs,
  defaultProfile: BudgetProfile,
  reserve: Reserve = { chars: 0, bytes: 0 },
): Payload {
  const resolved = resolveLimits(args, defaultProfile);
  const { warnings } = resolved;
  const limits: Limits = {
    ...resolved.limits,
    chars: Math.max(resolved.limits.chars - reserve.chars, MIN_PAYLOAD_CHARS),
    bytes: resolved.limits.bytes === undefined ? undefined : Math.max(resolved.limits.bytes - reserve.bytes, MIN_PAYLOAD_CHARS),
  };
  let current = withWarnings(payload, warnings);
  let truncated = false;
  // The size of `current`, kept with it: a payload that fits is serialized once, not once per check.
  let size = measure(current, limits);

  if (!within(size, limits) && spec) {
    truncated = true;
    current = withWarnings(current, [TRUNCATED]);
    if ("truncated" in current) current.truncated = true;
    current = shrinkLists(current, spec, limits);
    if (spec.repair) current = spec.repair(current, payload);
    size = measure(current, limits);
    // A repair may add a little (cursors, truncation markers): trim again until it fits or nothing moves.
    for (let pass = 0; pass < MAX_REPAIR_PASSES && spec.repair && !within(size, limits); pass++) {
      const before = size.chars;
      current = spec.repair(shrinkLists(current, spec, limits), payload);
      size = measure(current, limits);
      if (size.chars >= before) break;
    }
  }
  if (!within(size, limits)) {
    truncated = true;
    const notes = [...warnings, TRUNCATED];
    const codesOnly = notes.map((warning) => ({ code: warning.code, message: "", recovery: "" }));
    // Smaller and smaller: full warnings, codes only, then the caller's own warnings as codes (the
    // `budget.truncated` flag still says the answer was cut).
    const ownCodes = warnings.map((warning) => ({ code: warning.code, message: "", recovery: "" }));
    const own = (spec?.stubs?.(payload) ?? []).flatMap((stub) => [
      withWarnings(stub, notes),
      withWarnings(stub, codesOnly),
      withWarnings(stub, ownCodes),
      // Last: the stub alone (budget.truncated still says the answer was cut).
      stub,
    ]);
    current = own.find((stub) => fits(stub, limits)) ?? minimalStub(payload, [...warnings, MINIMAL], limits);
    size = measure(current, limits);
  }
  const used = size.chars + reserve.chars;
  const budget: BudgetReport = {
    max_chars: resolved.limits.chars,
    used_chars: used,
    truncated,
  };
  if (resolved.limits.bytes !== undefined) budget.max_bytes = resolved.limits.bytes;
  if (limits.lines !== undefined) budget.max_lines = limits.lines;
  return { ...current, budget };
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

/** The smallest honest answer: scalar ids of the payload plus the warnings, or just a signal. */
function minimalStub(payload: Payload, warnings: Warning[], limits: Limits): Payload {
  const scalars: Payload = {};
  for (const [key, value] of Object.entries(payload)) {
    if (value === null || typeof value !== "object") scalars[key] = value;
  }
  const candidates: Payload[] = [
    { ...scalars, signal: "minimal", truncated: true, warnings },
    {
      signal: "minimal",
      truncated: true,
      warnings: warnings.map((w) => ({
        code: w.code,
        message: "",
        recovery: "",
      })),
    },
    { signal: "minimal", truncated: true },
  ];
  for (const candidate of candidates) if (fits(candidate, limits)) return candidate;
  return { signal: "minimal" };
}

/** A portal's capsule in its two sizes (seed 003: the HUD survives aggressive budgets). */
export interface CapsuleForms {
  full: Payload;
  compact: Payload;
}

function capsuleReserve(capsule: Payload): Reserve {
  const text = `,"capsule":${JSON.stringify(capsule)}`;
  return { chars: text.length, bytes: utf8Bytes(text) };
}

/**
 * A portal answer: the payload trimmed to what the capsule leaves, then the capsule — the full one
 * when it leaves the payload at least MIN_BUDGET_CHARS, else the compact one. A payload that carries
 * its own capsule (resume views) keeps it and gets the plain budget; `capsule` is then never computed.
 */
export function applyBudgetWithCapsule(
  payload: Payload,
  spec: BudgetSpec | undefined,
  args: BudgetArgs,
  defaultProfile: BudgetProfile,
  capsuleOf: () => CapsuleForms,
): Payload {
  if ("capsule" in payload) return applyBudget(payload, spec, args, defaultProfile);
  const capsule = capsuleOf();
  const { limits } = resolveLimits(args, defaultProfile);
  const chosen = limits.chars - capsuleReserve(capsule.full).chars >= MIN_BUDGET_CHARS ? capsule.full : capsule.compact;
  return { ...applyBudget(payload, spec, args, defaultProfile, capsuleReserve(chosen)), capsule: chosen };
}
