// End-to-end: resume views and the capsule through the real MCP endpoint (toolset=full): views and
// their sections, the capsule's best and backup actions, degradation under budgets, snapshot deltas.

import { describe, expect, it } from "vitest";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { as, ok } from "./helpers/mcp";

async function started(workspace: string, agent = "alice") {
  const options = await as(agent);
  const start = await ok("tasks_macro_start", { workspace, title: "Speed up reads", template: "principal-task" }, options);
  return { options, task: start.task_id as string, steps: start.steps as { id: string; path: string }[] };
}

describe("resume views", () => {
  it("answers where, why and what next in one call, with the full view by default", async () => {
    const workspace = "resume/full";
    const { options, task, steps } = await started(workspace);
    await ok("tasks_note", { workspace, task, note: "Profiled: the scan dominates." }, options);
    await ok("think_add_hypothesis", { workspace, target: task, id: "H1", title: "A missing index" }, options);
    await ok("think_add_decision", { workspace, target: task, id: "D1", title: "Add the index" }, options);
    await ok("think_add_question", { workspace, target: task, id: "Q1", title: "Which columns?" }, options);

    const resume = await ok("tasks_resume_super", { workspace }, options);
    expect(resume).toMatchObject({ view: "full", focus: task, target: { id: task }, reasoning_ref: { branch: `task/${task}` } });
    expect(resume.step_focus.step.path).toBe("s:0");
    expect(resume.steps).toHaveLength(5);
    expect(resume.timeline.events.map((event: { type: string }) => event.type)).toEqual(["task_created", "steps_added", "step_noted"]);
    expect(resume.memory.notes.map((entry: { content: string }) => entry.content)).toEqual(["Profiled: the scan dominates."]);
    expect(resume.memory.cards.map((card: { id: string }) => card.id).sort()).toEqual(["D1", "H1", "Q1"]);
    expect(resume.signals.decisions.map((card: { id: string }) => card.id)).toEqual(["D1"]);
    expect(resume.signals.blockers.map((card: { id: string }) => card.id)).toEqual(["Q1"]);
    expect(resume.capsule).toMatchObject({
      where: { workspace, branch: `task/${task}`, focus: task, target: { id: task }, step_focus: { step_id: steps[0]?.id, path: "s:0" } },
      next: {
        // Nothing proves the open step yet: the work comes first (closing is offered once there is evidence).
        action: { tool: "tasks_note", args: { workspace, task, step_id: steps[0]?.id, note: "<fill: what you did or found>" } },
        // The signal engine's best move over the view's cards: H1 has no test.
        backup: { tool: "think_add_test", args: { workspace, supports: ["H1"], tags: ["bm4"] } },
      },
    });
    expect(resume.engine.signals.map((signal: { code: string }) => signal.code)).toContain("BM4_HYPOTHESIS_NO_TEST");
    expect(resume.capsule.why.some((line: string) => line.startsWith("BM4_HYPOTHESIS_NO_TEST"))).toBe(true);
    expect(resume.capsule.why.length).toBeGreaterThan(0);
    expect(resume.capsule.why.length).toBeLessThanOrEqual(3);
    // Deterministic: the same store gives the same bytes.
    expect(JSON.stringify(await ok("tasks_resume_super", { workspace }, options))).toBe(JSON.stringify(resume));
    // The backup move works as given: it is aimed at the task's graph.
    const backup = resume.capsule.next.backup;
    expect(backup.args.target).toBe(task);
    await ok(backup.tool, { ...backup.args, title: "Index scan count" }, options);
    // Once the step has evidence, closing it is the best move.
    await ok(
      "tasks_evidence_capture",
      { workspace, task, step: "focus", checks: ["CMD: npm test", "LINK: https://ci.example/1"] },
      options,
    );
    const proven = await ok("tasks_resume_super", { workspace }, options);
    expect(proven.capsule.next.action).toMatchObject({
      tool: "tasks_close_step",
      args: { workspace, task, step_id: steps[0]?.id, checkpoints: { criteria: true, tests: true } },
    });
  });

  it("scopes cards by view: focus_only, smart (cold archive), explore (warm), audit (all lanes)", async () => {
    const workspace = "resume/views";
    const { options, task } = await started(workspace);
    const bob = await as("bob");
    await ok("think_add_hypothesis", { workspace, target: task, id: "STEP-CARD", title: "step scoped" }, options);
    await ok("tasks_close_step", { workspace, task, path: "s:0" }, options);
    // Written after the step focus moved to s:1: tagged with s:1.
    await ok("think_add_note", { workspace, target: task, id: "NOW", text: "on the new focus" }, options);
    await ok("think_add_decision", { workspace, target: task, id: "OLD", title: "superseded idea", status: "rejected" }, options);
    await ok("think_add_note", { workspace, target: task, id: "BOB-DRAFT", text: "bob's draft", lane: "agent" }, bob);

    const ids = async (view: string) =>
      (await ok("tasks_resume_super", { workspace, task, view }, options)).memory.cards.map((card: { id: string }) => card.id).sort();
    expect(await ids("focus_only")).toEqual(["NOW"]);
    expect(await ids("smart")).toEqual(["NOW", "STEP-CARD"]);
    expect(await ids("explore")).toEqual(["NOW", "OLD", "STEP-CARD"]);
    expect(await ids("audit")).toEqual(["BOB-DRAFT", "NOW", "STEP-CARD"]);
    const focusOnly = await ok("tasks_resume_super", { workspace, task, view: "focus_only" }, options);
    expect(focusOnly.steps.map((step: { path: string }) => step.path)).toEqual(["s:1"]);
    expect((await ok("tasks_resume_super", { workspace, task, max_chars: 6000 }, options)).view).toBe("smart");
    expect((await ok("tasks_resume_super", { workspace, task, notes_limit: 0 }, options)).memory.notes).toEqual([]);
  });

  it("pages each memory section with its own cursor", async () => {
    const workspace = "resume/cursors";
    const { options, task } = await started(workspace);
    for (let i = 0; i < 5; i++) await ok("tasks_note", { workspace, task, note: `n${i}` }, options);
    for (let i = 0; i < 5; i++) await ok("think_add_note", { workspace, target: task, id: `C${i}`, text: `card ${i}` }, options);
    const first = await ok("tasks_resume_super", { workspace, task, notes_limit: 2, cards_limit: 2, view: "explore" }, options);
    expect(first.memory.notes.map((entry: { content: string }) => entry.content)).toEqual(["n3", "n4"]);
    expect(first.memory.cards.map((card: { id: string }) => card.id)).toEqual(["C4", "C3"]);
    const older = await ok(
      "tasks_resume_super",
      {
        workspace,
        task,
        notes_limit: 2,
        cards_limit: 2,
        view: "explore",
        notes_cursor: first.memory.notes_pagination.next_cursor,
        cards_cursor: first.memory.cards_pagination.next_cursor,
      },
      options,
    );
    expect(older.memory.notes.map((entry: { content: string }) => entry.content)).toEqual(["n1", "n2"]);
    expect(older.memory.cards.map((card: { id: string }) => card.id)).toEqual(["C2", "C1"]);
  });

  it("pages through every card even when step-scoped cards lead the first page", async () => {
    const workspace = "resume/card-pages";
    const { options, task } = await started(workspace);
    await ok("think_add_note", { workspace, target: task, id: "S1", text: "step scoped, oldest" }, options);
    const onBranch = { branch: `task/${task}`, trace_doc: `${task}-trace`, graph_doc: `${task}-graph` };
    for (let i = 1; i <= 8; i++) await ok("think_add_note", { workspace, ...onBranch, id: `R${i}`, text: `rest ${i}` }, options);
    const seen: string[] = [];
    let cursor: number | undefined;
    for (let page = 0; page < 5; page++) {
      const answer = await ok(
        "tasks_resume_super",
        { workspace, task, view: "explore", cards_limit: 5, ...(cursor ? { cards_cursor: cursor } : {}) },
        options,
      );
      seen.push(...answer.memory.cards.map((card: { id: string }) => card.id));
      cursor = answer.memory.cards_pagination.next_cursor;
      if (!answer.memory.cards_pagination.has_more) break;
    }
    expect(seen.slice(0, 5)).toEqual(["S1", "R8", "R7", "R6", "R5"]);
    expect(new Set(seen)).toEqual(new Set(["S1", ...Array.from({ length: 8 }, (_, i) => `R${i + 1}`)]));
  });

  it("pages on to the cards a budget dropped: none is skipped", async () => {
    const workspace = "resume/card-budget-pages";
    const { options, task } = await started(workspace);
    for (let i = 1; i <= 8; i++)
      await ok("think_add_note", { workspace, target: task, id: `B${i}`, text: `body ${i} `.repeat(40) }, options);
    const seen = new Set<string>();
    let cursor: number | undefined;
    let trimmedPages = 0;
    for (let page = 0; page < 12; page++) {
      const answer = await ok(
        "tasks_resume_super",
        {
          workspace,
          task,
          view: "explore",
          cards_limit: 8,
          notes_limit: 0,
          trace_limit: 0,
          max_chars: 4000,
          ...(cursor ? { cards_cursor: cursor } : {}),
        },
        options,
      );
      const pagination = answer.memory.cards_pagination;
      expect(pagination.count).toBe(answer.memory.cards.length);
      if (answer.degradation?.truncated_fields?.includes("memory.cards")) trimmedPages++;
      for (const card of answer.memory.cards) seen.add(card.id);
      if (!pagination.has_more) break;
      cursor = pagination.next_cursor;
    }
    expect(trimmedPages).toBeGreaterThan(0);
    expect(seen).toEqual(new Set(Array.from({ length: 8 }, (_, i) => `B${i + 1}`)));
  });

  it("keeps the capsule and its best action from 20,000 characters down to the smallest budget", async () => {
    const workspace = "resume/budget";
    const { options, task } = await started(workspace);
    await ok("tasks_evidence_capture", { workspace, task, step: "focus", checks: ["CMD: npm test"] }, options);
    for (let i = 0; i < 12; i++) await ok("tasks_note", { workspace, task, note: `Observation ${i}: ${"detail ".repeat(40)}` }, options);
    for (let i = 0; i < 8; i++)
      await ok(
        "think_add_evidence",
        { workspace, target: task, id: `E${i}`, title: `Evidence ${i}`, text: "measured ".repeat(30) },
        options,
      );
    for (const max of [20_000, 6_000, 2_000, 1_000, MIN_BUDGET_CHARS, 400, 200]) {
      const answer = await ok("tasks_resume_super", { workspace, task, max_chars: max }, options);
      expect(answer.budget.used_chars).toBeLessThanOrEqual(answer.budget.max_chars);
      expect(answer.budget.max_chars).toBe(Math.max(max, MIN_BUDGET_CHARS));
      const capsule = answer.capsule;
      expect(capsule).toBeDefined();
      const best = capsule.next.action ?? capsule.next;
      expect(best.tool).toBe("tasks_close_step");
      if (max <= 2_000) expect(answer.budget.truncated).toBe(true);
    }
    const squeezed = await ok("tasks_resume_super", { workspace, task, max_chars: 2_000 }, options);
    expect(squeezed.degradation?.truncated_fields ?? ["*"]).not.toEqual([]);
  });

  it("keeps the decisions and blockers of a tight resume over the engine's prose and the long lists", async () => {
    // A task like the packs bench: notes, trace, and many cards, among them open questions (blockers)
    // and hypotheses with no test (engine signals, and 2 actions whose copyable calls are aimed at the task).
    const workspace = "resume/tight-signals";
    const { options, task } = await started(workspace);
    const words = (label: string, n: number) => `${label} ${"lorem ipsum dolor sit amet ".repeat(8)}`.slice(0, n);
    for (let i = 1; i <= 4; i++) await ok("tasks_note", { workspace, task, note: words(`note ${i}`, 300) }, options);
    for (let i = 1; i <= 6; i++) {
      const card = (id: string, title: number, text: string) => ({
        workspace,
        target: task,
        id,
        title: words(id, title),
        text: words(text, 120),
      });
      await ok("think_add_decision", card(`D${i}`, 44, "because"), options);
      await ok("think_add_evidence", card(`E${i}`, 44, "observed"), options);
      await ok("think_add_question", card(`Q${i}`, 44, "unknown"), options);
      await ok("think_add_hypothesis", card(`H${i}`, 90, "maybe"), options);
      await ok("trace_step", { workspace, target: task, step: `step ${i}`, content: words(`step ${i}`, 150) }, options);
    }
    const ids = (cards: { id: string }[]) => cards.map((card) => card.id);
    // Three of each signal, as the smart view shows at these budgets.
    const full = await ok("tasks_resume_super", { workspace, task, view: "smart", signals_limit: 3, budget_profile: "audit" }, options);
    expect(full.budget.truncated).toBe(false);
    expect(ids(full.signals.decisions)).toEqual(["D6", "D5", "D4"]);
    expect(ids(full.signals.blockers)).toEqual(["Q6", "Q5", "Q4"]);
    expect(full.engine.actions).toHaveLength(2);
    expect(full.engine.signals.length).toBeGreaterThan(0);

    for (const max_chars of [4000, 4500, 5000, 6000]) {
      const tight = await ok("tasks_resume_super", { workspace, task, max_chars, signals_limit: 3 }, options);
      expect(tight.budget.used_chars).toBeLessThanOrEqual(max_chars);
      expect(tight.budget.truncated).toBe(true);
      // The capsule is whole, with the engine's best move as its backup.
      expect(tight.capsule.next.backup).toMatchObject({ tool: "think_add_test", args: { target: task, supports: ["H6"] } });
      // The newest decision and blocker always survive (at least id and version); what survives is a newest-first run.
      expect(tight.signals.decisions[0]).toMatchObject({ id: "D6", last_seq: full.signals.decisions[0].last_seq });
      expect(tight.signals.blockers[0]).toMatchObject({ id: "Q6", last_seq: full.signals.blockers[0].last_seq });
      expect(ids(full.signals.decisions).slice(0, tight.signals.decisions.length)).toEqual(ids(tight.signals.decisions));
      expect(ids(full.signals.blockers).slice(0, tight.signals.blockers.length)).toEqual(ids(tight.signals.blockers));
      // Whatever is left of the engine outlived no decision or blocker; a stubbed action keeps what and on what.
      if ((tight.engine?.signals.length ?? 0) + (tight.engine?.actions.length ?? 0) > 0) {
        expect(tight.signals.decisions).toHaveLength(3);
        expect(tight.signals.blockers).toHaveLength(3);
      }
      for (const action of tight.engine?.actions ?? []) {
        if (action.trimmed) expect(Object.keys(action).sort()).toEqual(["kind", "priority", "refs", "title", "trimmed"]);
      }
      // The best action goes last: a lone action left is the best one.
      if (tight.engine?.actions.length === 1) expect(tight.engine.actions[0].refs).toEqual([{ kind: "card", id: "H6" }]);
    }
    // At 4000 characters every decision and blocker was lost behind the engine's two whole actions; now
    // all three of each survive (by id and version), ahead of what is left of the engine.
    const mid = await ok("tasks_resume_super", { workspace, task, max_chars: 4000, signals_limit: 3 }, options);
    expect(ids(mid.signals.decisions)).toEqual(["D6", "D5", "D4"]);
    expect(ids(mid.signals.blockers)).toEqual(["Q6", "Q5", "Q4"]);
    expect(mid.degradation.truncated_fields).toContain("engine.actions");
  });

  it("shows a step lease in the capsule and sends other agents elsewhere", async () => {
    const workspace = "resume/lease";
    const { options, task, steps } = await started(workspace);
    const bob = await as("bob");
    await ok("tasks_step_lease_claim", { workspace, task, path: "s:0" }, options);
    const forBob = await ok("tasks_resume_super", { workspace, task }, bob);
    expect(forBob.capsule.where.step_focus.lease).toMatchObject({ holder: "alice" });
    expect(forBob.capsule.next.action).toMatchObject({ tool: "tasks_step_lease_get", args: { task, step_id: steps[0]?.id } });
    // The holder is sent to work on the step (nothing proves it yet), not to close it.
    expect((await ok("tasks_resume_super", { workspace, task }, options)).capsule.next.action.tool).toBe("tasks_note");
  });
});

describe("tasks_snapshot", () => {
  it("is the smart view, and with delta reports what changed since the caller's previous snapshot", async () => {
    const workspace = "resume/snapshot";
    const { options, task } = await started(workspace);
    const bob = await as("bob");
    const first = await ok("tasks_snapshot", { workspace, delta: true }, options);
    expect(first.view).toBe("smart");
    expect(first.delta).toMatchObject({ mode: "since_last", since_seq: null, notes: { count: 0 }, cards: { count: 0 } });

    await ok("tasks_note", { workspace, task, note: "New finding" }, options);
    await ok("think_add_decision", { workspace, target: task, id: "D1", title: "Go with B-tree" }, options);
    const second = await ok("tasks_snapshot", { workspace, delta: true }, options);
    expect(second.delta.since_seq).toBe(first.delta.until_seq);
    expect(second.delta.notes.items.map((item: { summary: string }) => item.summary)).toEqual(["New finding"]);
    expect(second.delta.cards.items.map((item: { id: string }) => item.id)).toEqual(["D1"]);
    expect(second.delta.decisions.items.map((item: { id: string }) => item.id)).toEqual(["D1"]);
    const third = await ok("tasks_snapshot", { workspace, delta: true }, options);
    expect(third.delta).toMatchObject({ notes: { count: 0 }, cards: { count: 0 } });
    // Baselines are per agent: bob's first delta only sets his.
    expect((await ok("tasks_snapshot", { workspace, task, delta: true }, bob)).delta.since_seq).toBeNull();
    // A delta cut to the compact capsule still reports what changed (the baseline moves on).
    await ok("tasks_note", { workspace, task, note: "Another finding" }, options);
    const squeezed = await ok("tasks_snapshot", { workspace, delta: true, max_chars: 450 }, options);
    expect(squeezed.delta).toMatchObject({ counts: { notes: 1 } });
    expect(squeezed.capsule).toBeDefined();
    // Without delta nothing is tracked.
    expect((await ok("tasks_snapshot", { workspace }, options)).delta).toBeUndefined();
  });
});
