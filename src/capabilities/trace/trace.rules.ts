/**
 * The rules of trace steps, pure (no I/O, no clock), so the numbering a write applies and the checks
 * `trace_validate` runs over stored entries are one definition, tested on their own.
 *
 * Numbering (per named sequence of one trace doc; `last` = highest step number of the sequence):
 * - a plain step is number `last + 1`; `step_number` may be omitted (it defaults to that) or must equal it;
 * - a revision (`revises_step: r`, 1 ≤ r ≤ last) restates step r: it carries number r (`step_number`
 *   omitted or equal to r) and leaves `last` unchanged;
 * - a branch (`branch_from_step: b`) starts a NEW sequence that forks after step b of
 *   `branch_from_sequence` (default `main`, which must have reached b): its first step is b + 1, and
 *   it continues from there;
 * - when the sequence's newest step lies beyond the lookback window (its `last` is unknown), a plain
 *   step needs an explicit `step_number`, which is accepted as a re-anchor (`reanchored: true`);
 *   revisions and branches need a known `last` and are refused.
 *
 * Validation walks a window of entries oldest-first. Only `note` entries with `meta.trace` are steps;
 * events and plain notes are counted as checked and skipped. A window that reaches the start of the
 * document (`complete`) checks every sequence from 1; otherwise the first step of a sequence seen in
 * the window is taken as its baseline.
 */
import { fail } from "../../shared/errors";
import { DEFAULT_SEQUENCE, MAX_STEP_NUMBER, type TraceError } from "./trace.schema";

/** Highest step number of a sequence: 0 when it has no step, "unknown" when beyond the lookback. */
export type SequenceLast = number | "unknown";

export interface NumberingInput {
  sequence: string;
  step_number?: number | undefined;
  revises_step?: number | undefined;
  branch_from_step?: number | undefined;
  branch_from_sequence?: string | undefined;
}

export interface Numbered {
  step_number: number;
  /** The sequence's last number once this step is written. */
  sequence_last: number;
  /** The sequence's last number before it (null when unknown). */
  previous_last: number | null;
  reanchored: boolean;
}

/** The sequences whose `last` the numbering of `input` needs. */
export function sequencesNeeded(input: NumberingInput): string[] {
  if (input.branch_from_step === undefined) return [input.sequence];
  return [input.sequence, input.branch_from_sequence ?? DEFAULT_SEQUENCE];
}

/** Decides the number of a sequential step, or fails INVALID_INPUT saying what would be accepted. */
export function numberStep(input: NumberingInput, heads: ReadonlyMap<string, SequenceLast>): Numbered {
  const { sequence } = input;
  const last = heads.get(sequence) ?? 0;
  if (input.revises_step !== undefined && input.branch_from_step !== undefined) {
    fail(
      "INVALID_INPUT",
      "A step either revises an earlier step or branches from one, not both.",
      "Drop revises_step or branch_from_step.",
      {
        fields: ["revises_step", "branch_from_step"],
      },
    );
  }
  if (input.branch_from_sequence !== undefined && input.branch_from_step === undefined) {
    fail("INVALID_INPUT", "branch_from_sequence needs branch_from_step.", "Add branch_from_step (the step to fork after), or drop it.", {
      fields: ["branch_from_sequence"],
    });
  }
  if (input.revises_step !== undefined) return revision(input, input.revises_step, last);
  if (input.branch_from_step !== undefined) return branch(input, input.branch_from_step, last, heads);
  if (last === "unknown") {
    if (input.step_number === undefined) {
      fail(
        "INVALID_INPUT",
        `The newest step of sequence "${sequence}" is older than the lookback window, so its last number is unknown.`,
        "Pass step_number explicitly to re-anchor the sequence (trace_validate with a cursor shows older steps), or start a new sequence name.",
        { sequence, last_step_number: null },
      );
    }
    return { step_number: input.step_number, sequence_last: input.step_number, previous_last: null, reanchored: true };
  }
  const expected = last + 1;
  if (expected > MAX_STEP_NUMBER) {
    fail(
      "INVALID_INPUT",
      `Sequence "${sequence}" reached the largest step number, ${MAX_STEP_NUMBER}.`,
      "Continue in a new sequence name.",
      {
        sequence,
        last_step_number: last,
      },
    );
  }
  if (input.step_number !== undefined && input.step_number !== expected) {
    fail(
      "INVALID_INPUT",
      `step_number ${input.step_number} is not next in sequence "${sequence}": its last step is ${last}, so the next is ${expected}.`,
      "Omit step_number to take the next number, or pass revises_step to restate an earlier step.",
      { sequence, step_number: input.step_number, last_step_number: last, expected_step_number: expected },
    );
  }
  return { step_number: expected, sequence_last: expected, previous_last: last, reanchored: false };
}

function revision(input: NumberingInput, revises: number, last: SequenceLast): Numbered {
  const { sequence } = input;
  if (last === "unknown" || revises > last) {
    fail(
      "INVALID_INPUT",
      last === "unknown"
        ? `Cannot revise step ${revises} of sequence "${sequence}": its newest step is older than the lookback window.`
        : `Cannot revise step ${revises} of sequence "${sequence}": it has reached step ${last}.`,
      "Revise a step the sequence has reached, or write the next step without revises_step.",
      { sequence, revises_step: revises, last_step_number: last === "unknown" ? null : last },
    );
  }
  if (input.step_number !== undefined && input.step_number !== revises) {
    fail(
      "INVALID_INPUT",
      `A revision carries the number of the step it revises (${revises}), not ${input.step_number}.`,
      "Omit step_number on a revision.",
      { sequence, step_number: input.step_number, revises_step: revises, last_step_number: last },
    );
  }
  return { step_number: revises, sequence_last: last, previous_last: last, reanchored: false };
}

function branch(input: NumberingInput, from: number, last: SequenceLast, heads: ReadonlyMap<string, SequenceLast>): Numbered {
  const { sequence } = input;
  const source = input.branch_from_sequence ?? DEFAULT_SEQUENCE;
  if (source === sequence) {
    fail(
      "INVALID_INPUT",
      `A branch starts a new sequence; "${sequence}" is the sequence it branches from.`,
      "Name the new sequence with `sequence` (e.g. `alt-1`), different from branch_from_sequence.",
      { sequence, branch_from_sequence: source },
    );
  }
  if (last !== 0) {
    fail(
      "INVALID_INPUT",
      `Sequence "${sequence}" already has steps, and only the first step of a sequence may branch.`,
      "Pick a new sequence name for the branch, or drop branch_from_step to continue this sequence.",
      { sequence, last_step_number: last === "unknown" ? null : last },
    );
  }
  const sourceLast = heads.get(source) ?? 0;
  if (sourceLast === "unknown" || from > sourceLast) {
    fail(
      "INVALID_INPUT",
      sourceLast === "unknown"
        ? `Cannot branch from step ${from} of sequence "${source}": its newest step is older than the lookback window.`
        : `Cannot branch from step ${from} of sequence "${source}": it has reached step ${sourceLast}.`,
      "Branch from a step the source sequence has reached.",
      { branch_from_sequence: source, branch_from_step: from, last_step_number: sourceLast === "unknown" ? null : sourceLast },
    );
  }
  const first = from + 1;
  if (input.step_number !== undefined && input.step_number !== first) {
    fail(
      "INVALID_INPUT",
      `A branch from step ${from} starts at step ${first}, not ${input.step_number}.`,
      "Omit step_number on the first step of a branch.",
      { sequence, step_number: input.step_number, expected_step_number: first },
    );
  }
  return { step_number: first, sequence_last: first, previous_last: 0, reanchored: false };
}

/** One entry of a validation window, as read from the store. */
export interface TraceRow {
  seq: number;
  kind: "note" | "event";
  title: string | null;
  meta: Record<string, unknown> | undefined;
}

export interface ValidationReport {
  ordered: boolean;
  steps: number;
  errors: TraceError[];
  error_count: number;
  sequences: Record<string, { last: number; count: number }>;
}

const isPositiveInt = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 1;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** Checks a window of entries, oldest first. At most `maxErrors` errors are listed; all are counted. */
export function validateTrace(rows: readonly TraceRow[], options: { complete: boolean; maxErrors: number }): ValidationReport {
  const errors: TraceError[] = [];
  let errorCount = 0;
  const report = (code: string, seq: number, message: string) => {
    errorCount++;
    if (errors.length < options.maxErrors) errors.push({ code, seq, message });
  };
  const sequences = new Map<string, { last: number; count: number }>();
  let ordered = true;
  let steps = 0;
  let previousSeq = 0;

  for (const row of rows) {
    if (row.seq <= previousSeq) {
      ordered = false;
      report("TRACE_ORDER", row.seq, `entry ${row.seq} comes after entry ${previousSeq}; entries must be in seq order`);
    }
    previousSeq = Math.max(previousSeq, row.seq);
    if (row.kind !== "note" || row.meta === undefined || !("trace" in row.meta)) continue;
    steps++;
    const trace = row.meta.trace;
    if (!isObject(trace)) {
      report("TRACE_FIELD_INVALID", row.seq, "meta.trace must be an object");
      continue;
    }
    if (trace.type !== "step" && trace.type !== "sequential") {
      report("TRACE_TYPE_UNKNOWN", row.seq, `meta.trace.type is ${JSON.stringify(trace.type)}; expected "step" or "sequential"`);
      continue;
    }
    if (row.title === null || row.title.trim() === "") report("TRACE_TITLE_MISSING", row.seq, "a step needs a title (the step field)");
    if (trace.type === "sequential") checkSequential(row.seq, trace, sequences, options.complete, report);
  }
  return { ordered, steps, errors, error_count: errorCount, sequences: Object.fromEntries(sequences) };
}

function checkSequential(
  seq: number,
  trace: Record<string, unknown>,
  sequences: Map<string, { last: number; count: number }>,
  complete: boolean,
  report: (code: string, seq: number, message: string) => void,
): void {
  const name = trace.sequence;
  const number = trace.step_number;
  if (typeof name !== "string" || name === "" || !isPositiveInt(number)) {
    report(
      "TRACE_FIELD_INVALID",
      seq,
      "a sequential step needs meta.trace.sequence (a name) and meta.trace.step_number (a positive integer)",
    );
    return;
  }
  for (const field of ["total_steps", "revises_step", "branch_from_step"] as const) {
    if (trace[field] !== undefined && !isPositiveInt(trace[field])) {
      report("TRACE_FIELD_INVALID", seq, `meta.trace.${field} must be a positive integer`);
      return;
    }
  }
  if (trace.next_step_needed !== undefined && typeof trace.next_step_needed !== "boolean") {
    report("TRACE_FIELD_INVALID", seq, "meta.trace.next_step_needed must be a boolean");
    return;
  }
  const seen = sequences.get(name);
  const state = seen ?? { last: 0, count: 0 };
  if (!seen) sequences.set(name, state);
  // Without the start of the document, a sequence's first step in the window is its baseline.
  const known = seen !== undefined || complete;
  const revises = trace.revises_step as number | undefined;
  const branchFrom = trace.branch_from_step as number | undefined;

  if (revises !== undefined) {
    if (revises !== number) {
      report("SEQUENCE_BAD_REVISION", seq, `step ${number} of "${name}" revises step ${revises}; a revision carries the number it revises`);
    } else if (known && revises > state.last) {
      report("SEQUENCE_BAD_REVISION", seq, `step ${number} of "${name}" revises a step the sequence had not reached (last ${state.last})`);
    }
    if (!known) state.last = number;
  } else if (branchFrom !== undefined) {
    const sourceName = typeof trace.branch_from_sequence === "string" ? trace.branch_from_sequence : DEFAULT_SEQUENCE;
    const source = sequences.get(sourceName);
    if (state.count > 0) {
      report("SEQUENCE_BAD_BRANCH", seq, `step ${number} of "${name}" branches, but only the first step of a sequence may branch`);
    } else if (number !== branchFrom + 1) {
      report(
        "SEQUENCE_BAD_BRANCH",
        seq,
        `step ${number} of "${name}" branches from step ${branchFrom}, so it must be step ${branchFrom + 1}`,
      );
    } else if (source ? source.last < branchFrom : complete) {
      report("SEQUENCE_BAD_BRANCH", seq, `"${name}" branches from step ${branchFrom} of "${sourceName}", which had not reached it`);
    }
    state.last = Math.max(state.last, number);
  } else if (!known || trace.reanchored === true) {
    state.last = number;
  } else {
    const expected = state.last + 1;
    if (number > expected)
      report("SEQUENCE_GAP", seq, `step ${number} of "${name}" follows step ${state.last}: steps ${expected}-${number - 1} are missing`);
    else if (number < expected)
      report("SEQUENCE_DUPLICATE", seq, `step ${number} of "${name}" repeats a number the sequence already used (last ${state.last})`);
    state.last = Math.max(state.last, number);
  }
  state.count++;
}
