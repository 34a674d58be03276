// Unit tests of the trace rules (pure): numbering and window validation. Through MCP: test/trace.test.ts.
import { describe, expect, it } from "vitest";
import { CommandError } from "../../shared/errors";
import { type NumberingInput, numberStep, type SequenceLast, type TraceRow, validateTrace } from "./trace.rules";

const heads = (entries: Record<string, SequenceLast>) => new Map(Object.entries(entries));

function refusal(input: NumberingInput, state: Record<string, SequenceLast>) {
  try {
    numberStep(input, heads(state));
  } catch (error) {
    if (error instanceof CommandError) return error.error;
    throw error;
  }
  throw new Error("numberStep unexpectedly accepted the step");
}

describe("numberStep", () => {
  it("numbers plain steps last + 1 and refuses any other explicit number", () => {
    expect(numberStep({ sequence: "main" }, heads({}))).toEqual({ step_number: 1, sequence_last: 1, previous_last: 0, reanchored: false });
    expect(numberStep({ sequence: "main", step_number: 4 }, heads({ main: 3 }))).toMatchObject({ step_number: 4, previous_last: 3 });
    const gap = refusal({ sequence: "main", step_number: 6 }, { main: 3 });
    expect(gap.code).toBe("INVALID_INPUT");
    expect(gap.details).toMatchObject({ sequence: "main", step_number: 6, last_step_number: 3, expected_step_number: 4 });
    expect(refusal({ sequence: "main", step_number: 3 }, { main: 3 }).code).toBe("INVALID_INPUT");
  });

  it("gives a revision the number it revises and keeps last", () => {
    expect(numberStep({ sequence: "main", revises_step: 2 }, heads({ main: 5 }))).toEqual({
      step_number: 2,
      sequence_last: 5,
      previous_last: 5,
      reanchored: false,
    });
    expect(refusal({ sequence: "main", revises_step: 6 }, { main: 5 }).details).toMatchObject({ last_step_number: 5 });
    expect(refusal({ sequence: "main", revises_step: 2, step_number: 6 }, { main: 5 }).code).toBe("INVALID_INPUT");
    expect(refusal({ sequence: "main", revises_step: 1 }, { main: "unknown" }).details).toMatchObject({ last_step_number: null });
  });

  it("starts a branch as a new sequence at branch_from_step + 1", () => {
    expect(numberStep({ sequence: "alt", branch_from_step: 2 }, heads({ alt: 0, main: 4 }))).toMatchObject({
      step_number: 3,
      sequence_last: 3,
    });
    expect(numberStep({ sequence: "b", branch_from_step: 1, branch_from_sequence: "alt" }, heads({ alt: 3 })).step_number).toBe(2);
    expect(refusal({ sequence: "main", branch_from_step: 1 }, { main: 4 }).message).toContain("new sequence");
    expect(refusal({ sequence: "alt", branch_from_step: 1 }, { alt: 2, main: 4 }).message).toContain("already has steps");
    expect(refusal({ sequence: "alt", branch_from_step: 5 }, { main: 4 }).details).toMatchObject({ last_step_number: 4 });
    expect(refusal({ sequence: "alt", branch_from_step: 2, step_number: 4 }, { main: 4 }).details).toMatchObject({
      expected_step_number: 3,
    });
    expect(refusal({ sequence: "alt", branch_from_sequence: "main" }, {}).code).toBe("INVALID_INPUT");
    expect(refusal({ sequence: "alt", revises_step: 1, branch_from_step: 1 }, { alt: 2 }).code).toBe("INVALID_INPUT");
  });

  it("re-anchors a sequence whose last number is beyond the lookback only with an explicit number", () => {
    expect(refusal({ sequence: "main" }, { main: "unknown" }).details).toMatchObject({ last_step_number: null });
    expect(numberStep({ sequence: "main", step_number: 40 }, heads({ main: "unknown" }))).toEqual({
      step_number: 40,
      sequence_last: 40,
      previous_last: null,
      reanchored: true,
    });
  });
});

let nextSeq = 1;
function step(number: number, extra: Record<string, unknown> = {}, title: string | null = `step ${number}`): TraceRow {
  return { seq: nextSeq++, kind: "note", title, meta: { trace: { type: "sequential", sequence: "main", step_number: number, ...extra } } };
}

describe("validateTrace", () => {
  it("accepts a clean trace with revisions and branches and summarises each sequence", () => {
    const rows: TraceRow[] = [
      step(1),
      { seq: nextSeq++, kind: "event", title: "task_created", meta: { event_id: "evt_1" } },
      { seq: nextSeq++, kind: "note", title: "plain step", meta: { trace: { type: "step", kind: "action" } } },
      step(2),
      step(1, { revises_step: 1 }),
      step(3),
      step(3, { sequence: "alt", branch_from_step: 2 }),
      step(4, { sequence: "alt" }),
    ];
    const report = validateTrace(rows, { complete: true, maxErrors: 10 });
    expect(report).toMatchObject({ ordered: true, steps: 7, errors: [], error_count: 0 });
    expect(report.sequences).toEqual({ main: { last: 3, count: 4 }, alt: { last: 4, count: 2 } });
  });

  it("reports gaps, duplicates, bad revisions and branches, missing titles and malformed fields with their seq", () => {
    const rows: TraceRow[] = [
      step(2),
      step(3),
      step(3),
      step(5, { revises_step: 5 }),
      step(2, { sequence: "alt", branch_from_step: 1, branch_from_sequence: "nowhere" }),
      step(4, {}, null),
      { seq: nextSeq++, kind: "note", title: "odd", meta: { trace: { type: "thought" } } },
      { seq: nextSeq++, kind: "note", title: "odd", meta: { trace: "x" } },
      { seq: nextSeq++, kind: "note", title: "odd", meta: { trace: { type: "sequential", sequence: "main" } } },
    ];
    const report = validateTrace(rows, { complete: true, maxErrors: 50 });
    expect(report.errors.map((error) => error.code)).toEqual([
      "SEQUENCE_GAP",
      "SEQUENCE_DUPLICATE",
      "SEQUENCE_BAD_REVISION",
      "SEQUENCE_BAD_BRANCH",
      "TRACE_TITLE_MISSING",
      "TRACE_TYPE_UNKNOWN",
      "TRACE_FIELD_INVALID",
      "TRACE_FIELD_INVALID",
    ]);
    expect(report.errors[0]?.seq).toBe(rows[0]?.seq);
    const limited = validateTrace(rows, { complete: true, maxErrors: 2 });
    expect(limited.errors).toHaveLength(2);
    expect(limited.error_count).toBe(8);
  });

  it("takes a sequence's first step as its baseline when the window does not reach the start", () => {
    expect(validateTrace([step(7), step(8)], { complete: false, maxErrors: 5 }).error_count).toBe(0);
    expect(validateTrace([step(7), step(8)], { complete: true, maxErrors: 5 }).errors.map((error) => error.code)).toEqual(["SEQUENCE_GAP"]);
    expect(validateTrace([step(1), step(9, { reanchored: true })], { complete: true, maxErrors: 5 }).error_count).toBe(0);
  });

  it("reports entries out of seq order", () => {
    const report = validateTrace(
      [
        { seq: 5, kind: "event", title: null, meta: undefined },
        { seq: 4, kind: "event", title: null, meta: undefined },
      ],
      { complete: true, maxErrors: 5 },
    );
    expect(report.ordered).toBe(false);
    expect(report.errors).toEqual([{ code: "TRACE_ORDER", seq: 4, message: expect.stringContaining("seq order") }]);
  });
});
