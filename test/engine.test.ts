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

    const watch = await ok("think_watch", { workspace });
    expect(watch.trace.length).toBeGreaterThan(0);
    expect(watch.watch_capsule).toMatchObject({ where: { branch: "main", graph_doc: "graph", trace_doc: "trace" } });
    expect(watch.watch_capsule.next).not.toBeNull();
  });

  it("answers with a stub that names the next move under 120- and 200-character budgets", async () => {
    const workspace = "engine/stubs";
    await seeded(workspace);
    for (const tool of ["think_frontier", "think_next", "think_watch"]) {
      for (const max of [120, 200]) {
        const answer = await ok(tool, { workspace, max_chars: max });
        expect(answer.budget.used_chars).toBeLessThanOrEqual(answer.budget.max_chars);
        const move = answer.next ?? answer.watch_capsule?.next;
        expect(move?.tool ?? move?.calls?.[0]?.tool).toBe("think_add_test");
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
});
