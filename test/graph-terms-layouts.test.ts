// The term index against adversarial layouts, read over the real MCP endpoint: each read finds what is
// open, and its work (the rows SQLite read, as the call log reports them: helpers/rows-read.ts) stays
// within what docs/storage.md states — the same at 100,000 cards as at 1,000 where nothing is stepped
// over, and proportional to what is stepped over where a nearer branch shadows its base. The 100,000-card
// layers are written straight into SQLite (the index's triggers keep it as for any write), so the file
// runs in seconds; everything else goes through the endpoint.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Db } from "../src/storage/db";
import { ok } from "./helpers/mcp";
import { callCounted } from "./helpers/rows-read";

type Args = Record<string, unknown>;
const ids = (cards: { id: string }[]) => cards.map((card) => card.id);

/**
 * `count` node versions `<prefix><n>` of `type` (with `status` and `lane`) on `branch` of the `graph` doc,
 * written in order on the workspace's seq clock, straight into SQLite in batches of 50,000.
 */
async function bulkNodes(
  workspace: string,
  prefix: string,
  count: number,
  fields: { type: string; status: string; lane?: string },
  branch = "main",
): Promise<void> {
  await runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
    const db = new Db(state.storage.sql, state.storage);
    const branchId = db.one<{ id: string }>("SELECT id FROM branches WHERE name = ?", branch)?.id;
    if (branchId === undefined) throw new Error(`no branch ${branch} in ${workspace}`);
    const meta = fields.lane === undefined ? null : JSON.stringify({ lane: fields.lane });
    for (let start = 0; start < count; start += 50_000) {
      const seq = db.one<{ value: number }>("SELECT value FROM clocks WHERE name = 'seq'")?.value ?? 0;
      const size = Math.min(50_000, count - start);
      db.run(
        `WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < CAST(? AS INTEGER))
         INSERT INTO graph_versions (seq, branch_id, doc, kind, key, node_type, title, status, meta_json, deleted, ts_ms, agent_id)
         SELECT CAST(? AS INTEGER) + 1 + i, ?, 'graph', 'node', ? || CAST(CAST(? AS INTEGER) + i AS TEXT), ?, 'bulk ' || i, ?, ?, 0, 0, 'seed' FROM n`,
        size,
        seq,
        branchId,
        prefix,
        start,
        fields.type,
        fields.status,
        meta,
      );
      db.run("UPDATE clocks SET value = ? WHERE name = 'seq'", seq + size);
    }
  });
}

/** The frontier's open hypotheses and the rows its call read. */
async function frontier(args: Args): Promise<{ hypotheses: string[]; rows_read: number }> {
  const { result, rows_read } = await callCounted("think_frontier", args);
  expect(result.isError).toBeFalsy();
  const answer = result.structuredContent as { frontier: { hypotheses: { id: string }[] } };
  return { hypotheses: ids(answer.frontier.hypotheses), rows_read };
}

/** graph_query by type: the ids of the first page, whether more remain, and the rows the call read. */
async function byType(args: Args): Promise<{ nodes: string[]; has_more: boolean; rows_read: number }> {
  const { result, rows_read } = await callCounted("graph_query", { ...args, include_edges: false });
  expect(result.isError).toBeFalsy();
  const answer = result.structuredContent as { nodes: { id: string }[]; pagination: { has_more: boolean } };
  return { nodes: ids(answer.nodes), has_more: answer.pagination.has_more, rows_read };
}

/**
 * One open hypothesis, then `closed` newer closed ones and `drafts` newer open ones in another agent's
 * lane. What alice's reads see does not depend on either count.
 */
async function seedOneOpen(workspace: string, closed: number, drafts: number): Promise<void> {
  await ok("graph_apply", {
    workspace,
    ops: [{ op: "node_upsert", id: "OPEN-1", type: "hypothesis", title: "the open one", status: "open" }],
  });
  if (closed > 0) await bulkNodes(workspace, "CLOSED-", closed, { type: "hypothesis", status: "done" });
  if (drafts > 0) await bulkNodes(workspace, "DRAFT-", drafts, { type: "hypothesis", status: "open", lane: "agent/bob" });
}

describe("the term index on adversarial layouts", () => {
  it("finds 1 open hypothesis under 100,000 closed ones with the work it does under 1,000", async () => {
    await seedOneOpen("layouts/closed-small", 1_000, 0);
    await seedOneOpen("layouts/closed-large", 100_000, 0);
    const small = await frontier({ workspace: "layouts/closed-small" });
    const large = await frontier({ workspace: "layouts/closed-large" });
    expect(small.hypotheses).toEqual(["OPEN-1"]);
    expect(large.hypotheses).toEqual(["OPEN-1"]);
    expect(large.rows_read).toBe(small.rows_read);
    expect(large.rows_read).toBeLessThan(1_000);
  }, 180_000);

  it("finds 1 shared open card under 100,000 drafts in another agent's lane with the work it does under 1,000", async () => {
    await seedOneOpen("layouts/drafts-small", 0, 1_000);
    await seedOneOpen("layouts/drafts-large", 0, 100_000);
    for (const read of [frontier, (args: Args) => byType({ ...args, types: "hypothesis" })]) {
      const small = await read({ workspace: "layouts/drafts-small" });
      const large = await read({ workspace: "layouts/drafts-large" });
      expect("hypotheses" in large ? large.hypotheses : large.nodes).toEqual(["OPEN-1"]);
      expect(large.rows_read).toBe(small.rows_read);
      expect(large.rows_read).toBeLessThan(1_000);
    }
    // Every lane: the drafts are there too, newest first, and the shared card is the last of them.
    const all = await byType({ workspace: "layouts/drafts-small", types: "hypothesis", all_lanes: true, limit: 5 });
    expect(all.nodes).toEqual(["DRAFT-999", "DRAFT-998", "DRAFT-997", "DRAFT-996", "DRAFT-995"]);
    expect(all.has_more).toBe(true);
  }, 180_000);

  it("reads a 32-deep chain whose base card is shadowed halfway up: one version of each card, the nearest", async () => {
    const workspace = "layouts/chain";
    const card = (id: string, title: string, status = "open") => ({ op: "node_upsert", id, type: "hypothesis", title, status });
    await ok("graph_apply", { workspace, ops: [card("X", "X on main"), card("Y", "Y on main"), card("Z", "Z on main")] });
    let from = "main";
    for (let level = 1; level <= 32; level++) {
      await ok("branch_create", { workspace, name: `c${level}`, from });
      from = `c${level}`;
      if (level === 16)
        await ok("graph_apply", { workspace, branch: "c16", ops: [card("X", "X rewritten on c16"), card("Z", "Z closed on c16", "done")] });
    }
    // After the chain was made, main moves on: the chain still sees main as of its fork.
    await ok("graph_apply", { workspace, ops: [card("Y", "Y later on main", "done"), card("W", "W later on main")] });

    const deep = await frontier({ workspace, branch: "c32" });
    expect(deep.hypotheses).toEqual(["X", "Y"]);
    const page = await ok("graph_query", { workspace, branch: "c32", types: "hypothesis", include_edges: false });
    expect(page.nodes.map((node: { id: string; title: string }) => [node.id, node.title])).toEqual([
      ["Z", "Z closed on c16"],
      ["X", "X rewritten on c16"],
      ["Y", "Y on main"],
    ]);
    expect((await frontier({ workspace, branch: "c8" })).hypotheses).toEqual(["Z", "Y", "X"]);
    expect((await frontier({ workspace })).hypotheses).toEqual(["W", "Z", "X"]);
    // 33 sources, each read through a handful of ranges: bounded by the chain, not by the graph.
    expect(deep.rows_read).toBeLessThan(20_000);
  }, 120_000);

  it("finds the one base hypothesis a branch left open after it closed 100,000 others", async () => {
    const workspace = "layouts/closer";
    await seedOneOpen(workspace, 0, 0);
    await bulkNodes(workspace, "H-", 100_000, { type: "hypothesis", status: "open" });
    await ok("branch_create", { workspace, name: "closer" });
    await bulkNodes(workspace, "H-", 100_000, { type: "hypothesis", status: "done" }, "closer");

    const onBranch = await frontier({ workspace, branch: "closer" });
    expect(onBranch.hypotheses).toEqual(["OPEN-1"]);
    // Exactness wins: the base's open hypotheses the branch closed are stepped over, each costing its
    // index entry, its version row and one shadowing seek (docs/storage.md), by each range that must
    // look past them: the frontier's open hypotheses, and the engine slice's open hypotheses and newest
    // cards.
    expect(onBranch.rows_read).toBeGreaterThan(3 * 100_000);
    expect(onBranch.rows_read).toBeLessThan(3 * 3 * 100_000 + 2_000);
    const onMain = await frontier({ workspace });
    expect(onMain.hypotheses).toHaveLength(5);
    expect(onMain.hypotheses[0]).toBe("H-99999");
  }, 300_000);
});
