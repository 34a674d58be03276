// End-to-end: the signal engine's tools through the real MCP endpoint (toolset=full): frontier, next,
// watch and playbooks, with their small stubs under the tightest budgets.
import { describe, expect, it } from "vitest";
import { failure, ok } from "./helpers/mcp";

async function seeded(workspace: string) {
  await ok("think_add_frame", { workspace, id: "F1", title: "Reads are slow" });
  await ok("think_add_hypothesis", { workspace, id: "H1", title: "Missing index", supports: ["F1"] });
  await ok("think_add_question", { workspace, id: "Q1", title: "Postgres vs SQLite for the cache?" });
  await ok("think_add_decision", { workspace, id: "D-old", title: "Old plan", status: "rejected" });
}

describe("think: frontier, next, watch, playbooks", () => {
  it("shows the open frontier with the engine's findings, and the best and backup move", async () => {
    const workspace = "engine/frontier";
    await seeded(workspace);
    const frontier = await ok("think_frontier", { workspace });
    expect(frontier.frontier.hypotheses.map((card: { id: string }) => card.id)).toEqual(["H1"]);
    expect(frontier.frontier.questions.map((card: { id: string }) => card.id)).toEqual(["Q1"]);
    expect(frontier.frontier.decisions).toEqual([]);
    expect(frontier.engine.signals[0]).toMatchObject({ code: "BM4_HYPOTHESIS_NO_TEST", severity: "high" });

    const next = await ok("think_next", { workspace });
    expect(next.next).toMatchObject({ kind: "add_test_stub", calls: [{ tool: "think_add_test", args: { supports: ["H1"] } }] });
    expect(next.backup).toMatchObject({ kind: "criteria_matrix" });
    // Following the move changes the answer: with a test, the engine moves on.
    await ok(next.next.calls[0].tool, { workspace, ...next.next.calls[0].args, id: "T1" });
    const after = await ok("think_next", { workspace });
    expect(after.next.kind).not.toBe("add_test_stub");

    // Moves proposed for a branch are aimed at it.
    await ok("branch_create", { workspace, name: "alt" });
    const onAlt = await ok("think_next", { workspace, branch: "alt" });
    expect(onAlt.next.calls[0].args).toMatchObject({ branch: "alt", graph_doc: "graph" });
    const status = await ok("status", { workspace });
    expect(status.engine.signals.map((signal: { code: string }) => signal.code)).toContain("BM10_NO_COUNTER_EDGES");
    expect((await ok("status", { workspace: "engine/no-cards" })).engine).toBeUndefined();
    const watch = await ok("think_watch", { workspace });
    expect(watch.trace.length).toBeGreaterThan(0);
    expect(watch.watch_capsule).toMatchObject({ where: { branch: "main", graph_doc: "graph", trace_doc: "trace" } });
    expect(watch.watch_capsule.next).not.toBeNull();
  });

  it("answers with a small form that names the next move under budgets below the minimum", async () => {
    const workspace = "engine/stubs";
    await seeded(workspace);
    for (const tool of ["think_frontier", "think_next", "think_watch"]) {
      for (const max of [120, 200]) {
        const answer = await ok(tool, { workspace, max_chars: max });
        expect(answer.budget.used_chars).toBeLessThanOrEqual(answer.budget.max_chars);
        // The best move, in the answer's own shape: think_next's next, the watch capsule's next, the engine's action.
        const move = answer.next ?? answer.watch_capsule?.next ?? answer.engine?.actions?.[0];
        expect(move?.calls?.[0]?.tool).toBe("think_add_test");
      }
    }
    // An empty workspace still answers with a move, never an empty payload.
    const empty = await ok("think_next", { workspace: "engine/empty" });
    expect(empty.next).toMatchObject({ kind: "frame" });
  });

  it("returns playbooks by name and refuses unknown ones", async () => {
    const workspace = "engine/playbooks";
    const contradiction = await ok("think_playbook", { workspace, name: "contradiction" });
    expect(contradiction.steps.map((step: { card_type: string }) => step.card_type)).toEqual(["question", "test", "evidence", "decision"]);
    expect(contradiction.playbooks).toEqual([
      "default",
      "strict",
      "breakthrough",
      "contradiction",
      "experiment",
      "criteria_matrix",
      "debug",
      "skeptic",
    ]);
    expect((await failure("think_playbook", { workspace, name: "magic" })).code).toBe("INVALID_INPUT");
  });

  it("opens and closes a subgoal under a question, with its own trace", async () => {
    const workspace = "engine/subgoals";
    await ok("think_add_question", { workspace, id: "Q1", title: "Why is p95 high?" });
    const opened = await ok("think_subgoal_open", { workspace, parent: "Q1", id: "SG1", title: "Is it GC?" });
    expect(opened).toMatchObject({ subgoal_id: "SG1", parent: "Q1", trace_doc: "trace-SG1", opened: true });
    expect((await ok("think_subgoal_open", { workspace, parent: "Q1", id: "SG1", title: "Is it GC?" })).opened).toBe(false);
    const edges = await ok("graph_query", { workspace, ids: ["SG1", "Q1"] });
    expect(edges.edges).toEqual([expect.objectContaining({ from: "SG1", rel: "supports", to: "Q1" })]);
    const closed = await ok("think_subgoal_close", { workspace, subgoal_id: "SG1", summary: "No: GC pauses are 2 ms." });
    expect(closed).toMatchObject({ status: "done", changed: true });
    expect((await ok("think_subgoal_close", { workspace, subgoal_id: "SG1" })).changed).toBe(false);
    const child = await ok("show", { workspace, branch: "main", doc: "trace-SG1" });
    expect(child.entries.map((entry: { title: string }) => entry.title)).toEqual(["subgoal opened", "subgoal closed"]);
    expect((await failure("think_subgoal_open", { workspace, parent: "SG-missing", title: "x" })).code).toBe("UNKNOWN_ID");
    await ok("think_add_note", { workspace, id: "N1", text: "not a question" });
    expect((await failure("think_subgoal_open", { workspace, parent: "N1", title: "x" })).code).toBe("INVALID_INPUT");
  });

  it("merges duplicate cards into a canonical one once, re-pointing their edges", async () => {
    const workspace = "engine/merge";
    await ok("think_add_hypothesis", { workspace, id: "H", title: "Cache misses" });
    await ok("think_add_hypothesis", { workspace, id: "H-dup", title: "cache misses!" });
    await ok("think_add_test", { workspace, id: "T", title: "Count misses", supports: ["H-dup"] });
    await ok("think_add_evidence", { workspace, id: "E", title: "40% misses", supports: ["H-dup"] });
    const merged = await ok("think_nominal_merge", { workspace, into: "H", duplicates: ["H-dup"] });
    expect(merged).toMatchObject({ merged: ["H-dup"], edges_repointed: 2, changed: true });
    const graph = await ok("graph_query", { workspace, ids: ["H", "H-dup", "T", "E"] });
    expect(graph.edges.map((edge: { from: string; to: string }) => `${edge.from}->${edge.to}`).sort()).toEqual(["E->H", "T->H"]);
    const dup = graph.nodes.find((node: { id: string }) => node.id === "H-dup");
    expect(dup).toMatchObject({ status: "superseded", meta: expect.objectContaining({ merged_into: "H" }) });
    expect(await ok("think_nominal_merge", { workspace, into: "H", duplicates: ["H-dup"] })).toMatchObject({
      edges_repointed: 0,
      changed: false,
    });
  });
});
