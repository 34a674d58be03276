// A call reads the same rows once. Within one call (`Db.beginCall` … `endCall`, which the executor
// brackets every call with) a read statement asked again with the same parameters answers from the
// first reading, until the call writes or a transaction rolls back; and card pages a call read are
// answered again, or as a prefix for a smaller limit, from what it kept (card-view.ts). Both must
// answer exactly what a fresh read answers.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ANY, BLOCKERS, ofType } from "../src/capabilities/think/card-filters";
import { visibleCardPages } from "../src/capabilities/think/card-view";
import { findBranch, sourcesOf } from "../src/place/branches.store";
import { Db } from "../src/storage/db";
import { ok } from "./helpers/mcp";
import { storeContext } from "./helpers/store-context";

/** A handle over the object's SQLite that counts the statements SQLite is asked to run. */
function countingDb(state: DurableObjectState): { db: Db; executed: () => number } {
  let count = 0;
  const sql = state.storage.sql;
  const counting = {
    exec: (query: string, ...params: unknown[]) => {
      count++;
      return sql.exec(query, ...params);
    },
    get databaseSize() {
      return sql.databaseSize;
    },
  } as unknown as SqlStorage;
  return { db: new Db(counting, state.storage), executed: () => count };
}

describe("a call's reads", () => {
  it("ask SQLite once for a repeated statement, and again after a write or a rollback", async () => {
    const workspace = "reads/cache";
    await ok("notes_commit", { workspace, content: "first" });
    await runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
      const { db, executed } = countingDb(state);
      const count = "SELECT count(*) AS n FROM doc_entries WHERE doc = ?";
      // Outside a call nothing is kept.
      db.one(count, "notes");
      db.one(count, "notes");
      expect(executed()).toBe(2);

      db.beginCall();
      const first = db.one<{ n: number }>(count, "notes");
      expect(db.one<{ n: number }>(count, "notes")).toEqual(first);
      expect(executed()).toBe(3);
      // Other parameters are another statement.
      expect(db.one<{ n: number }>(count, "trace")?.n).toBe(0);
      expect(executed()).toBe(4);

      // A list handed out is the reader's own: sorting it changes no later answer.
      const list = "SELECT seq FROM doc_entries ORDER BY seq";
      db.run("INSERT INTO workspace_meta (key, value) VALUES ('reads-test', '1')");
      const seqs = db.all<{ seq: number }>(list);
      seqs.reverse();
      expect(db.all<{ seq: number }>(list)).toEqual([...seqs].reverse());

      // A write empties the cache: the next reading is fresh and sees it.
      const before = executed();
      db.run("DELETE FROM workspace_meta WHERE key = 'reads-test'");
      const meta = "SELECT count(*) AS n FROM workspace_meta WHERE key = 'reads-test'";
      expect(db.one<{ n: number }>(meta)?.n).toBe(0);
      expect(executed()).toBe(before + 2);

      // What a rolled-back transaction read is forgotten with it.
      expect(() =>
        db.transaction(() => {
          db.run("INSERT INTO workspace_meta (key, value) VALUES ('reads-test', '2')");
          expect(db.one<{ n: number }>(meta)?.n).toBe(1);
          throw new Error("roll back");
        }),
      ).toThrow("roll back");
      expect(db.one<{ n: number }>(meta)?.n).toBe(0);
      db.endCall();

      // After the call, every statement runs again.
      const after = executed();
      db.one(count, "notes");
      expect(executed()).toBe(after + 1);
    });
  });

  it("keep card pages: a page asked again or with a smaller limit is the prefix a fresh read answers", async () => {
    const workspace = "reads/cards";
    for (let i = 1; i <= 8; i++) {
      const type = i % 2 === 0 ? "evidence" : "hypothesis";
      await ok("think_card", { workspace, card: { type, id: `C${i}`, title: `Card ${i}`, ...(i === 3 ? { status: "blocked" } : {}) } });
    }
    await runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
      const { db, executed } = countingDb(state);
      const main = findBranch(db, "main");
      if (main === undefined) throw new Error("no main");
      const sources = sourcesOf(db, main);
      const ctx = storeContext(db, workspace);
      // The newest cards and the evidence, at two limits.
      const pages = (call: typeof ctx, newest: number, evidence: number) =>
        visibleCardPages(
          call,
          "graph",
          sources,
          [
            { filter: ANY, limit: newest },
            { filter: ofType("evidence"), limit: evidence },
          ],
          false,
        );
      const wide = pages(ctx, 6, 10);
      expect(wide[0]?.cards.map((card) => card.id)).toEqual(["C8", "C7", "C6", "C5", "C4", "C3"]);
      const read = executed();
      const narrow = pages(ctx, 3, 2);
      // Both answered from the call's pages: nothing asked of SQLite.
      expect(executed()).toBe(read);
      // The same pages, cursors included, as a call that read them with these limits first.
      const fresh = pages(storeContext(db, workspace), 3, 2);
      expect(narrow).toEqual(fresh);
      expect(narrow[0]?.next).toBeDefined();
      // A wider page than the call read is read again; so is a page of another filter.
      visibleCardPages(ctx, "graph", sources, [{ filter: ANY, limit: 8 }], false);
      expect(executed()).toBeGreaterThan(read);
      const more = executed();
      expect(visibleCardPages(ctx, "graph", sources, [{ filter: BLOCKERS, limit: 5 }], false)[0]?.cards.map((card) => card.id)).toEqual([
        "C3",
      ]);
      expect(executed()).toBeGreaterThan(more);
    });
  });
});
