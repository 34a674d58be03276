/**
 * The one budget mechanism for every read (DESIGN §5), a ladder of levels, least degraded first:
 *
 * 1. whole: the payload as the command built it;
 * 2. trimmed (`BUDGET_TRUNCATED`): the command's trimmable lists lose the bodies of their oldest items
 *    (ids and refs stay, `trimmed: true`), then their oldest items (budget.trim.ts);
 * 3. the command's own small forms, largest first (`BUDGET_TRUNCATED`);
 * 4. minimal (`BUDGET_MINIMAL`): the payload's scalar fields and a signal.
 *
 * A payload is measured as compact JSON without its `budget` field (`used_chars`), and also in UTF-8
 * bytes and in lines of the text block when those budgets are given. Every answer given a budget has a
 * top-level `truncated`. Every warning has a message and a recovery; a cut's recovery names the budget
 * at which the level above fits, so calling again with it returns a less degraded answer. Pure.
 */

import { type BudgetSpec, fits, type Limits, measure, type Payload, type Size, trimToFit, within } from "./budget.trim";
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

function clamped(name: string, requested: number, minimum: number): Warning {
  return {
    code: "BUDGET_MIN_CLAMPED",
    message: `${name} ${requested} is below the minimum ${minimum}; raised to it.`,
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
    warnings.push(clamped("max_chars", requested, MIN_BUDGET_CHARS));
    chars = MIN_BUDGET_CHARS;
  }
  let bytes = args.max_bytes;
  if (bytes !== undefined && bytes < MIN_BUDGET_CHARS) {
    warnings.push(clamped("max_bytes", bytes, MIN_BUDGET_CHARS));
    bytes = MIN_BUDGET_CHARS;
  }
  let lines = args.max_lines;
  if (lines !== undefined && lines < MIN_BUDGET_LINES) {
    warnings.push(clamped("max_lines", lines, MIN_BUDGET_LINES));
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

function askFor(asker: Asker, target: Size, outcome: string): string {
  const { args, limits, reserve } = asker;
  const chars = target.chars + reserve.chars + RECOVERY_SLACK_CHARS;
  const parts: string[] = [];
  const profile = args.budget_profile;
  if (profile !== undefined && chars > BUDGET_PROFILES[profile]) {
    if (chars > BUDGET_PROFILES.audit) {
      return `Narrow the read (limit, cursor): even the audit profile (${BUDGET_PROFILES.audit}) is below the ${chars} characters it needs.`;
    }
    parts.push(`budget_profile "audit"`);
  }
  if (chars > limits.chars || parts.length > 0) parts.push(`max_chars ${chars}`);
  const bytes = target.bytes + reserve.bytes + RECOVERY_SLACK_CHARS;
  if (limits.bytes !== undefined && target.bytes + reserve.bytes > limits.bytes) parts.push(`max_bytes ${bytes}`);
  if (limits.lines !== undefined && target.lines > limits.lines) parts.push(`max_lines ${target.lines}`);
  return `Pass ${parts.join(", ")}: ${outcome}`;
}

function truncatedWarning(message: string, recovery: string): Warning {
  return { code: "BUDGET_TRUNCATED", message, recovery };
}

const TRIMMED_MESSAGE = "Cut to the budget: the oldest items lost their bodies (trimmed: true) or were dropped.";
const SMALL_FORM_MESSAGE = "Cut to the budget: only the command's small form fits.";
const MINIMAL_MESSAGE = "Only the minimal answer fits the budget.";
/** What a larger budget gives a command whose sections grow with the budget (BudgetSpec.sized). */
const SIZED_OUTCOME = "more of the answer, which may be cut again.";

/** The scalar fields of a payload: what the minimal answer keeps. */
function scalarsOf(payload: Payload): Payload {
  const scalars: Payload = {};
  for (const [key, value] of Object.entries(payload)) if (value === null || typeof value !== "object") scalars[key] = value;
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

  // 2. Trimmed: if even its skeleton (every list emptied) does not fit, its size is what the next rung names.
  let trimmedSize: Size | undefined;
  if (spec) {
    const warning = truncatedWarning(TRIMMED_MESSAGE, askFor(asker, wholeSize, spec.sized ? SIZED_OUTCOME : "the whole answer."));
    const trimmed = trimToFit(markTruncated(withWarnings(payload, [...warnings, warning]), true), spec, limits, payload);
    if (within(trimmed.size, limits)) return finish(trimmed.payload, trimmed.size, true);
    trimmedSize = trimmed.size;
  }

  // 3. The command's own small forms, largest first.
  const above = trimmedSize
    ? askFor(asker, trimmedSize, "the trimmed answer, its lists cut oldest first.")
    : askFor(asker, wholeSize, "the whole answer.");
  const forms = (spec?.stubs?.(payload) ?? []).map((form) =>
    markTruncated(withWarnings(form, [...warnings, truncatedWarning(SMALL_FORM_MESSAGE, above)]), true),
  );
  let smallest: Size | undefined;
  for (const form of forms) {
    const size = measure(form, limits);
    if (within(size, limits)) return finish(form, size, true);
    smallest = size;
  }

  // 4. Minimal: the scalars and a signal, else the signal alone; both keep their warnings whole.
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
