// End-to-end: one engine answer per state, through the real MCP endpoint (toolset=full). think_frontier,
// think_next, think_watch, context_pack, the resume views and status read the same slice for a scope,
// so they report the same signals in the same order (each may show fewer, never different ones); under
// a task with an open step the step's signals rank first; think_watch's capsule says where, why and next.
import { describe, expect, it } from "vitest";
import { ok } from "./helpers/mcp";

interface Signal {
  code: string;
  severity: string;
  message: string;
  refs: { kind: string; id: string }[];
}

const codes = (signals: Signal[]) => signals.map((signal) => signal.code);

/** One list is the start of the other (a read may show fewer signals, never different ones). */
function expectPrefixes(lists: Signal[][]) {
  for (const a of lists) {
    for (const b of lists) {
      const [short, long] = a.length <= b.length ? [a, b] : [b, a];
      expect(JSON.stringify(long.slice(0, short.length))).toBe(JSON.stringify(short));
    }
  }
}

async function startedTask(workspace: string) {
  const start = await ok("tasks_macro_start", { workspace, title: "Speed up reads", template: "principal-task" });
  return start.task_id as string;
}

/**
 * Three hypotheses without a test (BM4, high), a closed assumption still supporting H1 (BM6, warning),
 * and H1 and a decision with support and no counter-argument (BM10, info): six signals, BM6 among the
 * top five. The assumption is closed, so it is on no frontier list, yet the engine must see it everywhere.
 */
async function assumptionState(workspace: string, scope: Record<string, unknown>) {
  const card = (card: Record<string, unknown>, supports: string[] = []) => ok("think_card", { workspace, ...scope, card, supports });
  for (let i = 1; i <= 3; i++) await card({ type: "hypothesis", id: `H${i}`, title: `Idea ${i}` });
  await card({ type: "decision", id: "D1", title: "Cache the reads" });
  await card({ type: "evidence", id: "E1", title: "p95 halves with a cache" }, ["D1"]);
  await card({ type: "note", id: "A1", title: "Traffic stays under 1k rps", status: "closed", tags: ["assumption"] }, ["H1"]);
}

describe("one engine answer per state", () => {
  it("reports a closed assumption in use (BM6) from every read, with the same signals in the same order", async () => {
    const workspace = "engine-answer/assumption";
    const task = await startedTask(workspace);
    await assumptionState(workspace, { target: task });

    const frontier = await ok("think_frontier", { workspace, target: task });
    const next = await ok("think_next", { workspace, target: task });
    const watch = await ok("think_watch", { workspace, target: task });
    const pack = await ok("context_pack", { workspace, target: task });
    const resume = await ok("tasks_resume_super", { workspace, task });
    const snapshot = await ok("tasks_snapshot", { workspace, task });
    // The closed assumption is on no frontier list, yet every read reports it.
    expect(frontier.frontier.hypotheses.map((card: { id: string }) => card.id)).not.toContain("A1");
    for (const signals of [frontier.engine.signals, next.signals, watch.engine.signals, pack.engine.signals]) {
      expect(codes(signals)).toContain("BM6_ASSUMPTION_NOT_OPEN_BUT_USED");
    }
    const bm6 = frontier.engine.signals.find((signal: Signal) => signal.code === "BM6_ASSUMPTION_NOT_OPEN_BUT_USED");
    expect(bm6.refs.map((ref: { id: string }) => ref.id)).toEqual(["A1", "H1"]);
    // More signals than a pack shows: the lists differ in length, and each is the start of the longest.
    expect(frontier.engine.signals.length).toBeGreaterThan(pack.engine.signals.length);
    expectPrefixes([
      frontier.engine.signals,
      next.signals,
      watch.engine.signals,
      pack.engine.signals,
      resume.engine.signals,
      snapshot.engine.signals,
    ]);
    // Same limits, same scope: the same bytes, actions (aimed at the task) included.
    expect(JSON.stringify(watch.engine)).toBe(JSON.stringify(frontier.engine));
    expect(JSON.stringify(resume.engine)).toBe(JSON.stringify(pack.engine));
    expect(pack.engine.actions[0].calls[0].args.target).toBe(task);

    // Without a target, on the checkout: status reads the same slice as the frontier.
    const main = "engine-answer/checkout";
    await assumptionState(main, {});
    const onMain = await ok("think_frontier", { workspace: main });
    const status = await ok("status", { workspace: main });
    const mainPack = await ok("context_pack", { workspace: main });
    expect(codes(onMain.engine.signals)).toContain("BM6_ASSUMPTION_NOT_OPEN_BUT_USED");
    expect(status.engine.signals.length).toBeGreaterThan(0);
    expectPrefixes([onMain.engine.signals, status.engine.signals, mainPack.engine.signals]);
    expect(onMain.engine.mode).toBe("global");
  });

  it("ranks the focused step's signals before global ones in think_frontier and context_pack", async () => {
    const workspace = "engine-answer/step";
    const task = await startedTask(workspace);
    // Written while s:0 is the step focus: once s:0 is closed, a global card (BM4, high).
    await ok("think_card", { workspace, target: task, card: { type: "hypothesis", id: "H-GLOBAL", title: "An old idea" } });
    await ok("tasks_close_step", { workspace, task, path: "s:0" });
    // Written on s:1: a decision with support and no counter-argument (BM10, info) on the step.
    await ok("think_card", { workspace, target: task, card: { type: "decision", id: "D-STEP", title: "Add the index" } });
    await ok("think_card", {
      workspace,
      target: task,
      card: { type: "evidence", id: "E-STEP", title: "Scan count drops" },
      supports: ["D-STEP"],
    });

    const frontier = await ok("think_frontier", { workspace, target: task });
    const pack = await ok("context_pack", { workspace, target: task });
    const resume = await ok("tasks_resume_super", { workspace, task });
    for (const engine of [frontier.engine, pack.engine, resume.engine]) {
      expect(engine.mode).toBe("step_aware");
      expect(engine.step_tag).toBe(resume.engine.step_tag);
      expect(engine.signals[0]).toMatchObject({ code: "BM10_NO_COUNTER_EDGES", refs: [{ kind: "card", id: "D-STEP" }] });
      // The global finding follows, though it is more severe.
      expect(engine.signals[1]).toMatchObject({
        code: "BM4_HYPOTHESIS_NO_TEST",
        severity: "high",
        refs: [{ kind: "card", id: "H-GLOBAL" }],
      });
    }
    expect(resume.engine.step_tag).toBe(`step:${resume.step_focus.step.id.toLowerCase()}`);
    expectPrefixes([frontier.engine.signals, pack.engine.signals, resume.engine.signals]);
    // Aimed at the branch instead of the task, the same cards rank globally: severity first.
    const branch = await ok("think_frontier", {
      workspace,
      branch: resume.reasoning_ref.branch,
      graph_doc: resume.reasoning_ref.graph_doc,
    });
    expect(branch.engine.mode).toBe("global");
    expect(branch.engine.signals[0]).toMatchObject({ code: "BM4_HYPOTHESIS_NO_TEST" });
  });

  it("gives think_watch a capsule with where, why, a best and a backup move", async () => {
    // Signals: why names the top ones.
    const workspace = "engine-answer/watch";
    await assumptionState(workspace, {});
    const watch = await ok("think_watch", { workspace });
    const capsule = watch.watch_capsule;
    expect(capsule.where).toEqual({ branch: "main", graph_doc: "graph", trace_doc: "trace" });
    expect(capsule.why).toEqual(
      watch.engine.signals.slice(0, 3).map((signal: Signal) => expect.stringMatching(new RegExp(`^${signal.code}: `))),
    );
    expect(capsule.why).toHaveLength(3);
    expect(capsule.next.calls[0].tool).toBe("think_add_test");
    expect(capsule.backup).toBeTruthy();
    expect(capsule.backup.calls.length).toBeGreaterThan(0);

    // No signals: why says what the frontier holds; the fallback moves answer the question.
    const quiet = "engine-answer/watch-quiet";
    await ok("think_card", { workspace: quiet, card: { type: "question", id: "Q1", title: "Which size?" } });
    const open = (await ok("think_watch", { workspace: quiet })).watch_capsule;
    expect(open.why).toEqual(["open in graph: questions 1", "question Q1: Which size?"]);
    expect(open.next).toMatchObject({ kind: "answer_question", refs: [{ kind: "card", id: "Q1" }] });
    expect(open.backup).toMatchObject({ kind: "frame" });

    // Nothing at all: still a reason and two moves that can be sent as they are.
    const empty = (await ok("think_watch", { workspace: "engine-answer/watch-empty" })).watch_capsule;
    expect(empty.why).toEqual(["nothing open in graph"]);
    expect(empty.next).toMatchObject({ kind: "frame", calls: [{ tool: "think_add_frame" }] });
    expect(empty.backup).toMatchObject({ kind: "ask_question", calls: [{ tool: "think_add_question" }] });
    await ok(empty.backup.calls[0].tool, { workspace: "engine-answer/watch-empty", ...empty.backup.calls[0].args, title: "Why?" });
    const asked = (await ok("think_watch", { workspace: "engine-answer/watch-empty" })).watch_capsule.why;
    expect(asked).toEqual(["open in graph: questions 1", expect.stringMatching(/^question \S+: Why\?$/)]);
  });

  it("gives byte-identical engine answers for the same state", async () => {
    const workspace = "engine-answer/determinism";
    const task = await startedTask(workspace);
    await assumptionState(workspace, { target: task });
    await assumptionState(workspace, {});
    const reads: [string, Record<string, unknown>, (answer: Record<string, any>) => unknown][] = [
      ["think_frontier", { target: task }, (answer) => answer.engine],
      ["think_next", { target: task }, (answer) => [answer.next, answer.backup, answer.signals]],
      ["think_watch", { target: task }, (answer) => [answer.engine, answer.watch_capsule]],
      ["context_pack", { target: task }, (answer) => answer.engine],
      ["tasks_resume_super", { task }, (answer) => answer.engine],
      ["status", {}, (answer) => answer.engine ?? null],
    ];
    for (const [tool, args, engineOf] of reads) {
      const first = JSON.stringify(engineOf(await ok(tool, { workspace, ...args })));
      const second = JSON.stringify(engineOf(await ok(tool, { workspace, ...args })));
      expect(first.length).toBeGreaterThan(4);
      expect(second).toBe(first);
    }
  });
});
