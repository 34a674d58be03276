// Store-level tests of graph versions inside a real workspace object (graph commands through MCP are in
// test/graph.test.ts): superseding and heads kept by the insert trigger, and lookups across a chain.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { storeContext } from "../../../test/helpers/store-context";
import { Db } from "../../workspace/db";
import { createBranch, ensureMain, requireBranch, sourcesOf } from "../branches/branches.store";
import { lookupVersion, writeVersion } from "./graph.store";

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
});
