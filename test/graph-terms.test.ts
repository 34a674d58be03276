// The term index (migration 0017, src/capabilities/graph/graph-terms.store.ts), over the real MCP
// endpoint: what is open stays visible at any age, in every read that shows it, and the lists the
// migration writes into SQL are the code's.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CARD_TYPES, CLOSED_STATUSES } from "../src/capabilities/graph/card-shape";
import { backfillTermsBatch, termsPendingThrough } from "../src/capabilities/graph/graph-terms-backfill.store";
import { Db } from "../src/storage/db";
import { migrate } from "../src/storage/migrate";
import { WORKSPACE_MIGRATIONS } from "../src/storage/migrations";
import { exportPages, restore } from "./helpers/export-pages";
import { importGraphOps } from "./helpers/graph-import";
import { as, ok } from "./helpers/mcp";
import { undoMigrationsAfter16 } from "./helpers/schema-rollback";

type Args = Record<string, unknown>;
const ids = (cards: { id: string }[]) => cards.map((card) => card.id);

/** `count` nodes `<prefix><n>` (with `fields`) through workspace_import. */
async function importCards(workspace: string, prefix: string, count: number, fields: Args): Promise<void> {
  const ops = Array.from({ length: count }, (_, n) => ({ op: "node_upsert", id: `${prefix}${n}`, title: `${prefix} ${n}`, ...fields }));
  await importGraphOps(workspace, ops);
}

interface TermRow {
  holder: string;
  part: number;
  doc: string;
  term: string;
  seq: number;
}

/** Every row of the workspace's term index, in key order. */
async function termRows(workspace: string): Promise<TermRow[]> {
  return runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) =>
    new Db(state.storage.sql, state.storage).all<TermRow & Record<string, string | number>>(
      "SELECT holder, part, doc, term, seq FROM graph_terms ORDER BY holder, part, doc, term, seq",
    ),
  );
}

/**
 * Main's cards in both lanes with tags and statuses, a branch `b` forked from main and a branch `c`
 * forked from `b`; then main and `b` supersede and delete what their forks saw, and each branch writes
 * its own. Every kind of row the index holds: current versions, what a fork saw, lane terms.
 */
async function seedForks(workspace: string): Promise<void> {
  const card = (id: string, type: string, fields: Args = {}) => ({ op: "node_upsert", id, type, title: `${type} ${id}`, ...fields });
  const w = { workspace };
  const bob = await as("bob");
  await ok("graph_apply", {
    ...w,
    ops: [
      card("A", "hypothesis", { status: "open", tags: ["pinned"] }),
      card("B", "question", { status: "open" }),
      card("D", "widget", { status: "x", tags: ["ops"] }),
      card("E", "evidence", { tags: ["step:step-0000000a", "assumption"] }),
    ],
  });
  await ok("graph_apply", { ...w, ops: [card("C", "decision", { status: "blocked", meta: { lane: "agent/bob" } })] }, bob);
  await ok("branch_create", { ...w, name: "b" });
  await ok("graph_apply", { ...w, ops: [card("A", "hypothesis", { status: "done" }), { op: "node_delete", id: "B" }, card("F", "test")] });
  await ok("graph_apply", { ...w, branch: "b", ops: [card("C", "decision", { status: "done", meta: { lane: "agent/bob" } })] }, bob);
  await ok("graph_apply", { ...w, branch: "b", ops: [card("G", "note", { meta: { lane: "agent/alice" } })] });
  await ok("branch_create", { ...w, name: "c", from: "b" });
  await ok("graph_apply", {
    ...w,
    branch: "b",
    ops: [card("G", "note", { status: "closed", meta: { lane: "agent/alice" } }), card("E", "evidence", { tags: ["pinned"] })],
  });
  await ok("graph_apply", { ...w, branch: "c", ops: [card("H", "frame")] });
}

describe("the term index", () => {
  it("is built from the code's card types and closed statuses", () => {
    // The view of terms as 0017 made it and as 0019 (open cards by tag) makes it now.
    for (const name of ["graph_terms", "graph_terms_open_tags"]) {
      const sql = WORKSPACE_MIGRATIONS.find((migration) => migration.name === name)?.sql ?? "";
      const quoted = (values: readonly string[]) => `(${values.map((value) => `'${value}'`).join(", ")})`;
      expect(sql).toContain(`v.node_type IN ${quoted(CARD_TYPES)}`);
      expect(sql).toContain(`v.status NOT IN ${quoted(CLOSED_STATUSES)}`);
      // Every list in the file is one of the two.
      const lists = [...sql.matchAll(/IN (\('[^)]*'\))/g)].map((match) => match[1]);
      expect(new Set(lists)).toEqual(new Set([quoted(CARD_TYPES), quoted(CLOSED_STATUSES)]));
    }
  });

  it("keeps an old open hypothesis and question in view under 1,200 newer cards", async () => {
    const workspace = "terms/old-open";
    const hypothesis = await ok("think_card", { workspace, card: { type: "hypothesis", title: "Caching halves the latency" } });
    const question = await ok("think_card", { workspace, card: { type: "question", title: "Which cache?", status: "open" } });
    await importCards(workspace, "NOTE-", 1_200, { type: "note", status: "done" });
    // Other nodes than cards, open too: a card read by status steps over them, whatever their number.
    await importCards(workspace, "WIDGET-", 1_200, { type: "widget", status: "open" });

    const frontier = await ok("think_frontier", { workspace });
    expect(ids(frontier.frontier.hypotheses)).toEqual([hypothesis.card_id]);
    expect(ids(frontier.frontier.questions)).toEqual([question.card_id]);

    const next = await ok("think_next", { workspace });
    const named = JSON.stringify(next);
    expect(named).toContain(hypothesis.card_id);
    expect(named).not.toContain("Nothing open");

    const pack = await ok("context_pack", { workspace });
    expect(JSON.stringify(pack.engine)).toContain(hypothesis.card_id);

    const query = await ok("graph_query", { workspace, types: ["hypothesis"] });
    expect(ids(query.nodes)).toEqual([hypothesis.card_id]);
    expect(query.pagination.has_more).toBe(false);

    const byStatus = await ok("think_query", { workspace, status: ["open"] });
    expect(ids(byStatus.cards)).toEqual([question.card_id, hypothesis.card_id]);
    expect(byStatus.pagination.has_more).toBe(false);

    const status = await ok("status", { workspace });
    expect(JSON.stringify(status)).toContain(hypothesis.card_id);
  });

  it("is the same whether the writes kept it, the upgrade's backfill built it, or a restore rebuilt it", async () => {
    const workspace = "terms/rebuild";
    await seedForks(workspace);
    const kept = await termRows(workspace);
    // Every kind of row is there: both parts, both lane suffixes, several holders.
    expect(kept.some((row) => row.part === 1 && row.holder !== kept[0]?.holder)).toBe(true);
    expect(kept.some((row) => row.term === "o:decision@agent/bob")).toBe(true);
    expect(kept.some((row) => row.term === "cg:pinned~" || row.term === "card~")).toBe(true);
    expect(kept.some((row) => row.term === "ng:ops")).toBe(true);

    const admin = await as("root", { role: "admin" });
    await restore("terms/rebuild-copy", await exportPages(workspace, admin), admin);
    expect(await termRows("terms/rebuild-copy")).toEqual(kept);

    // The reads of every branch, as the index the writes kept answers them.
    const reads = async () =>
      Promise.all(
        ["main", "b", "c"].map(async (branch) => ({
          frontier: (await ok("think_frontier", { workspace, branch, all_lanes: true })).frontier,
          open: (await ok("graph_query", { workspace, branch, status: "open", include_edges: false })).nodes,
          pinned: (await ok("think_query", { workspace, branch, tags_any: ["pinned"] })).cards,
          pack: (await ok("context_pack", { workspace, ref: branch, notes_limit: 0, trace_limit: 0 })).cards,
        })),
      );
    const expected = await reads();

    // Back to schema 16 on the same rows, then the migrations again on the object's own handle (as its
    // constructor runs them): the index starts empty, with a mark of what is left to index.
    const stub = env.WORKSPACES.getByName(workspace);
    await runInDurableObject(stub, (instance) => {
      const db = (instance as unknown as { db: Db }).db;
      undoMigrationsAfter16(db);
      expect(migrate(db, WORKSPACE_MIGRATIONS, 0)).toEqual([17, 18, 19, 20, 21, 22]);
      expect(db.one("SELECT count(*) AS n FROM graph_terms")).toEqual({ n: 0 });
      expect(termsPendingThrough(db)).toBeGreaterThan(10);
    });
    // The reads do not depend on how far the backfill got: nothing, batch by batch of 4 versions, all.
    for (let batch = 0; ; batch++) {
      expect(await reads(), `after ${batch} batches`).toEqual(expected);
      const left = await runInDurableObject(stub, (instance, state) => {
        const db = new Db(state.storage.sql, state.storage);
        // The object's own handle remembers the mark: a batch lowers it there too.
        const own = (instance as unknown as { db: Db }).db;
        if (batch < 3) backfillTermsBatch(own, 4);
        return {
          own: termsPendingThrough(own),
          stored: Number(db.one<{ value: string }>("SELECT value FROM workspace_meta WHERE key = 'graph_terms_backfill'")?.value ?? 0),
        };
      });
      expect(left.own).toBe(left.stored);
      if (batch >= 3) break;
    }
    // The rest is the alarm's: it works a batch at a time and sets itself again until nothing is left.
    // Set a minute ahead so that it cannot fire on its own before the test runs it (an alarm due now
    // may start after runDurableObjectAlarm found none, and the rows would be read before its batch).
    await runInDurableObject(stub, (_instance, state) => state.storage.setAlarm(Date.now() + 60_000));
    for (let alarm = 0; alarm < 10 && (await runDurableObjectAlarm(stub)); alarm++);
    expect(await termRows(workspace)).toEqual(kept);
    expect(await reads()).toEqual(expected);
    await runInDurableObject(stub, (instance) => {
      expect(termsPendingThrough((instance as unknown as { db: Db }).db)).toBe(0);
    });
    // Deleting a branch takes its rows with it.
    await ok("branch_delete", { workspace, name: "c" });
    const afterDelete = await termRows(workspace);
    expect(afterDelete.length).toBeLessThan(kept.length);
    expect(afterDelete).toEqual(kept.filter((row) => afterDelete.some((left) => left.holder === row.holder)));
  });
});
