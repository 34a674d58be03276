// The engine reads a scope's slice once per call: `status` and its portal capsule's "what waits" run the
// engine over the checkout's slice, and the second asks SQLite nothing more for it (engine.slice.ts,
// `CommandContext.memo`). A write in between makes the slice read again, and the answers stay those of
// a fresh read.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { writeVersion } from "../src/capabilities/graph/graph.store";
import { checkoutEngine } from "../src/capabilities/think/engine.slice";
import { findBranch } from "../src/place/branches.store";
import { Db } from "../src/storage/db";
import { ok } from "./helpers/mcp";
import { storeContext } from "./helpers/store-context";

describe("the engine's slice within one call", () => {
  it("is read once for the same scope, and again after a write", async () => {
    const workspace = "engine/memo";
    for (let i = 1; i <= 3; i++) await ok("think_card", { workspace, card: { type: "hypothesis", id: `H${i}`, title: `Idea ${i}` } });
    await runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
      const db = new Db(state.storage.sql, state.storage);
      const statements = vi.spyOn(db, "all");
      const ctx = storeContext(db, workspace);
      const first = checkoutEngine(ctx, { signals: 10, actions: 1 });
      const firstStatements = statements.mock.calls.length;
      const again = checkoutEngine(ctx);
      const againStatements = statements.mock.calls.length - firstStatements;
      // The first read the slice (cards, their rows, edges, trace); the second only found the checkout.
      expect(first?.signals.length).toBeGreaterThan(0);
      expect(againStatements).toBeLessThan(firstStatements);
      expect(firstStatements - againStatements).toBeGreaterThanOrEqual(3);
      expect(again?.signals).toEqual(first?.signals.slice(0, 3));
      // A fresh call (a new memo) answers the same.
      expect(checkoutEngine(storeContext(db, workspace))?.signals).toEqual(again?.signals);

      // A write in the same call: the slice is read again and sees it.
      const main = findBranch(db, "main");
      if (main === undefined) throw new Error("no main");
      writeVersion(ctx, main, "graph", { kind: "node", key: "H4", node_type: "hypothesis", title: "Idea 4", deleted: false });
      const before = statements.mock.calls.length;
      const after = checkoutEngine(ctx, { signals: 10, actions: 1 });
      expect(statements.mock.calls.length - before).toBeGreaterThanOrEqual(againStatements + 3);
      expect(JSON.stringify(after)).toContain("H4");
      expect(JSON.stringify(first)).not.toContain("H4");
    });
  });
});
