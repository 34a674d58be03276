// Store-level tests of graph versions inside a real workspace object (graph commands through MCP are in
// test/graph.test.ts): superseding and heads kept by the insert trigger, and lookups across a chain.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { storeContext } from "../../../test/helpers/store-context";
import { createBranch, ensureMain, requireBranch, sourcesOf } from "../../place/branches.store";
import { Db } from "../../storage/db";
import { lookupVersion, writeVersion } from "./graph.store";
import { edgesBetween } from "./graph-edges.store";

describe("graph versions", () => {
  it("each version supersedes the branch's previous one and moves the head", async () => {
    await runInDurableObject(env.WORKSPACES.getByName("store/graph-heads"), (_instance, state) => {
      const ctx = storeContext(new Db(state.storage.sql, state.storage));
      ensureMain(ctx);
      const main = requireBranch(ctx.db, "main");
      const seqs = ["v1", "v2", "v3"].map(
        (title) => writeVersion(ctx, main, "graph", { kind: "node", key: "N", node_type: "t", title, deleted: false }).seq,
      );
      expect(ctx.db.all("SELECT seq, superseded_seq FROM graph_versions ORDER BY seq")).toEqual([
        { seq: seqs[0], superseded_seq: seqs[1] },
        { seq: seqs[1], superseded_seq: seqs[2] },
        { seq: seqs[2], superseded_seq: null },
      ]);
      expect(ctx.db.all("SELECT first_seq, head_seq FROM graph_heads")).toEqual([{ first_seq: seqs[0], head_seq: seqs[2] }]);
    });
  });

  it("looks a key up as the nearest source sees it", async () => {
    await runInDurableObject(env.WORKSPACES.getByName("store/graph-lookup"), (_instance, state) => {
      const ctx = storeContext(new Db(state.storage.sql, state.storage));
      ensureMain(ctx);
      const main = requireBranch(ctx.db, "main");
      writeVersion(ctx, main, "graph", { kind: "node", key: "N", node_type: "t", title: "before", deleted: false });
      const child = createBranch(ctx, "child", main);
      writeVersion(ctx, main, "graph", { kind: "node", key: "N", node_type: "t", title: "after", deleted: false });
      expect(lookupVersion(ctx.db, sourcesOf(ctx.db, child), "graph", "node", "N")?.title).toBe("before");
      writeVersion(ctx, child, "graph", { kind: "node", key: "N", node_type: "t", deleted: true });
      expect(lookupVersion(ctx.db, sourcesOf(ctx.db, child), "graph", "node", "N")?.deleted).toBe(1);
      expect(lookupVersion(ctx.db, sourcesOf(ctx.db, main), "graph", "node", "N")?.title).toBe("after");
    });
  });

  it("finds the edges between a set of nodes as the view sees them, whatever their ids' prefixes", async () => {
    await runInDurableObject(env.WORKSPACES.getByName("store/graph-edges-between"), (_instance, state) => {
      const ctx = storeContext(new Db(state.storage.sql, state.storage));
      ensureMain(ctx);
      const main = requireBranch(ctx.db, "main");
      const edge = (branch: typeof main, from: string, rel: string, to: string, meta: Record<string, unknown> | null, deleted = false) =>
        writeVersion(ctx, branch, "graph", { kind: "edge", key: `${from}|${rel}|${to}`, from_id: from, rel, to_id: to, meta, deleted });
      // Ids that share a prefix with "a" or sort right next to its key range ("a|" … "a}").
      for (const id of ["a", "ab", "a{", "a~", "b", "c"])
        writeVersion(ctx, main, "graph", { kind: "node", key: id, node_type: "t", deleted: false });
      edge(main, "a", "r", "b", { v: 1 });
      edge(main, "a", "r", "b", { v: 2 });
      edge(main, "ab", "r", "b", null);
      edge(main, "a{", "r", "b", null);
      edge(main, "a~", "r", "b", null);
      edge(main, "a", "r", "c", null);
      edge(main, "b", "s", "a", null);
      const child = createBranch(ctx, "child", main);
      edge(main, "b", "late", "a", null);
      edge(child, "a", "r", "b", { v: 3 });
      edge(child, "b", "s", "a", null, true);
      const keys = (rows: { key: string; meta_json: string | null }[]) => rows.map((row) => `${row.key} ${row.meta_json ?? ""}`);

      expect(keys(edgesBetween(ctx.db, sourcesOf(ctx.db, main), "graph", ["a", "b"], 10).rows)).toEqual([
        "b|late|a ",
        "b|s|a ",
        'a|r|b {"v":2}',
      ]);
      expect(keys(edgesBetween(ctx.db, sourcesOf(ctx.db, child), "graph", ["a", "b"], 10).rows)).toEqual(['a|r|b {"v":3}']);
      expect(keys(edgesBetween(ctx.db, sourcesOf(ctx.db, child), "graph", ["a", "b", "c", "ab"], 10).rows)).toEqual([
        'a|r|b {"v":3}',
        "a|r|c ",
        "ab|r|b ",
      ]);
      const limited = edgesBetween(ctx.db, sourcesOf(ctx.db, child), "graph", ["a", "b", "c", "ab"], 2);
      expect(limited.rows).toHaveLength(2);
      expect(limited.has_more).toBe(true);
    });
  });
});
