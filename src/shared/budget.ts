/**
 * The one budget mechanism for every read (DESIGN §5), a ladder of levels, least degraded first:
 *
 * 1. whole: the payload as the command built it;
 * 2. trimmed (`BUDGET_TRUNCATED`): the command's trimmable lists lose the bodies of their oldest items
 *    (ids and refs stay, `trimmed: true`), then their oldest items (budget.trim.ts);
 * 3. the command's own small forms, largest first (`BUDGET_TRUNCATED`);
 * 4. the ids form (budget.ids.ts): the scalars and the one item the trim keeps longest (`BUDGET_TRUNCATED`);
 * 5. minimal (`BUDGET_MINIMAL`): the payload's scalar fields and a signal.
 *
 * The ladder keeps ids before it drops them: a trimmed answer that names no id, when the payload names
 * some, gives way to a small form or the ids form that names one. A page the trim empties keeps no
 * `next_cursor` and says which budget shows its next item (budget.pages.ts). Two budgets raised to the
 * same minimum give the same answer: the clamp warning does not repeat the number asked.
 *
 * A payload is measured as compact JSON without its `budget` field (`used_chars`), and also in UTF-8
 * bytes and in lines of the text block when those budgets are given. Every answer given a budget has a
 * top-level `truncated`. Every warning has a message and a recovery; a cut's recovery names the budget
 * at which the level above fits, so calling again with it returns a less degraded answer. Pure.
 */

import { idsForm, isScalar, namesIds } from "./budget.ids";
import { emptiedPages, pagesShowItems, pageWarning, withheldCursors } from "./budget.pages";
import { type BudgetSpec, fits, type Limits, measure, type Payload, type Size, smallestTrim, trimToFit, within } from "./budget.trim";
import { utf8Bytes } from "./json";
import { BUDGET_PROFILES, type BudgetProfile, MAX_BUDGET_CHARS, MIN_BUDGET_CHARS, MIN_BUDGET_LINES } from "./limits";
import type { Warning } from "./result";

export type { BudgetSpec } from "./budget.trim";

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

/**
 * The clamp warning names the budget, not the number asked: every ask below the minimum gets the same
 * answer, byte for byte (a longer echoed number would leave less room, and cut an item more).
 */
function clamped(name: string, minimum: number): Warning {
  return {
    code: "BUDGET_MIN_CLAMPED",
    message: `${name} below the minimum ${minimum} was raised to it.`,
    recovery: `Pass ${name} >= ${minimum}.`,
  };
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
      recovery: `Pass budget_profile "audit" (${BUDGET_PROFILES.audit}) for a larger answer.`,
    });
    chars = profileCap;
  }
  if (chars < MIN_BUDGET_CHARS) {
    warnings.push(clamped("max_chars", MIN_BUDGET_CHARS));
    chars = MIN_BUDGET_CHARS;
  }
  let bytes = args.max_bytes;
  if (bytes !== undefined && bytes < MIN_BUDGET_CHARS) {
    warnings.push(clamped("max_bytes", MIN_BUDGET_CHARS));
    bytes = MIN_BUDGET_CHARS;
  }
  let lines = args.max_lines;
  if (lines !== undefined && lines < MIN_BUDGET_LINES) {
    warnings.push(clamped("max_lines", MIN_BUDGET_LINES));
    lines = MIN_BUDGET_LINES;
  }
  return { limits: { chars, bytes, lines }, warnings };
}

/** Characters (and UTF-8 bytes) the caller will add to the payload after trimming: a portal's capsule. */
export interface Reserve {
  chars: number;
  bytes: number;
}

/** However large the reserve, the payload may still use this much (the minimal answer and its warning). */
const MIN_PAYLOAD_CHARS = 64;

function withWarnings(payload: Payload, warnings: Warning[]): Payload {
  if (warnings.length === 0) return payload;
  const existing = Array.isArray(payload.warnings) ? (payload.warnings as Warning[]) : [];
  return { ...payload, warnings: [...existing, ...warnings] };
}

/**
 * Top-level `truncated` on every answer given a budget; a command's own `true` (a cut page) stays, and
 * so does a command's own `truncated` object (get_record_diff's per-field flags: its type is seed 004's).
 */
function markTruncated(payload: Payload, truncated: boolean): Payload {
  const own = payload.truncated;
  if (own !== undefined && typeof own !== "boolean") return payload;
  return { ...payload, truncated: truncated || own === true };
}

/** How a read asks for a larger budget: the budgets (and profile) at which `target` fits. */
interface Asker {
  args: BudgetArgs;
  limits: Limits;
  /** What the caller adds at a larger budget (a portal's full capsule). */
  reserve: Reserve;
}

/**
 * Room a recovery adds to the size it measured: at the budget it names, the answer's own warning names a
 * larger number (a digit or two more), and a cut answer must still fit with it.
 */
const RECOVERY_SLACK_CHARS = 16;

/** The budget arguments at which `target` fits (`max_chars 5210`), or why none does (even audit is too small). */
function askParts(asker: Asker, target: Size): { parts: string } | { narrow: string } {
  const { args, limits, reserve } = asker;
  const chars = target.chars + reserve.chars + RECOVERY_SLACK_CHARS;
  const parts: string[] = [];
  const profile = args.budget_profile;
  if (profile !== undefined && chars > BUDGET_PROFILES[profile]) {
    if (chars > BUDGET_PROFILES.audit) {
      return {
        narrow: `Narrow the read (limit, cursor): even the audit profile (${BUDGET_PROFILES.audit}) is below the ${chars} characters it needs.`,
      };
    }
    parts.push(`budget_profile "audit"`);
  }
  if (chars > limits.chars || parts.length > 0) parts.push(`max_chars ${chars}`);
  const bytes = target.bytes + reserve.bytes + RECOVERY_SLACK_CHARS;
  if (limits.bytes !== undefined && target.bytes + reserve.bytes > limits.bytes) parts.push(`max_bytes ${bytes}`);
  if (limits.lines !== undefined && target.lines > limits.lines) parts.push(`max_lines ${target.lines}`);
  if (parts.length === 0) parts.push(`max_chars ${chars}`);
  return { parts: parts.join(", ") };
}

function askFor(asker: Asker, target: Size, outcome: string): string {
  const ask = askParts(asker, target);
  return "narrow" in ask ? ask.narrow : `Pass ${ask.parts}: ${outcome}`;
}

function truncatedWarning(message: string, recovery: string): Warning {
  return { code: "BUDGET_TRUNCATED", message, recovery };
}

const TRIMMED_MESSAGE = "Cut to the budget: the oldest items lost their bodies (trimmed: true) or were dropped.";
const SMALL_FORM_MESSAGE = "Cut to the budget: only the command's small form fits.";
const IDS_MESSAGE = "Cut to the budget: only a small form fits, the scalars and the ids of the item kept longest.";
const MINIMAL_MESSAGE = "Only the minimal answer fits the budget.";
const TRIMMED_OUTCOME = "the trimmed answer, its lists cut oldest first.";
/** What a larger budget gives a command whose sections grow with the budget (BudgetSpec.sized). */
const SIZED_OUTCOME = "more of the answer, which may be cut again.";

/** A page the trim empties is searched for again when the warning saying so empties another (each pass only adds). */
const MAX_PAGE_PASSES = 3;

/**
 * The trimmed payload, its emptied pages (budget.pages.ts) without a `next_cursor`; those asked for with
 * a cursor are named in a warning whose recovery is the budget at which each shows an item. `base`
 * carries the ladder's warnings.
 */
function trimPages(base: Payload, spec: BudgetSpec, limits: Limits, original: Payload, asker: Asker): { payload: Payload; size: Size } {
  let trimmed = trimToFit(base, spec, limits, original);
  let pages = emptiedPages(trimmed.payload, original, true);
  for (let pass = 0; pass < MAX_PAGE_PASSES && pages.length > 0; pass++) {
    const wanted = pages;
    const found = smallestTrim(base, spec, original, limits.chars, measure(base, limits).chars, (t) => pagesShowItems(t, wanted));
    const ask = found === undefined ? undefined : askParts(asker, measure(found, limits));
    const warning = pageWarning(pages, ask && "parts" in ask ? ask.parts : undefined);
    trimmed = trimToFit(withWarnings(base, [warning]), spec, limits, original);
    const now = emptiedPages(trimmed.payload, original, true);
    if (now.length === pages.length) break;
    pages = now;
  }
  const emptied = emptiedPages(trimmed.payload, original);
  if (emptied.length === 0) return trimmed;
  const payload = withheldCursors(trimmed.payload, emptied);
  return { payload, size: measure(payload, limits) };
}

const hasPageWarning = (answer: Payload) =>
  Array.isArray(answer.warnings) && (answer.warnings as Warning[]).some((warning) => warning.code === "BUDGET_ITEM_TOO_LARGE");

/** The scalar fields of a payload: what the minimal answer keeps (a top-level page's cursor aside: budget.ids.ts). */
function scalarsOf(payload: Payload): Payload {
  const scalars: Payload = {};
  for (const [key, value] of Object.entries(payload)) if (isScalar(key, value)) scalars[key] = value;
  return scalars;
}

/**
 * Trim `payload` to the budget; returns the payload with `budget` (and warnings) attached. A `reserve`
 * is taken off the budget first and counted in `used_chars`: the caller adds exactly that much after.
 * `nextReserve`: what the caller adds at a larger budget (recoveries name budgets that include it).
 */
export function applyBudget(
  payload: Payload,
  spec: BudgetSpec | undefined,
  args: BudgetArgs,
  defaultProfile: BudgetProfile,
  reserve: Reserve = { chars: 0, bytes: 0 },
  nextReserve: Reserve = reserve,
): Payload {
  const resolved = resolveLimits(args, defaultProfile);
  const { warnings } = resolved;
  const limits: Limits = {
    ...resolved.limits,
    chars: Math.max(resolved.limits.chars - reserve.chars, MIN_PAYLOAD_CHARS),
    bytes: resolved.limits.bytes === undefined ? undefined : Math.max(resolved.limits.bytes - reserve.bytes, MIN_PAYLOAD_CHARS),
  };
  const asker: Asker = { args, limits: resolved.limits, reserve: nextReserve };
  const finish = (answer: Payload, size: Size, truncated: boolean): Payload => {
    const budget: BudgetReport = { max_chars: resolved.limits.chars, used_chars: size.chars + reserve.chars, truncated };
    if (resolved.limits.bytes !== undefined) budget.max_bytes = resolved.limits.bytes;
    if (limits.lines !== undefined) budget.max_lines = limits.lines;
    return { ...answer, budget };
  };

  // 1. Whole.
  const whole = markTruncated(withWarnings(payload, warnings), false);
  const wholeSize = measure(whole, limits);
  if (within(wholeSize, limits)) return finish(whole, wholeSize, false);

  // An answer keeps ids before it drops them: one that names none, when the payload names some, gives way
  // to a later form that does (a page that says which budget shows its next item stays: it says how on).
  const payloadIds = namesIds(payload);
  const keepsIds = (answer: Payload) => !payloadIds || namesIds(answer) || hasPageWarning(answer);

  // 2. Trimmed: if even its skeleton (every list emptied) does not fit, or names no id, the next rungs
  // name the budget at which a trimmed answer that keeps ids fits.
  let trimmedFit: { payload: Payload; size: Size } | undefined;
  let above = askFor(asker, wholeSize, "the whole answer.");
  if (spec) {
    const warning = truncatedWarning(TRIMMED_MESSAGE, askFor(asker, wholeSize, spec.sized ? SIZED_OUTCOME : "the whole answer."));
    const base = markTruncated(withWarnings(payload, [...warnings, warning]), true);
    const trimmed = trimPages(base, spec, limits, payload, asker);
    const fitting = within(trimmed.size, limits);
    if (fitting && keepsIds(trimmed.payload)) return finish(trimmed.payload, trimmed.size, true);
    if (fitting) trimmedFit = trimmed;
    if (!fitting && keepsIds(trimmed.payload)) above = askFor(asker, trimmed.size, TRIMMED_OUTCOME);
    else {
      const found = smallestTrim(base, spec, payload, limits.chars, wholeSize.chars, keepsIds);
      if (found !== undefined) above = askFor(asker, measure(found, limits), TRIMMED_OUTCOME);
    }
  }

  // 3. The command's own small forms, largest first (one passes an id-less trimmed answer only with ids).
  const forms = (spec?.stubs?.(payload) ?? []).map((form) =>
    markTruncated(withWarnings(form, [...warnings, truncatedWarning(SMALL_FORM_MESSAGE, above)]), true),
  );
  let smallest: Size | undefined;
  for (const form of forms) {
    const size = measure(form, limits);
    if (within(size, limits) && (trimmedFit === undefined || namesIds(form))) return finish(form, size, true);
    if (!within(size, limits)) smallest = size;
  }

  // 4. The ids form: the scalars and the item the trim keeps longest, when it names an id.
  const ids = spec ? idsForm(payload, spec) : undefined;
  if (ids && payloadIds) {
    const form = markTruncated(withWarnings(ids, [...warnings, truncatedWarning(IDS_MESSAGE, above)]), true);
    const size = measure(form, limits);
    if (within(size, limits)) return finish(form, size, true);
  }
  if (trimmedFit) return finish(trimmedFit.payload, trimmedFit.size, true);

  // 5. Minimal: the scalars and a signal, else the signal alone; both keep their warnings whole.
  const minimalRecovery = smallest ? askFor(asker, smallest, "the command's small form.") : above;
  const notes = [...warnings, { code: "BUDGET_MINIMAL", message: MINIMAL_MESSAGE, recovery: minimalRecovery }];
  const candidates = [
    { ...scalarsOf(payload), signal: "minimal", truncated: true, warnings: notes },
    { signal: "minimal", truncated: true, warnings: notes },
  ];
  const minimal = candidates.find((candidate) => fits(candidate, limits)) ?? (candidates[1] as Payload);
  return finish(minimal, measure(minimal, limits), true);
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
  const full = capsuleReserve(capsule.full);
  const chosen = limits.chars - full.chars >= MIN_BUDGET_CHARS ? capsule.full : capsule.compact;
  return { ...applyBudget(payload, spec, args, defaultProfile, capsuleReserve(chosen), full), capsule: chosen };
}
