// End-to-end: the versioned graph through the real MCP endpoint (toolset=full): apply, query, validate,
// diff, 3-way merge with conflicts and their resolution.

import { describe, expect, it } from "vitest";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { failure, ok } from "./helpers/mcp";

const node = (id: string, title: string, extra: Record<string, unknown> = {}) => ({
  op: "node_upsert",
  id,
  type: "hypothesis",
  title,
  ...extra,
});
const ids = (nodes: { id: string }[]) => nodes.map((n) => n.id);

describe("graph_apply", () => {
  it("applies ops in order, versions every op, and reports counts", async () => {
    const workspace = "graph/apply";
    const result = await ok("graph_apply", {
      workspace,
      ops: [
        node("H1", "cache helps"),
        node("T1", "measure", { type: "test" }),
        { op: "edge_upsert", from: "T1", rel: "supports", to: "H1" },
      ],
    });
    expect(result).toMatchObject({ branch: "main", doc: "graph", applied: { nodes_upserted: 2, edges_upserted: 1 }, last_seq: 3 });
    const deleted = await ok("graph_apply", { workspace, ops: [{ op: "node_delete", id: "H1" }] });
    expect(deleted.applied).toMatchObject({ nodes_deleted: 1, edges_deleted: 1 });
    const query = await ok("graph_query", { workspace });
    expect(ids(query.nodes)).toEqual(["T1"]);
    expect(query.edges).toEqual([]);
  });

  it("deleting a node tombstones its incoming and outgoing edges, including inherited ones", async () => {
    const workspace = "graph/delete-edges";
    await ok("graph_apply", {
      workspace,
      ops: [
        node("A", "a"),
        node("B", "b"),
        node("C", "c"),
        { op: "edge_upsert", from: "A", rel: "supports", to: "B" },
        { op: "edge_upsert", from: "B", rel: "blocks", to: "C" },
      ],
    });
    await ok("branch_create", { workspace, name: "b" });
    const deleted = await ok("graph_apply", { workspace, branch: "b", ops: [{ op: "node_delete", id: "B" }] });
    expect(deleted.applied).toMatchObject({ nodes_deleted: 1, edges_deleted: 2 });
    expect((await ok("graph_query", { workspace, branch: "b" })).edges).toEqual([]);
    expect((await ok("graph_validate", { workspace, branch: "b" })).stats).toEqual({ nodes: 2, edges: 0 });
    expect((await ok("graph_query", { workspace })).edges).toHaveLength(2);
  });

  it("sees its own earlier ops within one batch: a rewrite, a delete of an edge written just before, a re-created node", async () => {
    const workspace = "graph/in-batch";
    const result = await ok("graph_apply", {
      workspace,
      ops: [
        node("A", "a1"),
        node("B", "b1"),
        { op: "edge_upsert", from: "A", rel: "supports", to: "B" },
        node("A", "a2"),
        { op: "node_delete", id: "B" },
        node("C", "c"),
      ],
    });
    // Six ops and the edge's tombstone (written by the delete, before B's own): seqs 1-7 in op order.
    expect(result).toMatchObject({ applied: { nodes_upserted: 4, nodes_deleted: 1, edges_upserted: 1, edges_deleted: 1 }, last_seq: 7 });
    const query = await ok("graph_query", { workspace });
    expect(query.nodes.map((n: { id: string; title: string; last_seq: number }) => [n.id, n.title, n.last_seq])).toEqual([
      ["C", "c", 7],
      ["A", "a2", 4],
    ]);
    expect(query.edges).toEqual([]);
    const gone = await failure("graph_apply", { workspace, ops: [{ op: "edge_delete", from: "A", rel: "supports", to: "B" }] });
    expect(gone).toMatchObject({ code: "UNKNOWN_ID", details: { op_index: 0 } });
    const again = await ok("graph_apply", {
      workspace,
      ops: [
        node("B", "b2"),
        { op: "edge_upsert", from: "A", rel: "supports", to: "B" },
        { op: "edge_delete", from: "A", rel: "supports", to: "B" },
      ],
    });
    expect(again).toMatchObject({ applied: { nodes_upserted: 1, edges_upserted: 1, edges_deleted: 1 }, last_seq: 10 });
    expect((await ok("graph_validate", { workspace })).stats).toEqual({ nodes: 3, edges: 0 });
    expect((await ok("graph_query", { workspace, ids: ["B"] })).nodes[0]).toMatchObject({ title: "b2", last_seq: 8 });
  });

  it("applies nothing when one op of the batch is invalid, and names the missing endpoint", async () => {
    const workspace = "graph/atomic";
    const error = await failure("graph_apply", {
      workspace,
      ops: [node("A", "a"), { op: "edge_upsert", from: "A", rel: "supports", to: "ghost" }],
    });
    expect(error).toMatchObject({ code: "UNKNOWN_ID", details: { op_index: 1, missing: "ghost", role: "to" } });
    expect((await ok("graph_query", { workspace })).nodes).toEqual([]);
    expect((await ok("status", { workspace })).tick).toBe(0);
  });

  it("refuses reserved prefixes and invalid ids, normalizes tags", async () => {
    const workspace = "graph/validation";
    expect((await failure("graph_apply", { workspace, ops: [node("task:TASK-001", "no")] })).code).toBe("INVALID_INPUT");
    expect((await failure("graph_apply", { workspace, ops: [node("a|b", "no")] })).code).toBe("INVALID_INPUT");
    expect((await failure("graph_apply", { workspace, ops: [node("", "no")] })).code).toBe("INVALID_INPUT");
    expect((await failure("graph_apply", { workspace, ops: [{ op: "node_delete", id: "missing" }] })).code).toBe("UNKNOWN_ID");
    await ok("graph_apply", { workspace, ops: [node("N", "tags", { tags: ["Beta", "alpha", "beta"] })] });
    expect((await ok("graph_query", { workspace })).nodes[0].tags).toEqual(["alpha", "beta"]);
  });
});

describe("graph_query", () => {
  it("filters by ids, types, status, tags and text, recent-first, with pagination and budgets", async () => {
    const workspace = "graph/query";
    await ok("graph_apply", {
      workspace,
      ops: [
        node("H1", "Cache layer", { status: "open", tags: ["perf"] }),
        node("H2", "Index tuning", { status: "rejected", tags: ["perf", "db"] }),
        node("E1", "Benchmark result", { type: "evidence", tags: ["db"] }),
        { op: "edge_upsert", from: "E1", rel: "supports", to: "H2" },
      ],
    });
    expect(ids((await ok("graph_query", { workspace })).nodes)).toEqual(["E1", "H2", "H1"]);
    expect(ids((await ok("graph_query", { workspace, types: ["evidence"] })).nodes)).toEqual(["E1"]);
    expect(ids((await ok("graph_query", { workspace, status: "open" })).nodes)).toEqual(["H1"]);
    expect(ids((await ok("graph_query", { workspace, tags_any: ["DB"] })).nodes)).toEqual(["E1", "H2"]);
    expect(ids((await ok("graph_query", { workspace, tags_all: ["perf", "db"] })).nodes)).toEqual(["H2"]);
    expect(ids((await ok("graph_query", { workspace, text: "cache" })).nodes)).toEqual(["H1"]);
    expect(ids((await ok("graph_query", { workspace, ids: ["H1", "E1"] })).nodes)).toEqual(["E1", "H1"]);
    const withEdges = await ok("graph_query", { workspace, ids: ["E1", "H2"] });
    expect(withEdges.edges).toEqual([expect.objectContaining({ from: "E1", rel: "supports", to: "H2" })]);
    expect((await ok("graph_query", { workspace, ids: ["E1"] })).edges).toEqual([]);
    expect((await ok("graph_query", { workspace, include_edges: false })).edges).toEqual([]);

    const first = await ok("graph_query", { workspace, limit: 2 });
    expect(ids(first.nodes)).toEqual(["E1", "H2"]);
    expect(first.pagination).toMatchObject({ has_more: true, next_cursor: first.nodes[1].last_seq });
    const second = await ok("graph_query", { workspace, limit: 2, cursor: first.pagination.next_cursor });
    expect(ids(second.nodes)).toEqual(["H1"]);
    expect(second.pagination.has_more).toBe(false);

    const whole = await ok("graph_query", { workspace, budget_profile: "audit" });
    const tight = await ok("graph_query", { workspace, max_chars: MIN_BUDGET_CHARS });
    expect(tight.budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    expect(tight.budget.truncated).toBe(whole.budget.used_chars > MIN_BUDGET_CHARS);
  });

  it("finds an old match of one filter at any age; a combined filter examines a bounded slice and returns a cursor", async () => {
    const workspace = "graph/bounded";
    await ok("graph_apply", {
      workspace,
      ops: [node("RARE", "the only test", { type: "test", status: "open" }), node("A", "a"), node("B", "b")],
    });
    // 2,400 later versions: 1,200 new nodes, then 1,200 rewrites of one hot node (all superseded but the last).
    for (let batch = 0; batch < 1200; batch += 300) {
      await ok("graph_apply", {
        workspace,
        ops: Array.from({ length: 300 }, (_, i) => node(`F${batch + i}`, "filler", { type: "test", status: "done" })),
      });
    }
    for (let batch = 0; batch < 1200; batch += 300) {
      await ok("graph_apply", { workspace, ops: Array.from({ length: 300 }, (_, i) => node("HOT", `rewrite ${batch + i}`)) });
    }
    await ok("branch_create", { workspace, name: "child" });

    // One filter is served by the term index: the only open node is found on the first page, whatever its age.
    const open = await ok("graph_query", { workspace, status: "open", limit: 10 });
    expect(ids(open.nodes)).toEqual(["RARE"]);
    expect(open.pagination.has_more).toBe(false);
    // Two filters: the type drives, the status is checked on at most 1,000 entries of the range; the
    // match lies beyond them, so the first page is empty and says where to go on.
    const first = await ok("graph_query", { workspace, types: "test", status: "open", limit: 10 });
    expect(first.nodes).toEqual([]);
    expect(first.pagination.has_more).toBe(true);
    const second = await ok("graph_query", { workspace, types: "test", status: "open", limit: 10, cursor: first.pagination.next_cursor });
    expect(ids(second.nodes)).toEqual(["RARE"]);
    expect(second.pagination.has_more).toBe(false);

    // On the child, main's 1,200 superseded rewrites of the hot node are stepped over by the index: full pages.
    const seen: string[] = [];
    let cursor: number | undefined;
    let calls = 0;
    do {
      const page = await ok("graph_query", { workspace, branch: "child", limit: 50, include_edges: false, ...(cursor ? { cursor } : {}) });
      expect(page.nodes.length === 50 || !page.pagination.has_more).toBe(true);
      seen.push(...ids(page.nodes));
      cursor = page.pagination.has_more ? page.pagination.next_cursor : undefined;
      calls++;
    } while (cursor !== undefined && calls < 50);
    expect(seen[0]).toBe("HOT");
    expect(seen.slice(-3)).toEqual(["B", "A", "RARE"]);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(1204);
    expect(calls).toBe(25);
  });

  it("resolves ids through the branch's view: cutoffs honoured, deleted ids absent, other filters and paging applied", async () => {
    const workspace = "graph/ids";
    await ok("graph_apply", { workspace, ops: [node("A", "a1"), node("B", "b1"), node("C", "c1", { type: "test" }), node("D", "d1")] });
    await ok("branch_create", { workspace, name: "b" });
    await ok("graph_apply", { workspace, ops: [node("A", "a2 after the fork")] });
    await ok("graph_apply", { workspace, branch: "b", ops: [node("B", "b2 on the branch"), { op: "node_delete", id: "D" }] });
    const onB = await ok("graph_query", { workspace, branch: "b", ids: ["A", "B", "C", "D", "missing"] });
    expect(onB.nodes.map((n: { id: string; title: string }) => [n.id, n.title])).toEqual([
      ["B", "b2 on the branch"],
      ["C", "c1"],
      ["A", "a1"],
    ]);
    expect(ids((await ok("graph_query", { workspace, branch: "b", ids: ["A", "B", "C"], types: "test" })).nodes)).toEqual(["C"]);
    const first = await ok("graph_query", { workspace, branch: "b", ids: ["A", "B", "C"], limit: 2 });
    expect(ids(first.nodes)).toEqual(["B", "C"]);
    const rest = await ok("graph_query", { workspace, branch: "b", ids: ["A", "B", "C"], limit: 2, cursor: first.pagination.next_cursor });
    expect(ids(rest.nodes)).toEqual(["A"]);
  });

  it("shows the base snapshot on a branch without later base writes, and the branch's own versions", async () => {
    const workspace = "graph/branches";
    await ok("graph_apply", { workspace, ops: [node("A", "v1")] });
    await ok("branch_create", { workspace, name: "b" });
    await ok("graph_apply", { workspace, ops: [node("A", "main v2"), node("M", "main only")] });
    await ok("graph_apply", { workspace, branch: "b", ops: [node("B", "branch only")] });
    const onB = await ok("graph_query", { workspace, branch: "b" });
    expect(onB.nodes.map((n: { id: string; title: string }) => [n.id, n.title])).toEqual([
      ["B", "branch only"],
      ["A", "v1"],
    ]);
    await ok("graph_apply", { workspace, branch: "b", ops: [{ op: "node_delete", id: "A" }] });
    expect(ids((await ok("graph_query", { workspace, branch: "b" })).nodes)).toEqual(["B"]);
    expect(ids((await ok("graph_query", { workspace })).nodes)).toEqual(["M", "A"]);
  });
});

describe("diff, merge and conflicts", () => {
  it("records a node conflict, shows base/theirs/ours, resolves use_from, and validates", async () => {
    const workspace = "graph/conflict";
    await ok("graph_apply", { workspace, ops: [node("H", "base title"), node("K", "keep")] });
    await ok("branch_create", { workspace, name: "idea" });
    await ok("graph_apply", { workspace, branch: "idea", ops: [node("H", "theirs title"), node("N", "new on idea")] });
    await ok("graph_apply", { workspace, ops: [node("H", "ours title")] });

    const diff = await ok("graph_diff", { workspace, from: "main", to: "idea" });
    expect(diff.changes.map((c: { id: string; change: string }) => [c.id, c.change])).toEqual([
      ["N", "added"],
      ["H", "modified"],
    ]);

    const preview = await ok("graph_merge", { workspace, from: "idea", dry_run: true });
    expect(preview).toMatchObject({ merged: 1, conflicts_created: 0, dry_run: true });
    expect(preview.conflicts).toEqual([expect.objectContaining({ key: "H", status: "preview" })]);
    expect((await ok("graph_conflicts", { workspace, into: "main" })).conflicts).toEqual([]);
    expect(ids((await ok("graph_query", { workspace })).nodes)).not.toContain("N");

    const merged = await ok("graph_merge", { workspace, from: "idea", into: "main" });
    expect(merged).toMatchObject({ merged: 1, conflicts_created: 1, diff_summary: { nodes_changed: 2, node_fields_changed: 2 } });
    const [conflictId] = merged.conflict_ids;
    expect(conflictId).toMatch(/^CONFLICT-[0-9a-f]{32}$/);
    const again = await ok("graph_merge", { workspace, from: "idea" });
    expect(again).toMatchObject({ merged: 0, conflicts_created: 0 });
    expect(again.conflicts).toEqual([expect.objectContaining({ conflict_id: conflictId, status: "open" })]);

    const shown = await ok("graph_conflict_show", { workspace, conflict_id: conflictId });
    expect(shown.conflict).toMatchObject({
      kind: "node",
      key: "H",
      from: "idea",
      into: "main",
      status: "open",
      base: { title: "base title" },
      theirs: { title: "theirs title" },
      ours: { title: "ours title" },
    });
    const listed = await ok("graph_conflicts", { workspace, into: "main", status: "open" });
    expect(listed.conflicts.map((c: { conflict_id: string }) => c.conflict_id)).toEqual([conflictId]);

    expect(await ok("graph_conflict_resolve", { workspace, conflict_id: conflictId, resolution: "use_from" })).toMatchObject({
      status: "resolved",
      applied: true,
    });
    const h = (await ok("graph_query", { workspace, ids: ["H"] })).nodes[0];
    expect(h.title).toBe("theirs title");
    expect((await ok("graph_validate", { workspace })).ok).toBe(true);
    expect((await ok("graph_conflicts", { workspace, into: "main", status: "open" })).conflicts).toEqual([]);
    expect((await ok("graph_conflict_resolve", { workspace, conflict_id: conflictId, resolution: "use_into" })).applied).toBe(false);
  });

  it("a conflict resolved use_into does not resurface on the next merge", async () => {
    const workspace = "graph/no-resurface";
    await ok("graph_apply", { workspace, ops: [node("H", "base")] });
    await ok("branch_create", { workspace, name: "side" });
    await ok("graph_apply", { workspace, branch: "side", ops: [node("H", "theirs")] });
    await ok("graph_apply", { workspace, ops: [node("H", "ours")] });
    const merged = await ok("graph_merge", { workspace, from: "side" });
    await ok("graph_conflict_resolve", { workspace, conflict_id: merged.conflict_ids[0], resolution: "use_into" });
    expect((await ok("graph_query", { workspace, ids: ["H"] })).nodes[0].title).toBe("ours");
    const again = await ok("graph_merge", { workspace, from: "side" });
    expect(again).toMatchObject({ merged: 0, conflicts_created: 0, conflicts: [] });
  });

  it("an edge conflict resolved use_from can leave a dangling endpoint that validate reports", async () => {
    const workspace = "graph/dangling";
    await ok("graph_apply", {
      workspace,
      ops: [node("A", "a"), node("B", "b"), { op: "edge_upsert", from: "A", rel: "supports", to: "B", meta: { w: 1 } }],
    });
    await ok("branch_create", { workspace, name: "side" });
    await ok("graph_apply", {
      workspace,
      branch: "side",
      ops: [{ op: "edge_upsert", from: "A", rel: "supports", to: "B", meta: { w: 2 } }],
    });
    await ok("graph_apply", { workspace, ops: [{ op: "node_delete", id: "B" }] });
    const merged = await ok("graph_merge", { workspace, from: "side" });
    expect(merged.conflicts).toEqual([expect.objectContaining({ kind: "edge", key: "A|supports|B" })]);
    await ok("graph_conflict_resolve", { workspace, conflict_id: merged.conflict_ids[0], resolution: "use_from" });
    const validated = await ok("graph_validate", { workspace });
    expect(validated.ok).toBe(false);
    expect(validated.errors).toEqual([expect.objectContaining({ code: "EDGE_ENDPOINT_MISSING", missing: ["B"] })]);
    expect(validated.stats).toEqual({ nodes: 1, edges: 1 });
  });

  it("validate pages its errors under a small budget without passing over any", async () => {
    const workspace = "graph/dangling-many";
    const count = 12;
    const edges = (w: number) =>
      Array.from({ length: count }, (_, i) => ({ op: "edge_upsert", from: `A${i}`, rel: "supports", to: "B", meta: { w } }));
    const nodes = [...Array.from({ length: count }, (_, i) => node(`A${i}`, `a${i}`)), node("B", "b")];
    await ok("graph_apply", { workspace, ops: [...nodes, ...edges(1)] });
    await ok("branch_create", { workspace, name: "side" });
    await ok("graph_apply", { workspace, branch: "side", ops: edges(2) });
    await ok("graph_apply", { workspace, ops: [{ op: "node_delete", id: "B" }] });
    const merged = await ok("graph_merge", { workspace, from: "side" });
    for (const id of merged.conflict_ids) await ok("graph_conflict_resolve", { workspace, conflict_id: id, resolution: "use_from" });
    const whole = await ok("graph_validate", { workspace });
    expect(whole.errors).toHaveLength(count);

    // At 800 characters a page shows a few errors; following next_cursor shows each one once, in order.
    const seen: string[] = [];
    let cursor: number | undefined;
    for (let page = 0; page < count; page++) {
      const answer = await ok("graph_validate", { workspace, max_chars: 800, ...(cursor === undefined ? {} : { cursor }) });
      expect(answer.ok).toBe(false);
      expect(answer.errors.length).toBeGreaterThan(0);
      seen.push(...answer.errors.map((error: { edge: { from: string } }) => error.edge.from));
      cursor = answer.next_cursor;
      if (cursor === undefined) break;
    }
    expect(seen).toEqual(whole.errors.map((error: { edge: { from: string } }) => error.edge.from));
  });

  it("merges only into the base, and refuses bad conflict ids", async () => {
    const workspace = "graph/merge-rules";
    await ok("branch_create", { workspace, name: "x" });
    await ok("branch_create", { workspace, name: "y" });
    expect((await failure("graph_merge", { workspace, from: "x", into: "y" })).code).toBe("MERGE_NOT_SUPPORTED");
    expect((await failure("graph_merge", { workspace, from: "main" })).code).toBe("MERGE_NOT_SUPPORTED");
    expect((await failure("graph_conflict_show", { workspace, conflict_id: "nope" })).code).toBe("INVALID_INPUT");
    expect((await failure("graph_conflict_show", { workspace, conflict_id: `CONFLICT-${"0".repeat(32)}` })).code).toBe("UNKNOWN_ID");
  });

  it("applies keys only `from` changed, is idempotent, and the diff empties", async () => {
    const workspace = "graph/clean-merge";
    await ok("graph_apply", { workspace, ops: [node("A", "a")] });
    await ok("branch_create", { workspace, name: "feat" });
    await ok("graph_apply", {
      workspace,
      branch: "feat",
      ops: [node("A", "a2"), node("B", "b"), { op: "edge_upsert", from: "B", rel: "supports", to: "A" }],
    });
    const merged = await ok("graph_merge", { workspace, from: "feat", merge_to_base: true });
    expect(merged).toMatchObject({ merged: 3, conflicts_created: 0 });
    expect((await ok("graph_merge", { workspace, from: "feat" })).merged).toBe(0);
    expect((await ok("graph_diff", { workspace, from: "main", to: "feat" })).changes).toEqual([]);
    expect((await ok("graph_validate", { workspace })).ok).toBe(true);
  });
});

describe("deep views with filters", () => {
  it("query with every filter on a 32-deep branch stays within the bound parameters", async () => {
    const workspace = "graph/deep-filters";
    await ok("graph_apply", { workspace, ops: [node("A", "alpha hello", { status: "open", tags: ["x"] })] });
    let from = "main";
    for (let i = 1; i <= 31; i++) {
      await ok("branch_create", { workspace, name: `d${i}`, from });
      from = `d${i}`;
    }
    const found = await ok("graph_query", {
      workspace,
      branch: from,
      types: ["hypothesis"],
      status: ["open"],
      tags_any: ["x"],
      tags_all: ["x"],
      text: "hello",
    });
    expect(ids(found.nodes)).toEqual(["A"]);
    const cards = await ok("think_query", { workspace, branch: from, text: "hello", types: ["hypothesis"], status: ["open"] });
    expect(cards.cards.map((card: { id: string }) => card.id)).toEqual(["A"]);
  });
});
