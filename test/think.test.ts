// End-to-end: thinking cards through the real MCP endpoint (toolset=full): card forms and idempotency,
// typed wrappers, context and query slices, links, status, pins, lanes and publish.

import { describe, expect, it } from "vitest";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { as, failure, ok } from "./helpers/mcp";

describe("think: cards", () => {
  it("writes a card once: repeats (tags in another case) write nothing, a changed payload is refused unless revised", async () => {
    const workspace = "think/cards";
    const first = await ok("think_card", {
      workspace,
      card: { id: "H-cache", type: "hypothesis", title: "A cache helps", tags: ["Perf", "db"] },
    });
    expect(first).toMatchObject({
      branch: "main",
      trace_doc: "trace",
      graph_doc: "graph",
      card_id: "H-cache",
      inserted: true,
      updated: false,
      lane: "shared",
    });
    expect(first.graph_applied).toEqual({ nodes_upserted: 1, edges_upserted: 0 });
    const repeat = await ok("think_card", {
      workspace,
      card: { id: "H-cache", type: "hypothesis", title: "A cache helps", tags: ["DB", "perf"] },
    });
    expect(repeat).toMatchObject({ inserted: false, updated: false, graph_applied: { nodes_upserted: 0, edges_upserted: 0 } });
    // A card id is written once (seed 001; the original refused a changed payload): a changed card under
    // the same id used to write a new version answering inserted: true; now it is ALREADY_EXISTS, and
    // only revise: true writes the new version (inserted: false, updated: true). See think-card-idempotent.test.ts.
    const changedCard = { id: "H-cache", type: "hypothesis", title: "A cache helps reads", tags: ["perf"] };
    expect((await failure("think_card", { workspace, card: changedCard })).code).toBe("ALREADY_EXISTS");
    const changed = await ok("think_card", { workspace, card: changedCard, revise: true });
    expect(changed).toMatchObject({ inserted: false, updated: true });
    const trace = await ok("show", { workspace, branch: "main", doc: "trace" });
    expect(
      trace.entries.map((entry: { title: string; meta: { card_id: string; revision?: boolean } }) => [
        entry.title,
        entry.meta.card_id,
        entry.meta.revision ?? false,
      ]),
    ).toEqual([
      ["A cache helps", "H-cache", false],
      ["A cache helps reads", "H-cache", true],
    ]);

    // Plain text becomes a note with an automatic id; a DSL keeps unknown keys under meta; JSON strings parse.
    const plain = await ok("think_card", { workspace, card: "Remember to check the eviction policy." });
    expect(plain.card_id).toMatch(/^CARD-\d+$/);
    const dsl = await ok("think_card", { workspace, card: "type: question\ntitle: Which TTL?\nowner: ops\nstatus: OPEN" });
    const json = await ok("think_card", {
      workspace,
      card: JSON.stringify({ type: "test", title: "Measure p95", id: "T1" }),
      supports: ["H-cache"],
    });
    expect(json).toMatchObject({ card_id: "T1", graph_applied: { nodes_upserted: 1, edges_upserted: 1 } });
    const query = await ok("think_query", { workspace, ids: [plain.card_id, dsl.card_id, "T1"] });
    const byId = Object.fromEntries(query.cards.map((card: { id: string }) => [card.id, card]));
    expect(byId[plain.card_id]).toMatchObject({ type: "note", text: "Remember to check the eviction policy.", status: "open" });
    expect(byId[dsl.card_id]).toMatchObject({ type: "question", title: "Which TTL?", status: "open", meta: { owner: "ops" } });
    const edges = await ok("graph_query", { workspace, ids: ["T1", "H-cache"] });
    expect(edges.edges).toEqual([expect.objectContaining({ from: "T1", rel: "supports", to: "H-cache" })]);

    expect((await failure("think_card", { workspace, card: { type: "nonsense", title: "x" } })).details?.supported_types).toContain(
      "hypothesis",
    );
    expect((await failure("think_card", { workspace, card: { type: "note" } })).code).toBe("INVALID_INPUT");
    expect((await failure("think_card", { workspace, card: { title: "x", text: "y".repeat(16 * 1024 + 1) } })).code).toBe("INVALID_INPUT");
    expect(
      (await failure("think_card", { workspace, card: { title: "x", tags: Array.from({ length: 33 }, (_, i) => `t${i}`) } })).code,
    ).toBe("INVALID_INPUT");
    // Atomic: a card whose edge cannot be written leaves neither a node nor a trace entry.
    const traceBefore = (await ok("show", { workspace, branch: "main", doc: "trace", limit: 200 })).entries.length;
    expect((await failure("think_card", { workspace, card: { id: "ORPHAN", title: "x" }, supports: ["missing"] })).code).toBe("UNKNOWN_ID");
    expect((await ok("show", { workspace, branch: "main", doc: "trace", limit: 200 })).entries.length).toBe(traceBefore);
    expect((await ok("think_query", { workspace, ids: ["ORPHAN"] })).cards).toEqual([]);
    for (const [tool, args] of [
      ["think_query", {}],
      ["think_pins", {}],
      ["think_template", { type: "test" }],
      ["think_pack", {}],
    ] as const) {
      expect((await ok(tool, { workspace, ...args, max_chars: MIN_BUDGET_CHARS })).budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    }
    const template = await ok("think_template", { workspace, type: "decision" });
    expect(template).toMatchObject({ type: "decision", template: { type: "decision", status: "open" } });
    expect(template.supported_types).toEqual(["frame", "hypothesis", "question", "test", "evidence", "decision", "note", "update"]);
    expect((await failure("think_template", { workspace, type: "essay" })).code).toBe("INVALID_INPUT");
  });

  it("writes under a task's reasoning ref with the step focus tag, and never uses the focus", async () => {
    const workspace = "think/target";
    const plan = await ok("tasks_create", { workspace, title: "P" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "T", steps: [{ title: "s" }] });
    await ok("tasks_focus_set", { workspace, target: task.id });
    const onTask = await ok("think_add_hypothesis", { workspace, target: task.id, id: "H1", title: "It is the index" });
    expect(onTask).toMatchObject({ branch: "task/TASK-001", trace_doc: "TASK-001-trace", graph_doc: "TASK-001-graph" });
    const card = (await ok("think_query", { workspace, target: task.id, ids: ["H1"] })).cards[0];
    expect(card.tags).toEqual([`step:${task.steps[0].id.toLowerCase()}`]);
    await ok("think_add_question", { workspace, target: task.id, id: "Q", title: "Which index?" });
    await ok("think_subgoal_open", { workspace, target: task.id, parent: "Q", id: "SG", title: "Try a partial index" });
    const subgoal = (await ok("think_query", { workspace, target: task.id, ids: ["SG"] })).cards[0];
    expect(subgoal.tags).toEqual([`step:${task.steps[0].id.toLowerCase()}`, "subgoal"]);
    // Without target or branch: the checkout (main), not the focus.
    expect((await ok("think_add_note", { workspace, text: "on main" })).branch).toBe("main");
    expect((await failure("think_card", { workspace, target: task.id, trace_doc: "other", card: "x" })).code).toBe("INVALID_INPUT");
  });

  it("slices the context, links, sets status, pins, and reads only what the lanes allow", async () => {
    const workspace = "think/lanes";
    const alice = await as("alice");
    const bob = await as("bob");
    for (const [type, id] of [
      ["frame", "F1"],
      ["hypothesis", "H1"],
      ["test", "T1"],
      ["evidence", "E1"],
      ["decision", "D1"],
    ] as const) {
      await ok(`think_add_${type}`, { workspace, id, title: `${type} card` }, alice);
    }
    const draft = await ok("think_add_note", { workspace, id: "N-draft", text: "half-baked", lane: "agent" }, alice);
    expect(draft.lane).toBe("agent/alice");

    const context = await ok("think_context", { workspace, limit_cards: 3 }, alice);
    expect(context.cards.map((card: { id: string }) => card.id)).toEqual(["N-draft", "D1", "E1"]);
    expect(context.stats).toEqual({ cards: 3, by_type: { note: 1, decision: 1, evidence: 1 } });
    expect(context.pagination.has_more).toBe(true);
    expect((await ok("think_context", { workspace }, bob)).cards.map((card: { id: string }) => card.id)).not.toContain("N-draft");
    expect((await ok("think_context", { workspace, all_lanes: true }, bob)).cards.map((card: { id: string }) => card.id)).toContain(
      "N-draft",
    );
    expect((await failure("think_set_status", { workspace, card_id: "N-draft", status: "done" }, bob)).code).toBe("FORBIDDEN");
    expect((await failure("think_card", { workspace, card: { id: "N-draft", text: "bob's" } }, bob)).code).toBe("FORBIDDEN");
    expect(
      (await failure("think_card", { workspace, card: { id: "D1", title: "decision card", type: "decision" }, lane: "agent" }, alice)).code,
    ).toBe("INVALID_INPUT");

    expect(await ok("think_link", { workspace, from: "E1", rel: "supports", to: "H1" }, bob)).toMatchObject({ created: true });
    expect((await ok("think_link", { workspace, from: "E1", rel: "supports", to: "H1" }, bob)).created).toBe(false);
    expect(await ok("think_set_status", { workspace, card_id: "D1", status: "Accepted" }, bob)).toMatchObject({
      status: "accepted",
      changed: true,
    });
    expect((await ok("think_set_status", { workspace, card_id: "D1", status: "accepted" }, bob)).changed).toBe(false);
    await ok("think_pin", { workspace, card_id: "H1" }, alice);
    expect((await ok("think_pins", { workspace }, bob)).cards.map((card: { id: string }) => card.id)).toEqual(["H1"]);
    await ok("think_pin", { workspace, card_id: "H1", pinned: false }, alice);
    expect((await ok("think_pins", { workspace }, bob)).cards).toEqual([]);

    // Publish copies a draft into the shared lane once.
    const published = await ok("think_publish", { workspace, card_id: "N-draft", pin: true }, alice);
    expect(published).toMatchObject({ card_id: "CARD-PUB-N-draft", lane: "shared", inserted: true, published_from: "N-draft" });
    expect((await ok("think_publish", { workspace, card_id: "N-draft", pin: true }, alice)).inserted).toBe(false);
    const seen = await ok("think_query", { workspace, ids: ["CARD-PUB-N-draft"] }, bob);
    expect(seen.cards[0]).toMatchObject({ text: "half-baked", lane: "shared", tags: ["pinned"], meta: { published_from: "N-draft" } });
    expect((await failure("think_publish", { workspace, card_id: "N-draft" }, bob)).code).toBe("FORBIDDEN");

    const tight = await ok("think_context", { workspace, max_chars: MIN_BUDGET_CHARS }, alice);
    expect(tight.budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
  });

  it("writes a pipeline of linked stages with statuses and a decision note, atomically", async () => {
    const workspace = "think/pipeline";
    const pipeline = await ok("think_pipeline", {
      workspace,
      frame: "Reads are slow under load",
      hypothesis: "The index is missing",
      evidence: "EXPLAIN shows a full scan",
      decision: "Add the index",
      status: { hypothesis: "accepted", decision: "accepted" },
      note_decision: true,
    });
    expect(pipeline.cards.map((card: { stage: string }) => card.stage)).toEqual(["frame", "hypothesis", "evidence", "decision"]);
    const [frame, hypothesis, evidence, decision] = pipeline.cards;
    expect(hypothesis.supports).toEqual([frame.card_id]);
    expect(evidence.supports).toEqual([hypothesis.card_id]);
    expect(decision.supports).toEqual([evidence.card_id]);
    const cards = await ok("think_query", { workspace, types: ["hypothesis", "decision"] });
    expect(cards.cards.map((card: { status: string }) => card.status)).toEqual(["accepted", "accepted"]);
    const notes = await ok("show", { workspace, branch: "main", doc: "notes" });
    expect(notes.entries).toEqual([
      expect.objectContaining({
        title: "Decision",
        content: "Add the index",
        meta: expect.objectContaining({ card_id: decision.card_id }),
      }),
    ]);

    const badStatus = await failure("think_pipeline", { workspace, frame: "f", status: { decision: "accepted" } });
    expect(badStatus.code).toBe("INVALID_INPUT");
    expect((await failure("think_pipeline", { workspace })).code).toBe("INVALID_INPUT");
    // Nothing of a refused pipeline lands.
    expect((await ok("think_context", { workspace })).cards).toHaveLength(4);
  });

  it("packs notes, trace, cards and signals into one bounded answer, with a bridge when a target is empty", async () => {
    const workspace = "think/packs";
    await ok("notes_commit", { workspace, content: "Main: we suspect the cache." });
    await ok("think_add_decision", { workspace, id: "D1", title: "Use an LRU", status: "accepted" });
    await ok("think_add_evidence", { workspace, id: "E1", title: "p95 halves with a cache" });
    await ok("think_add_question", { workspace, id: "Q1", title: "Which size?" });
    await ok("think_add_hypothesis", { workspace, id: "H1", title: "Blocked on infra", status: "blocked" });
    const pack = await ok("context_pack", { workspace });
    expect(pack).toMatchObject({
      requested: { target: null, ref: null },
      branch: "main",
      docs: { notes: "notes", trace: "trace", graph: "graph" },
    });
    expect(pack.notes.entries.map((entry: { content: string }) => entry.content)).toEqual(["Main: we suspect the cache."]);
    expect(pack.trace.entries).toHaveLength(4);
    expect(pack.cards.map((card: { id: string }) => card.id)).toEqual(["H1", "Q1", "E1", "D1"]);
    expect(pack.signals.decisions.map((card: { id: string }) => card.id)).toEqual(["D1"]);
    expect(pack.signals.evidence.map((card: { id: string }) => card.id)).toEqual(["E1"]);
    expect(pack.signals.blockers.map((card: { id: string }) => card.id)).toEqual(["H1", "Q1"]);
    expect(pack.stats).toEqual({ notes: 1, trace: 4, cards: 4 });
    expect(pack.bridge).toBeUndefined();
    // The signal engine reads the pack's own slice: H1 is a hypothesis with no test.
    expect(pack.engine.signals.map((signal: { code: string }) => signal.code)).toContain("BM4_HYPOTHESIS_NO_TEST");
    expect(pack.engine.actions.length).toBeLessThanOrEqual(2);

    // A fresh task has no notes or cards: the pack bridges to the checkout.
    const plan = await ok("tasks_create", { workspace, title: "P" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "T" });
    const empty = await ok("context_pack", { workspace, target: task.id });
    expect(empty).toMatchObject({
      branch: "task/TASK-001",
      docs: { trace: "TASK-001-trace" },
      bridge: { checkout: "main", has: { notes: true, trace: true, cards: true } },
    });
    expect(empty.warnings).toEqual([expect.objectContaining({ code: "CONTEXT_EMPTY_FOR_TARGET" })]);
    expect((await failure("context_pack", { workspace, target: task.id, ref: "main" })).code).toBe("INVALID_INPUT");

    // Under a tight budget the signals survive longer than the trace, the newest first, and counts follow.
    for (let i = 2; i <= 6; i++) await ok("think_add_decision", { workspace, id: `D${i}`, title: `Decision ${i} ${"x".repeat(120)}` });
    const tight = await ok("context_pack", { workspace, max_chars: 2000 });
    expect(tight.budget.used_chars).toBeLessThanOrEqual(2000);
    expect(tight.budget.truncated).toBe(true);
    expect(tight.signals.decisions[0].id).toBe("D6");
    expect(tight.signals.stats.decisions).toBe(tight.signals.decisions.length);
    expect(tight.stats).toEqual({ notes: tight.notes.entries.length, trace: tight.trace.entries.length, cards: tight.cards.length });
    expect(tight.trace.pagination.count).toBe(tight.trace.entries.length);
    if (tight.trace.entries.length === 0) expect(tight.trace.pagination.has_more).toBe(true);
    // Same store, same request: byte-identical answers.
    const again = await ok("context_pack", { workspace, max_chars: 2000 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(tight));

    const compact = await ok("think_pack", { workspace, limit_cards: 2 });
    expect(compact).toMatchObject({ stats: { cards: 2, by_type: { decision: 2 } } });
    expect(compact.cards[0]).toEqual({
      id: "D6",
      type: "decision",
      title: `Decision 6 ${"x".repeat(120)}`,
      status: "open",
      lane: "shared",
    });
  });

  it("keeps the decisions and blockers of a tight pack over the engine's prose and the long lists", async () => {
    // A session like the packs bench: notes, steps, and many cards, among them open hypotheses with no
    // test (engine signals, and actions with copyable calls that carry the slice's scope).
    const workspace = "think/packs-tight";
    const words = (label: string, n: number) => `${label} ${"lorem ipsum dolor sit amet ".repeat(8)}`.slice(0, n);
    for (let i = 1; i <= 4; i++) await ok("notes_commit", { workspace, content: words(`note ${i}`, 300) });
    for (let i = 1; i <= 6; i++) {
      await ok("think_add_decision", { workspace, id: `D${i}`, title: words(`decision D${i}`, 44), text: words("because", 120) });
      await ok("think_add_evidence", { workspace, id: `E${i}`, title: words(`evidence E${i}`, 44), text: words("observed", 120) });
      await ok("think_add_question", { workspace, id: `Q${i}`, title: words(`question Q${i}`, 44), text: words("unknown", 120) });
      await ok("think_add_hypothesis", { workspace, id: `H${i}`, title: words(`hypothesis H${i}`, 90), text: words("maybe", 120) });
      await ok("notes_commit", { workspace, doc: "trace", content: words(`step ${i}`, 150) });
    }
    const full = await ok("context_pack", { workspace, budget_profile: "audit" });
    expect(full.budget.truncated).toBe(false);
    const ids = (cards: { id: string }[]) => cards.map((card) => card.id);
    expect(ids(full.signals.decisions)).toEqual(["D6", "D5", "D4", "D3", "D2"]);
    expect(ids(full.signals.blockers)).toEqual(["Q6", "Q5", "Q4", "Q3", "Q2"]);
    expect(full.engine.actions).toHaveLength(2);
    expect(full.engine.signals.length).toBeGreaterThan(0);

    for (const max_chars of [1200, 2000, 3000, 5000]) {
      const tight = await ok("context_pack", { workspace, max_chars });
      expect(tight.budget.used_chars).toBeLessThanOrEqual(max_chars);
      expect(tight.budget.truncated).toBe(true);
      // The newest decision always survives (at least its id and version), and what survives is a newest-first run.
      expect(tight.signals.decisions[0]).toMatchObject({ id: "D6", last_seq: full.signals.decisions[0].last_seq });
      expect(ids(full.signals.decisions).slice(0, tight.signals.decisions.length)).toEqual(ids(tight.signals.decisions));
      expect(ids(full.signals.blockers).slice(0, tight.signals.blockers.length)).toEqual(ids(tight.signals.blockers));
      expect(tight.signals.stats).toMatchObject({ decisions: tight.signals.decisions.length, blockers: tight.signals.blockers.length });
      // Whatever is left of the engine outlived no decision or blocker; a stubbed action keeps what and on what.
      if ((tight.engine?.signals.length ?? 0) + (tight.engine?.actions.length ?? 0) > 0) {
        expect(tight.signals.decisions).toHaveLength(5);
        expect(tight.signals.blockers).toHaveLength(5);
      }
      for (const action of tight.engine?.actions ?? []) {
        if (action.trimmed) expect(Object.keys(action).sort()).toEqual(["kind", "priority", "refs", "title", "trimmed"]);
      }
    }
    // At the bench's small budget the decisions survive whole and the newest blockers with them.
    const small = await ok("context_pack", { workspace, max_chars: 2000 });
    expect(ids(small.signals.decisions)).toEqual(["D6", "D5", "D4", "D3", "D2"]);
    expect(ids(small.signals.blockers)[0]).toBe("Q6");
  });

  it("keeps drafts and the task projection out of other writers' reach, through every tool", async () => {
    const workspace = "think/lane-guards";
    const alice = await as("alice");
    const bob = await as("bob");
    await ok("think_add_hypothesis", { workspace, id: "SHARED", title: "shared idea" }, alice);
    await ok("think_add_note", { workspace, id: "BOB", text: "bob's draft", lane: "agent", supports: ["SHARED"] }, bob);
    await ok("think_add_note", { workspace, id: "ALICE", text: "alice's card" }, alice);
    const forbidden = async (tool: string, args: Record<string, unknown>) => (await failure(tool, { workspace, ...args }, alice)).code;
    expect(await forbidden("graph_apply", { ops: [{ op: "node_upsert", id: "BOB", type: "note", title: "hijack" }] })).toBe("FORBIDDEN");
    expect(await forbidden("graph_apply", { ops: [{ op: "node_delete", id: "BOB" }] })).toBe("FORBIDDEN");
    expect(await forbidden("graph_apply", { ops: [{ op: "edge_upsert", from: "BOB", rel: "blocks", to: "ALICE" }] })).toBe("FORBIDDEN");
    expect(await forbidden("graph_apply", { ops: [{ op: "edge_delete", from: "BOB", rel: "supports", to: "SHARED" }] })).toBe("FORBIDDEN");
    expect(
      await forbidden("graph_apply", { ops: [{ op: "node_upsert", id: "SPOOF", type: "note", title: "x", meta: { lane: "agent/bob" } }] }),
    ).toBe("FORBIDDEN");
    expect(await forbidden("think_nominal_merge", { into: "ALICE", duplicates: ["SHARED"] })).toBe("FORBIDDEN");
    // bob's own graph_apply keeps his draft in his lane.
    await ok("graph_apply", { workspace, ops: [{ op: "node_upsert", id: "BOB", type: "note", title: "bob's draft, edited" }] }, bob);
    expect((await ok("think_query", { workspace, ids: ["BOB"], all_lanes: true }, alice)).cards[0].lane).toBe("agent/bob");

    const plan = await ok("tasks_create", { workspace, title: "P" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "T" });
    expect((await failure("think_set_status", { workspace, target: task.id, card_id: `task:${task.id}`, status: "hacked" })).code).toBe(
      "INVALID_INPUT",
    );
    expect((await failure("think_pin", { workspace, target: task.id, card_id: `task:${task.id}` })).code).toBe("INVALID_INPUT");
  });
});
