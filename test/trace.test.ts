// End-to-end: the trace tools (seed 001 "Trace tools (v0.2)") through the real MCP endpoint. The pure
// numbering and validation rules have their own unit tests in src/capabilities/trace/trace.rules.test.ts.
import { describe, expect, it } from "vitest";
import { as, failure, ok } from "./helpers/mcp";

describe("trace_step", () => {
  it("writes a structured step to a task's trace doc with target, beside the task's events", async () => {
    const workspace = "trace/target";
    const plan = await ok("tasks_create", { workspace, title: "Ship the cache" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Add an LRU layer" });
    expect(task.id).toBe("TASK-001");
    const written = await ok("trace_step", {
      workspace,
      target: task.id,
      step: "Ran the benchmark",
      content: "p50 dropped from 12 ms to 3 ms",
      kind: "observation",
      meta: { run: 7 },
    });
    expect(written.entry).toMatchObject({
      branch: "task/TASK-001",
      doc: "TASK-001-trace",
      kind: "note",
      title: "Ran the benchmark",
      content: "p50 dropped from 12 ms to 3 ms",
      meta: { trace: { type: "step", kind: "observation" }, run: 7 },
    });
    const shown = await ok("show", { workspace, target: { id: task.id, kind: "task" } });
    expect(shown.doc).toBe("TASK-001-trace");
    expect(shown.entries.map((entry: { kind: string }) => entry.kind)).toEqual(["event", "note"]);
    // `message` is the same field as `content`.
    const viaMessage = await ok("trace_step", { workspace, target: task.id, step: "Note", message: "said as message" });
    expect(viaMessage.entry.content).toBe("said as message");
  });

  it("without target or branch writes to the checkout's `trace` doc, never to the focus", async () => {
    const workspace = "trace/checkout";
    const alice = await as("alice");
    const plan = await ok("tasks_create", { workspace, title: "P" }, alice);
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "T" }, alice);
    await ok("tasks_focus_set", { workspace, target: task.id }, alice);
    const onMain = await ok("trace_step", { workspace, step: "on the checkout" }, alice);
    expect(onMain.entry).toMatchObject({ branch: "main", doc: "trace", content: "" });

    await ok("branch_create", { workspace, name: "experiment" }, alice);
    await ok("checkout", { workspace, ref: "experiment" }, alice);
    const onBranch = await ok("trace_step", { workspace, step: "on the new checkout" }, alice);
    expect(onBranch.entry).toMatchObject({ branch: "experiment", doc: "trace" });
    const explicit = await ok("trace_step", { workspace, branch: "main", doc: "scratch", step: "explicit" }, alice);
    expect(explicit.entry).toMatchObject({ branch: "main", doc: "scratch" });

    const hydrated = await ok("trace_hydrate", { workspace }, alice);
    expect(hydrated).toMatchObject({ target: null, branch: "experiment", doc: "trace" });
    expect(hydrated.entries.map((entry: { title: string }) => entry.title)).toEqual(["on the checkout", "on the new checkout"]);
  });

  it("refuses target with branch or doc, both content and message, and a reserved meta key", async () => {
    const workspace = "trace/refusals";
    const plan = await ok("tasks_create", { workspace, title: "P" });
    await ok("tasks_create", { workspace, parent: plan.id, title: "T" });
    const withBranch = await failure("trace_step", { workspace, target: "TASK-001", branch: "main", step: "x" });
    expect(withBranch.code).toBe("INVALID_INPUT");
    expect(withBranch.details).toMatchObject({ fields: ["target", "branch"] });
    const withDoc = await failure("trace_step", { workspace, target: "TASK-001", doc: "trace", step: "x" });
    expect(withDoc.code).toBe("INVALID_INPUT");
    expect(withDoc.details).toMatchObject({ fields: ["target", "doc"] });
    expect((await failure("trace_hydrate", { workspace, target: "TASK-001", branch: "main" })).code).toBe("INVALID_INPUT");
    expect((await failure("trace_validate", { workspace, target: "TASK-001", doc: "trace" })).code).toBe("INVALID_INPUT");
    expect((await failure("trace_step", { workspace, step: "x", content: "a", message: "b" })).code).toBe("INVALID_INPUT");
    expect((await failure("trace_step", { workspace, step: "x", meta: { trace: { type: "forged" } } })).code).toBe("INVALID_INPUT");
    expect((await failure("trace_step", { workspace, target: "TASK-404", step: "x" })).code).toBe("UNKNOWN_ID");
    // Nothing was written by the refused calls.
    expect((await ok("trace_hydrate", { workspace })).entries).toEqual([]);
  });

  it("bounds its inputs: oversize content or meta is PAYLOAD_TOO_LARGE, long labels are refused", async () => {
    const workspace = "trace/limits";
    expect((await failure("trace_step", { workspace, step: "big", content: "é".repeat(140_000) })).code).toBe("PAYLOAD_TOO_LARGE");
    expect((await failure("trace_step", { workspace, step: "big", meta: { blob: "y".repeat(20_000) } })).code).toBe("PAYLOAD_TOO_LARGE");
    expect((await failure("trace_sequential_step", { workspace, step: "big", message: "é".repeat(140_000) })).code).toBe(
      "PAYLOAD_TOO_LARGE",
    );
    expect((await failure("trace_step", { workspace, step: "x", kind: "k".repeat(33) })).code).toBe("INVALID_INPUT");
    expect((await failure("trace_step", { workspace, step: "" })).code).toBe("INVALID_INPUT");
    expect((await failure("trace_sequential_step", { workspace, step: "x", sequence: "bad name" })).code).toBe("INVALID_INPUT");
    expect((await failure("trace_hydrate", { workspace, limit: 201 })).code).toBe("INVALID_INPUT");
    expect((await failure("trace_validate", { workspace, window: 1001 })).code).toBe("INVALID_INPUT");
  });

  it("replays an idempotency key without writing twice", async () => {
    const workspace = "trace/idempotent";
    const first = await ok("trace_step", { workspace, step: "once", idempotency_key: "k1" });
    const again = await ok("trace_step", { workspace, step: "once", idempotency_key: "k1" });
    expect(again).toEqual(first);
    expect((await ok("trace_hydrate", { workspace })).entries).toHaveLength(1);
  });
});

describe("trace_sequential_step", () => {
  it("numbers steps per sequence, refuses a gap, and handles revisions and branches", async () => {
    const workspace = "trace/sequential";
    const one = await ok("trace_sequential_step", { workspace, step: "Frame the question", total_steps: 3 });
    expect(one).toMatchObject({ sequence: "main", step_number: 1, last_step_number: 1, previous_last_step_number: 0, next_step_number: 2 });
    expect(one.entry.meta).toEqual({ trace: { type: "sequential", sequence: "main", step_number: 1, sequence_last: 1, total_steps: 3 } });
    expect((await ok("trace_sequential_step", { workspace, step: "Gather data" })).step_number).toBe(2);
    expect((await ok("trace_sequential_step", { workspace, step: "Compare", step_number: 3 })).step_number).toBe(3);

    const gap = await failure("trace_sequential_step", { workspace, step: "Skip ahead", step_number: 5 });
    expect(gap.code).toBe("INVALID_INPUT");
    expect(gap.details).toMatchObject({ sequence: "main", step_number: 5, last_step_number: 3, expected_step_number: 4 });
    const repeat = await failure("trace_sequential_step", { workspace, step: "Again", step_number: 3 });
    expect(repeat.details).toMatchObject({ last_step_number: 3 });

    const revision = await ok("trace_sequential_step", { workspace, step: "Gather more data", revises_step: 2 });
    expect(revision).toMatchObject({ step_number: 2, last_step_number: 3, next_step_number: 4 });
    expect(revision.entry.meta.trace).toMatchObject({ revises_step: 2, step_number: 2, sequence_last: 3 });
    // After a revision the sequence continues from its last number, not from the revised one.
    const four = await ok("trace_sequential_step", { workspace, step: "Decide", next_step_needed: false });
    expect(four).toMatchObject({ step_number: 4, previous_last_step_number: 3 });
    expect((await failure("trace_sequential_step", { workspace, step: "x", revises_step: 9 })).details).toMatchObject({
      last_step_number: 4,
    });

    const branch = await ok("trace_sequential_step", { workspace, step: "What if we cache?", sequence: "alt", branch_from_step: 2 });
    expect(branch).toMatchObject({ sequence: "alt", step_number: 3, last_step_number: 3 });
    expect(branch.entry.meta.trace).toMatchObject({ branch_from_step: 2, branch_from_sequence: "main" });
    expect((await ok("trace_sequential_step", { workspace, step: "Cache it", sequence: "alt" })).step_number).toBe(4);
    const reBranch = await failure("trace_sequential_step", { workspace, step: "x", sequence: "alt", branch_from_step: 1 });
    expect(reBranch.message).toContain("already has steps");
    const tooFar = await failure("trace_sequential_step", { workspace, step: "x", sequence: "alt2", branch_from_step: 9 });
    expect(tooFar.details).toMatchObject({ branch_from_sequence: "main", last_step_number: 4 });

    // Other sequences, docs and branches count on their own; plain steps and events do not count.
    await ok("trace_step", { workspace, step: "an unnumbered note" });
    expect((await ok("trace_sequential_step", { workspace, step: "Other", sequence: "side" })).step_number).toBe(1);
    expect((await ok("trace_sequential_step", { workspace, step: "Other doc", doc: "trace-2" })).step_number).toBe(1);
    expect((await ok("trace_sequential_step", { workspace, step: "main again" })).step_number).toBe(5);

    const validated = await ok("trace_validate", { workspace });
    expect(validated).toMatchObject({ ok: true, error_count: 0, ordered: true, window: { complete: true } });
    expect(validated.sequences).toEqual({ main: { last: 5, count: 6 }, alt: { last: 4, count: 2 }, side: { last: 1, count: 1 } });
  });

  it("numbers a branch's view from the entries it inherits, and a task's trace from its own doc", async () => {
    const workspace = "trace/sequential-views";
    await ok("trace_sequential_step", { workspace, step: "one" });
    await ok("trace_sequential_step", { workspace, step: "two" });
    await ok("branch_create", { workspace, name: "fork" });
    expect((await ok("trace_sequential_step", { workspace, branch: "fork", step: "three on fork" })).step_number).toBe(3);
    expect((await ok("trace_sequential_step", { workspace, step: "three on main" })).step_number).toBe(3);
    const plan = await ok("tasks_create", { workspace, title: "P" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "T" });
    const onTask = await ok("trace_sequential_step", { workspace, target: task.id, step: "task step" });
    expect(onTask).toMatchObject({ step_number: 1, entry: { branch: "task/TASK-001", doc: "TASK-001-trace" } });
  });
});

describe("trace_validate", () => {
  it("reports a gap, a duplicate and an untitled step written through notes_commit, bounded by max_errors", async () => {
    const workspace = "trace/validate";
    await ok("trace_sequential_step", { workspace, step: "one" });
    await ok("trace_sequential_step", { workspace, step: "two" });
    expect((await ok("trace_validate", { workspace })).ok).toBe(true);
    // notes_commit stores any meta, so a hand-written entry can break the invariants.
    const gap = await ok("notes_commit", {
      workspace,
      doc: "trace",
      title: "forged",
      content: "x",
      meta: { trace: { type: "sequential", sequence: "main", step_number: 5 } },
    });
    const untitled = await ok("notes_commit", { workspace, doc: "trace", content: "no title", meta: { trace: { type: "step" } } });
    const duplicate = await ok("notes_commit", {
      workspace,
      doc: "trace",
      title: "dup",
      content: "x",
      meta: { trace: { type: "sequential", sequence: "main", step_number: 5 } },
    });
    const report = await ok("trace_validate", { workspace });
    expect(report).toMatchObject({ ok: false, checked: 5, steps: 5, error_count: 3, errors_truncated: false });
    expect(report.errors.map((error: { code: string; seq: number }) => [error.code, error.seq])).toEqual([
      ["SEQUENCE_GAP", gap.entry.seq],
      ["TRACE_TITLE_MISSING", untitled.entry.seq],
      ["SEQUENCE_DUPLICATE", duplicate.entry.seq],
    ]);
    expect(report.sequences).toEqual({ main: { last: 5, count: 4 } });

    const bounded = await ok("trace_validate", { workspace, max_errors: 1 });
    expect(bounded).toMatchObject({ error_count: 3, errors_truncated: true });
    expect(bounded.errors).toHaveLength(1);

    // The numbering trusts the newest stored step: the next step of `main` is 6.
    expect((await ok("trace_sequential_step", { workspace, step: "six" })).step_number).toBe(6);

    // A window that does not reach the start takes a sequence's first step as its baseline and says so.
    const window = await ok("trace_validate", { workspace, window: 2 });
    expect(window).toMatchObject({ checked: 2, window: { limit: 2, complete: false }, ok: true, next_cursor: duplicate.entry.seq });
    const older = await ok("trace_validate", { workspace, window: 2, cursor: window.next_cursor });
    expect(older.window).toMatchObject({ complete: false, from_seq: gap.entry.seq, to_seq: untitled.entry.seq });
    expect(older.errors.map((error: { code: string }) => error.code)).toEqual(["TRACE_TITLE_MISSING"]);
  });
});

describe("trace_hydrate", () => {
  it("pages the newest entries oldest-first with compact previews and cursors", async () => {
    const workspace = "trace/hydrate";
    const seqs: number[] = [];
    for (let i = 1; i <= 4; i++) seqs.push((await ok("trace_step", { workspace, step: `step ${i}`, content: `text ${i}` })).entry.seq);
    const long = await ok("trace_sequential_step", { workspace, step: "long", content: "ab".repeat(200) });
    seqs.push(long.entry.seq);

    const page = await ok("trace_hydrate", { workspace, limit: 2 });
    expect(page).toMatchObject({ target: null, branch: "main", doc: "trace", truncated: false });
    expect(page.entries.map((entry: { seq: number }) => entry.seq)).toEqual(seqs.slice(3));
    expect(page.pagination).toMatchObject({ has_more: true, next_cursor: seqs[3], count: 2 });
    const last = page.entries[1];
    expect(last).toMatchObject({ kind: "note", title: "long", content_truncated: true, trace: { type: "sequential", step_number: 1 } });
    expect(last.content).toHaveLength(280);
    expect(page.entries[0]).toEqual({
      seq: seqs[3],
      ts_ms: expect.any(Number),
      kind: "note",
      title: "step 4",
      content: "text 4",
      content_truncated: false,
      trace: { type: "step" },
    });

    const older = await ok("trace_hydrate", { workspace, limit: 2, cursor: page.pagination.next_cursor });
    expect(older.entries.map((entry: { seq: number }) => entry.seq)).toEqual(seqs.slice(1, 3));
    const oldest = await ok("trace_hydrate", { workspace, limit: 2, cursor: older.pagination.next_cursor });
    expect(oldest.entries.map((entry: { seq: number }) => entry.seq)).toEqual(seqs.slice(0, 1));
    expect(oldest.pagination).toMatchObject({ has_more: false, count: 1 });
    expect(oldest.pagination.next_cursor).toBeUndefined();
  });

  it("trims to max_chars oldest-first and points next_cursor at the oldest entry shown", async () => {
    const workspace = "trace/hydrate-budget";
    const seqs: number[] = [];
    for (let i = 1; i <= 12; i++) {
      seqs.push((await ok("trace_step", { workspace, step: `step ${i}`, content: `${i}`.repeat(250) })).entry.seq);
    }
    const full = await ok("trace_hydrate", { workspace });
    expect(full.entries).toHaveLength(12);
    expect(full.budget).toMatchObject({ truncated: false });

    const trimmed = await ok("trace_hydrate", { workspace, max_chars: 1_000 });
    expect(trimmed.budget.max_chars).toBe(1_000);
    expect(trimmed.budget.used_chars).toBeLessThanOrEqual(1_000);
    expect(trimmed.budget.truncated).toBe(true);
    expect(trimmed.truncated).toBe(true);
    expect(trimmed.warnings.map((warning: { code: string }) => warning.code)).toContain("BUDGET_TRUNCATED");
    const shown = trimmed.entries.map((entry: { seq: number }) => entry.seq);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(12);
    expect(shown[shown.length - 1]).toBe(seqs[11]);
    expect(trimmed.pagination).toMatchObject({ has_more: true, next_cursor: shown[0] });
    // Following the cursor reaches everything the budget dropped.
    const rest = await ok("trace_hydrate", { workspace, cursor: trimmed.pagination.next_cursor });
    expect(rest.entries.map((entry: { seq: number }) => entry.seq)).toEqual(seqs.filter((seq) => seq < shown[0]));
  });
});
