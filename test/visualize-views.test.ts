// `visualize {what: "graph"}` and `{what: "session"}` through the real endpoint (docs/app.md): the answer
// in words, and reads (and, for a role that may write, the conflict decision) that work as the app
// pastes them (web/src/app/tool-call.ts) on the default toolset, `full` and a locked URL. The frontier's
// graph (`think_frontier_graph`): marks, lanes (another agent's draft never shows), its node bound with
// what lay past it counted, `around`; deciding a conflict through the pasted write, after which `status`
// no longer names it; a read grant is offered no write and cannot make it.
import { describe, expect, it } from "vitest";
import { toolCallFor } from "../web/src/app/tool-call";
import { as, callTool, ok, type RpcOptions } from "./helpers/mcp";

interface Suggested {
  tool: string;
  args: Record<string, unknown>;
  purpose: string;
}

const FULL = { path: "/mcp?toolset=full" };

async function pasted(suggestion: Suggested, extra: Record<string, unknown>, options: RpcOptions) {
  const call = toolCallFor(suggestion, extra);
  const result = await callTool(call.name, call.arguments, options);
  expect(result.isError, `${call.name}: ${JSON.stringify(result.structuredContent)}`).toBeUndefined();
  return result.structuredContent as Record<string, any>;
}

/** A graph with an open question, a tested and an untested hypothesis, a closed decision, bob's draft and a conflict on H. */
async function seedGraph(workspace: string) {
  const alice = { ...FULL, ...(await as("alice")) };
  const bob = { ...FULL, ...(await as("bob")) };
  const w = { workspace };
  await ok("think_add_question", { ...w, id: "Q1", title: "Which cache wins?" }, alice);
  await ok("think_add_hypothesis", { ...w, id: "H2", title: "LRU beats LFU", supports: ["Q1"] }, alice);
  await ok("think_add_hypothesis", { ...w, id: "H3", title: "Misses dominate" }, alice);
  await ok("think_add_test", { ...w, id: "T1", title: "Replay a day of reads", supports: ["H3"] }, alice);
  await ok("think_add_decision", { ...w, id: "D1", title: "Ship a cache", status: "done" }, alice);
  await ok("think_add_evidence", { ...w, id: "E9", title: "Bob's private hunch", supports: ["Q1"], lane: "agent" }, bob);
  await ok("graph_apply", { ...w, ops: [{ op: "node_upsert", id: "H", type: "hypothesis", title: "base title" }] }, alice);
  await ok("branch_create", { ...w, name: "idea" }, alice);
  await ok(
    "graph_apply",
    { ...w, branch: "idea", ops: [{ op: "node_upsert", id: "H", type: "hypothesis", title: "theirs title" }] },
    alice,
  );
  await ok("graph_apply", { ...w, ops: [{ op: "node_upsert", id: "H", type: "hypothesis", title: "ours title" }] }, alice);
  await ok("graph_merge", { ...w, from: "idea" }, alice);
}

describe("visualize graph", () => {
  it("says the frontier in words and hands reads and the decision that work as pasted on portals, full and a locked URL", async () => {
    const workspace = "viz/graph";
    await seedGraph(workspace);
    for (const path of ["/mcp", "/mcp?toolset=full", `/w/${encodeURIComponent(workspace)}/mcp`]) {
      const options = { path };
      const answer = await ok("visualize", { ...(path.startsWith("/w/") ? {} : { workspace }), what: "graph" }, options);
      expect(answer).toMatchObject({ what: "graph", role: "write", graph: { branch: "main", graph_doc: "graph" } });
      expect(answer.summary).toContain('Graph graph on main: 1 open question (Q1 "Which cache wins?")');
      expect(answer.summary).toMatch(/2 untested hypotheses \((H2|H) .*\)/);
      expect(answer.summary).toContain("1 open conflict (node H from idea)");
      const reads = answer.reads as Record<string, Suggested>;
      expect(Object.keys(reads).sort()).toEqual(["graph.conflict.show", "graph.node.show", "think.frontier.graph"]);
      const graph = await pasted(reads["think.frontier.graph"] as Suggested, {}, options);
      const ids = (graph.nodes as { id: string }[]).map((node) => node.id).sort();
      expect(ids).toEqual(
        ["D1", "H", "H2", "H3", "Q1", "T1"]
          .filter((id) => id !== "D1")
          .concat([])
          .sort(),
      );
      const byId = new Map((graph.nodes as Record<string, any>[]).map((node) => [node.id, node]));
      expect(byId.get("Q1")).toMatchObject({ open: true, seed: true, untested: false });
      expect(byId.get("H2")).toMatchObject({ untested: true });
      expect(byId.get("H3")).toMatchObject({ untested: false });
      expect(byId.get("H")).toMatchObject({ conflicted: true, title: "ours title" });
      expect(graph.edges).toContainEqual({ from: "H2", rel: "supports", to: "Q1" });
      expect(graph.frontier).toMatchObject({ questions: 1, untested_hypotheses: 2 });
      const conflict = (graph.conflicts as { conflict_id: string; key: string; from: string }[])[0];
      expect(conflict).toMatchObject({ key: "H", from: "idea" });
      const shown = await pasted(reads["graph.conflict.show"] as Suggested, { conflict_id: conflict?.conflict_id }, options);
      expect(shown.conflict.theirs.title).toBe("theirs title");
      const node = await pasted(reads["graph.node.show"] as Suggested, { id: "Q1" }, options);
      expect(node.node.title).toBe("Which cache wins?");
      expect(answer.writes?.["graph.conflict.resolve"]?.tool).toBeTruthy();
    }
  });

  it("decides a conflict through the pasted write, journaled as the agent; then no agent's status names it", async () => {
    const workspace = "viz/decide";
    await seedGraph(workspace);
    // On the default toolset: the decision is a portal envelope that runs the command, its args the holder of the app's.
    const portals = { path: "/mcp" };
    const answer = await ok("visualize", { workspace, what: "graph" }, portals);
    expect(answer.writes["graph.conflict.resolve"]).toMatchObject({
      tool: "graph",
      args: { op: "call", cmd: "graph.conflict.resolve", args: { resolution: "use_into" } },
    });
    const graph = await pasted(answer.reads["think.frontier.graph"], {}, portals);
    const id = graph.conflicts[0].conflict_id as string;
    const before = await ok("status", { workspace }, { path: "/mcp", ...(await as("alice")) });
    expect(JSON.stringify(before)).toContain(id);
    const decided = await pasted(answer.writes["graph.conflict.resolve"], { conflict_id: id, resolution: "use_from" }, portals);
    expect(decided).toMatchObject({ conflict_id: id, status: "resolved", resolution: "use_from", applied: true });
    for (const agent of ["alice", "bob"]) {
      const status = await ok("status", { workspace }, { path: "/mcp", ...(await as(agent)) });
      expect(JSON.stringify(status)).not.toContain(id);
    }
    const after = await pasted(answer.reads["think.frontier.graph"], {}, portals);
    expect(after.conflicts).toEqual([]);
    expect((after.nodes as { id: string; title: string }[]).find((node) => node.id === "H")?.title).toBe("theirs title");
    const journaled = await ok("status", { workspace }, FULL);
    expect(journaled.last_event).toMatchObject({ command: "graph_conflict_resolve", agent_id: "alice" });
  });

  it("offers a read grant no write, and the write it would forge is refused", async () => {
    const workspace = "viz/reader";
    await seedGraph(workspace);
    const reader = await as("carol", { role: "read" });
    const answer = await ok("visualize", { workspace, what: "graph" }, reader);
    expect(answer.role).toBe("read");
    expect(answer.writes).toBeUndefined();
    const graph = await pasted(answer.reads["think.frontier.graph"], {}, reader);
    const forged = await callTool(
      "graph_conflict_resolve",
      { workspace, conflict_id: graph.conflicts[0].conflict_id, resolution: "use_from" },
      { ...FULL, ...reader },
    );
    expect(forged.isError).toBe(true);
    expect((forged.structuredContent as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    const still = await pasted(answer.reads["think.frontier.graph"], {}, reader);
    expect(still.conflicts).toHaveLength(1);
  });
});

describe("visualize graph's place", () => {
  it("opens on the caller's focus: its reasoning graph, and says when there is nothing to draw", async () => {
    const workspace = "viz/focus";
    const plan = await ok("tasks_create", { workspace, title: "Ship" });
    await ok("tasks_focus_set", { workspace, target: plan.id });
    const empty = await ok("visualize", { workspace, what: "graph" });
    expect(empty.graph).toEqual({ branch: `plan/${plan.id}`, graph_doc: `${plan.id}-graph`, target: plan.id });
    expect(empty.summary).toContain("There is nothing to draw yet.");
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Cache", steps: [{ title: "Write it" }] });
    await ok("tasks_focus_set", { workspace, target: task.id });
    await ok("think_add_question", { workspace, target: task.id, id: "Q9", title: "Why a cache?" });
    const focused = await ok("visualize", { workspace, what: "graph" });
    expect(focused.graph).toMatchObject({ branch: `task/${task.id}`, target: task.id });
    expect(focused.summary).toContain('1 open question (Q9 "Why a cache?")');
    const graph = await pasted(focused.reads["think.frontier.graph"], {}, FULL);
    expect((graph.nodes as { id: string }[]).map((node) => node.id)).toEqual(["Q9"]);
    const onMain = await ok("visualize", { workspace, what: "graph", branch: "main" });
    expect(onMain.graph).toEqual({ branch: "main", graph_doc: "graph" });
  });
});

describe("think_frontier_graph", () => {
  it("draws at most its limit, counts what lay past it, and draws a card's neighbours on asking", async () => {
    const workspace = "viz/bound";
    const w = { workspace };
    const ops = Array.from({ length: 230 }, (_, index) => ({
      op: "node_upsert",
      id: `Q${index}`,
      type: "question",
      title: `Question ${index}`,
    }));
    await ok("graph_apply", { ...w, ops: ops.slice(0, 115) }, FULL);
    await ok("graph_apply", { ...w, ops: ops.slice(115) }, FULL);
    await ok(
      "graph_apply",
      {
        ...w,
        ops: [
          { op: "node_upsert", id: "N1", type: "note", title: "Far note" },
          { op: "edge_upsert", from: "N1", rel: "supports", to: "Q0" },
        ],
      },
      FULL,
    );
    const full = await ok("think_frontier_graph", w, FULL);
    expect(full.nodes).toHaveLength(200);
    expect(full.frontier).toMatchObject({ questions: 200 });
    expect(full.frontier_capped).toBe(true);
    const small = await ok("think_frontier_graph", { ...w, limit: 10 }, FULL);
    expect(small).toMatchObject({ shown: 10, capped: true });
    expect(small.left_out).toBeGreaterThan(0);
    const around = await ok("think_frontier_graph", { ...w, around: ["Q0"] }, FULL);
    expect((around.nodes as { id: string; seed: boolean }[]).map((node) => [node.id, node.seed]).sort()).toEqual([
      ["N1", false],
      ["Q0", true],
    ]);
    expect(around.edges).toEqual([{ from: "N1", rel: "supports", to: "Q0" }]);
  });
});

describe("think_frontier_graph around a hub", () => {
  it("draws a card's newest 50 links each way, and the rest of a hub is a click on a neighbour away", async () => {
    const workspace = "viz/hub";
    const notes = Array.from({ length: 60 }, (_, index) => ({ op: "node_upsert", id: `N${index}`, type: "note", title: `Note ${index}` }));
    const links = notes.map((note) => ({ op: "edge_upsert", from: note.id, rel: "supports", to: "HUB" }));
    await ok(
      "graph_apply",
      { workspace, ops: [{ op: "node_upsert", id: "HUB", type: "question", title: "Hub" }, ...notes, ...links] },
      FULL,
    );
    const around = await ok("think_frontier_graph", { workspace, around: ["HUB"], budget_profile: "audit" }, FULL);
    const ids = (around.nodes as { id: string }[]).map((node) => node.id);
    expect(ids).toHaveLength(51);
    expect(ids).toContain("N59");
    expect(ids).toContain("N10");
    expect(ids).not.toContain("N9");
    expect(around.edges).toHaveLength(50);
  });
});

describe("visualize session", () => {
  it("names the caller's newest open session, its active records, its staleness and what others changed, in words", async () => {
    const workspace = "viz/session";
    const w = { workspace };
    const alice = { ...FULL, ...(await as("alice")) };
    const bob = { ...FULL, ...(await as("bob")) };
    const root = await ok(
      "create_record",
      { ...w, parent_id: null, type: "question", title: "Which cache?", summary: "s", body: "b" },
      alice,
    );
    const session = root.session_id as string;
    await ok(
      "create_record",
      { ...w, session_id: session, parent_id: "R001", type: "option", title: "LRU", summary: "", body: "x" },
      alice,
    );
    const theirs = await ok("activate", { ...w, id: "R002" }, bob);
    await ok("update_record", { ...w, session_id: theirs.session_id, id: "R002", body: "LRU with 10k entries" }, bob);
    // A second change to the same record: still one record changed.
    await ok("update_record", { ...w, session_id: theirs.session_id, id: "R002", body: "LRU with 20k entries" }, bob);
    for (const path of ["/mcp", "/mcp?toolset=full", `/w/${encodeURIComponent(workspace)}/mcp`]) {
      const options = { path, ...(await as("alice")) };
      const answer = await ok("visualize", { ...(path.startsWith("/w/") ? {} : w), what: "session" }, options);
      expect(answer.session).toMatchObject({
        session_id: session,
        agent_id: "alice",
        changed_by_others: 1,
        changed_by_others_capped: false,
      });
      expect((answer.session.active_records as { id: string }[]).map((record) => record.id)).toContain("R001");
      expect(answer.session.active_record_ids).toEqual(["R001", "R002"]);
      expect(answer.summary).toContain(`Session ${session} of alice`);
      expect(answer.summary).toContain("1 record changed by others since then.");
      expect(answer.summary).toMatch(/last synced at tick \d+, the project is at tick \d+: \d+ ticks? behind/);
      const tree = await pasted(answer.reads["records.list"], { limit: 200 }, options);
      expect((tree.records as { id: string }[]).map((record) => record.id)).toEqual(["R001", "R002"]);
      const activity = await pasted(answer.reads["records.activity"], {}, options);
      const others = (activity.activity as { session_id?: string; record_id?: string; type: string }[]).filter(
        (entry) => entry.session_id !== session && entry.type === "record_updated",
      );
      expect(others.map((entry) => entry.record_id)).toEqual(["R002", "R002"]);
      const sessions = await pasted(answer.reads["records.sessions"], {}, options);
      expect(sessions.sessions).toHaveLength(2);
    }
    const none = await ok("visualize", { ...w, what: "session" }, await as("dave"));
    expect(none.session).toBeNull();
    expect(none.summary).toContain("dave has no open session");
    const missing = await callTool("visualize", { ...w, what: "session", session_id: "S999" }, FULL);
    expect((missing.structuredContent as { error: { code: string } }).error.code).toBe("SESSION_NOT_FOUND");
  });

  it("counts others' changes up to its bound and says there are more past it: the oldest change is counted", async () => {
    const workspace = "viz/session-bound";
    const w = { workspace };
    const alice = { ...FULL, ...(await as("alice")) };
    const root = await ok(
      "create_record",
      { ...w, parent_id: null, type: "question", title: "Which cache?", summary: "", body: "b" },
      alice,
    );
    const session = root.session_id as string;
    // The oldest changes since alice's sync: bob's three, to one record alice has active.
    const bob = { ...FULL, ...(await as("bob")) };
    const theirs = await ok("activate", { ...w, id: "R001" }, bob);
    for (const body of ["one", "two", "three"]) await ok("update_record", { ...w, session_id: theirs.session_id, id: "R001", body }, bob);
    // Then 2,500 records by an import: well past the 1,000 versions the count looks at.
    const admin = { ...FULL, ...(await as("root", { role: "admin" })) };
    const records = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => ({ op: "record", type: "note", title: `Imported ${from + index}` }));
    await ok("workspace_import", { ...w, ops: records(0, 2_000) }, admin);
    await ok("workspace_import", { ...w, ops: records(2_000, 500) }, admin);
    const answer = await ok("visualize", { ...w, what: "session", session_id: session }, alice);
    // The first 1,000 versions in tick order: bob's three (one record, R001) and 997 imported records.
    // Counted from the newest instead, the oldest would be forgotten and the count would be 1,000.
    expect(answer.session).toMatchObject({ changed_by_others: 998, changed_by_others_capped: true });
    expect(answer.summary).toContain("998 or more records changed by others since then.");
  });
});
