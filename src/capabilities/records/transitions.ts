/**
 * The record workflow state machine (seed 004 "Valid transitions"), pure: which moves exist, what each
 * requires (a reason for LATER and DISCARDED, `resolved_by` for RESOLVED) and what it leaves on the
 * record (reopening clears `resolved_by` and the reason). The same rules check a record's initial
 * state at creation. No I/O; the caller turns a refusal into INVALID_TRANSITION.
 */
import { RECORD_STATES, type RecordState } from "./records.schema";

type Requirement = "reason" | "resolved_by" | null;

/** Seed 004's list, exactly: from → to → what the move needs. */
const TRANSITIONS: Readonly<Record<RecordState, Partial<Record<RecordState, Requirement>>>> = {
  OPEN: { LATER: "reason", RESOLVED: "resolved_by", DISCARDED: "reason" },
  LATER: { OPEN: null, DISCARDED: "reason" },
  RESOLVED: { OPEN: null },
  DISCARDED: { OPEN: null },
};

/** What a state needs when a record enters it (by a transition, or at creation). */
const ENTRY_REQUIREMENT: Readonly<Record<RecordState, Requirement>> = {
  OPEN: null,
  LATER: "reason",
  RESOLVED: "resolved_by",
  DISCARDED: "reason",
};

export interface TransitionArgs {
  reason?: string | undefined;
  resolved_by?: string | undefined;
}

export type TransitionCheck =
  | { ok: true; resolved_by: string | null; state_reason: string | null }
  | { ok: false; problem: "not_allowed" | "reason_required" | "resolved_by_required" | "resolved_by_not_allowed"; allowed: RecordState[] };

/** The states a record in `from` may move to, in seed order. */
export function allowedFrom(from: RecordState): RecordState[] {
  return RECORD_STATES.filter((to) => to in TRANSITIONS[from]);
}

function entered(to: RecordState, args: TransitionArgs, allowed: RecordState[]): TransitionCheck {
  const need = ENTRY_REQUIREMENT[to];
  if (need === "reason" && args.reason === undefined) return { ok: false, problem: "reason_required", allowed };
  if (need === "resolved_by" && args.resolved_by === undefined) return { ok: false, problem: "resolved_by_required", allowed };
  if (to !== "RESOLVED" && args.resolved_by !== undefined) return { ok: false, problem: "resolved_by_not_allowed", allowed };
  return {
    ok: true,
    resolved_by: to === "RESOLVED" ? (args.resolved_by ?? null) : null,
    // Reopening clears the reason (the history keeps it); every other state keeps the one given.
    state_reason: to === "OPEN" ? null : (args.reason ?? null),
  };
}

/** Checks the move `from → to` with its arguments; on success, the `resolved_by` and reason the record gets. */
export function checkTransition(from: RecordState, to: RecordState, args: TransitionArgs): TransitionCheck {
  const allowed = allowedFrom(from);
  if (!(to in TRANSITIONS[from])) return { ok: false, problem: "not_allowed", allowed };
  return entered(to, args, allowed);
}

/** Checks the state a record is created in (default OPEN): the same requirements as entering it. */
export function checkInitialState(state: RecordState, args: TransitionArgs): TransitionCheck {
  return entered(state, args, [...RECORD_STATES]);
}

/** Every valid move, for docs and errors: `OPEN → LATER (reason)`. */
export function transitionTable(): { from: RecordState; to: RecordState; requires: Requirement }[] {
  return RECORD_STATES.flatMap((from) =>
    RECORD_STATES.filter((to) => to in TRANSITIONS[from]).map((to) => ({ from, to, requires: TRANSITIONS[from][to] ?? null })),
  );
}
