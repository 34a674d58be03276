// Store-level: writing the same card twice (in different input forms) adds no version and no trace
// entry. A changed card is refused by commitCard (what think commands call) and writes nothing; the
// legacy upsert writeCard (knowledge, anchor notes) still writes a new version and a trace entry. The
// MCP-level behaviour is in test/think.test.ts and test/think-card-idempotent.test.ts.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { storeContext } from "../../../test/helpers/store-context";
import { ensureMain, requireBranch } from "../../place/branches.store";
import { Db } from "../../storage/db";
import { cardTarget, commitCard, writeCard } from "./cards";
import { normalizeCard } from "./cards.parse";

describe("cards store", () => {
  it("is idempotent by card id and state", async () => {
    await runInDurableObject(env.WORKSPACES.getByName("store/cards"), (_instance, state) => {
      const ctx = storeContext(new Db(state.storage.sql, state.storage));
      ensureMain(ctx);
      const target = cardTarget(ctx, requireBranch(ctx.db, "main"), "trace", "graph");
      const counts = () => ({
        versions: ctx.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM graph_versions")?.n,
        entries: ctx.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM doc_entries")?.n,
      });
      const first = writeCard(target, {
        card: normalizeCard({ id: "C1", type: "test", title: "T", tags: ["A", "b"] }),
        supports: [],
        blocks: [],
      });
      expect(first).toMatchObject({ inserted: true, updated: false });
      expect(counts()).toEqual({ versions: 1, entries: 1 });
      const same = writeCard(target, { card: normalizeCard("id: C1\ntype: test\ntitle: T\ntags: B, a"), supports: [], blocks: [] });
      expect(same).toMatchObject({ inserted: false, updated: false });
      expect(counts()).toEqual({ versions: 1, entries: 1 });
      const change = { card: normalizeCard({ id: "C1", type: "test", title: "T2" }), supports: [], blocks: [] };
      expect(() => commitCard(target, change)).toThrow(/already exists with a different payload/);
      expect(counts()).toEqual({ versions: 1, entries: 1 });
      expect(commitCard(target, { ...change, onExisting: "revise" })).toMatchObject({ inserted: false, updated: true });
      expect(counts()).toEqual({ versions: 2, entries: 2 });
      const changed = writeCard(target, { ...change, card: { ...change.card, title: "T3" } });
      expect(changed).toMatchObject({ inserted: true, updated: true });
      expect(counts()).toEqual({ versions: 3, entries: 3 });
    });
  });
});
