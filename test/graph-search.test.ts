// End-to-end: graph_query's (and think_query's) text search through the trigram index of node versions
// (migration 0014), over the real MCP endpoint (toolset=full). The answers must be those of the text
// filter's definition — a case-insensitive substring of id, title or text of the node as the branch sees
// it — which the ids path (each id resolved through the key index, no text index involved) computes on
// its own, so every index answer here is also checked against it.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_TEXT_CANDIDATES } from "../src/capabilities/graph/graph-text-search.store";
import { Db } from "../src/storage/db";
import { migrate } from "../src/storage/migrate";
import { WORKSPACE_MIGRATIONS } from "../src/storage/migrations";
import { importGraphOps } from "./helpers/graph-import";
import { as, ok, type RpcOptions } from "./helpers/mcp";
import { undoMigrationsAfter16 } from "./helpers/schema-rollback";

type Args = Record<string, unknown>;
interface QueriedNode {
  id: string;
  title?: string;
  text?: string;
  last_seq: number;
}

const node = (id: string, fields: Args = {}) => ({ op: "node_upsert", id, type: "hypothesis", ...fields });
const ids = (nodes: { id: string }[]) => nodes.map((n) => n.id);

/** Every node id written in the chain workspace (the ids path's oracle asks for all of them). */
const CHAIN_IDS = ["A", "B", "C", "D", "E", "F", "G", "P", "Q", "Y", "K", "L", "X", "Z"];
const CHAIN = "search/chain";
const level = (n: number) => `c${n}`;

/**
 * main: A-G, P, Q, Y written before the chain c1 … c10 (each branched from the one before);
 * K on c2, C rewritten on c3, D deleted on c5, L on c7, X on c7 after c8 branched off;
 * then, on main after the chain: E and F rewritten, Z new.
 */
async function seedChain(): Promise<void> {
  const w = { workspace: CHAIN };
  await ok("graph_apply", {
    ...w,
    ops: [
      node("A", { title: "The QUASAR report" }),
      node("B", { title: "word", text: "a subquasarish sound" }),
      node("C", { title: "quasar old" }),
      node("D", { title: "quasar doomed" }),
      node("E", { title: "plain" }),
      node("F", { title: "Quasar first" }),
      node("G", { title: "quasar v1" }),
      node("P", { title: "100% sure" }),
      node("Q", { title: 'say "quasar" out loud', type: "test" }),
      node("Y", { text: "a xylophone" }),
    ],
  });
  await ok("graph_apply", { ...w, ops: [node("G", { title: "v2, no match any more" })] });
  let from = "main";
  for (let n = 1; n <= 10; n++) {
    await ok("branch_create", { ...w, name: level(n), from });
    from = level(n);
    if (n === 2) await ok("graph_apply", { ...w, branch: level(2), ops: [node("K", { title: "Quasar on c2" })] });
    if (n === 3) await ok("graph_apply", { ...w, branch: level(3), ops: [node("C", { title: "nothing here" })] });
    if (n === 5) await ok("graph_apply", { ...w, branch: level(5), ops: [{ op: "node_delete", id: "D" }] });
    if (n === 7) await ok("graph_apply", { ...w, branch: level(7), ops: [node("L", { text: "QuAsAr deep" })] });
    if (n === 8) await ok("graph_apply", { ...w, branch: level(7), ops: [node("X", { title: "quasar after c8 forked" })] });
  }
  await ok("graph_apply", {
    ...w,
    ops: [node("E", { title: "quasar later" }), node("F", { title: "unrelated" }), node("Z", { text: "quasar main late" })],
  });
}

/** `count` nodes `<prefix>0` … titled "widget …" on `branch`, through workspace_import (5,000 graph ops per call). */
async function importWidgets(workspace: string, branch: string, prefix: string, count: number, admin: RpcOptions): Promise<void> {
  const ops = Array.from({ length: count }, (_, n) => node(`${prefix}${n}`, { title: `widget ${n}` }));
  await importGraphOps(workspace, ops, { branch, admin });
}

let seeded: Promise<void> | undefined;
/** The chain workspace, seeded once for the tests of this file that read it. */
function chain(): Promise<void> {
  seeded ??= seedChain();
  return seeded;
}

/** A text search, and the same filter answered by the ids path (no text index): they must agree. */
async function search(branch: string, text: string, extra: Args = {}): Promise<QueriedNode[]> {
  const args = { workspace: CHAIN, branch, text, include_edges: false, ...extra };
  const found = await ok("graph_query", args);
  const oracle = await ok("graph_query", { ...args, ids: CHAIN_IDS });
  expect(found.nodes, `${branch} ${text}`).toEqual(oracle.nodes);
  expect(found.pagination.has_more).toBe(false);
  return found.nodes;
}

describe("graph_query text search through the index", () => {
  it("finds exactly the effective matches along a 10-deep chain with cutoffs, updates and deletes", async () => {
    await chain();
    // c10: L (c7), K (c2), then main's as of the chain's start: F's old title matches; C (rewritten on c3),
    // D (deleted on c5), E (matches only after the cutoff), G (only its old version matched) do not.
    expect(ids(await search(level(10), "quasar"))).toEqual(["L", "K", "Q", "F", "B", "A"]);
    // c7 also sees X, written there after c8 branched off; c1 sees main's snapshot only.
    expect(ids(await search(level(7), "quasar"))).toEqual(["X", "L", "K", "Q", "F", "B", "A"]);
    expect(ids(await search(level(1), "quasar"))).toEqual(["Q", "F", "D", "C", "B", "A"]);
    // main: the later writes count, the branches' do not.
    expect(ids(await search("main", "quasar"))).toEqual(["Z", "E", "Q", "D", "C", "B", "A"]);
    const onMain = await search("main", "quasar");
    expect(onMain.find((n) => n.id === "E")?.title).toBe("quasar later");
    expect((await search(level(10), "quasar")).find((n) => n.id === "F")?.title).toBe("Quasar first");
  });

  it("is case-insensitive, matches inside words, and treats quotes and % as text", async () => {
    await chain();
    expect(ids(await search(level(10), "QUASAR"))).toEqual(["L", "K", "Q", "F", "B", "A"]);
    expect(ids(await search(level(10), "qUaSaR dE"))).toEqual(["L"]);
    expect(ids(await search(level(10), "bquasari"))).toEqual(["B"]);
    expect(ids(await search(level(10), "the quasar rep"))).toEqual(["A"]);
    expect(ids(await search(level(10), '"quasar"'))).toEqual(["Q"]);
    expect(ids(await search(level(10), "0% s"))).toEqual(["P"]);
    expect(ids(await search(level(10), "uasar on c"))).toEqual(["K"]);
    // Other filters apply with the text.
    expect(ids(await search(level(10), "quasar", { types: "test" }))).toEqual(["Q"]);
    // No match at all, and a match only in a version no view shows as effective.
    expect(await search(level(10), "quasars")).toEqual([]);
    expect(await search("main", "quasar v1")).toEqual([]);
  });

  it("answers texts of 1-2 characters by the scan, with the same meaning", async () => {
    await chain();
    expect(ids(await search(level(10), "XY"))).toEqual(["Y"]);
    expect(ids(await search(level(10), "%"))).toEqual(["P"]);
    expect(ids(await search(level(10), "k"))).toEqual(["K"]);
  });

  it("pages with a small limit, newest first, and gives the same answer twice", async () => {
    await chain();
    const w = { workspace: CHAIN, branch: level(10), text: "quasar", include_edges: false };
    const seen: string[] = [];
    let cursor: number | undefined;
    const pages: { nodes: QueriedNode[]; pagination: { has_more: boolean; next_cursor?: number } }[] = [];
    do {
      const page = await ok<(typeof pages)[number]>("graph_query", { ...w, limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      pages.push(page);
      seen.push(...ids(page.nodes));
      cursor = page.pagination.has_more ? page.pagination.next_cursor : undefined;
    } while (cursor !== undefined && pages.length < 10);
    expect(seen).toEqual(["L", "K", "Q", "F", "B", "A"]);
    expect(pages.map((page) => page.nodes.length)).toEqual([2, 2, 2]);
    const [first, second] = pages;
    expect(first?.pagination.next_cursor).toBe(first?.nodes[1]?.last_seq);
    // Byte-identical answers for the same call on the same store.
    const again = await ok("graph_query", { ...w, limit: 2, cursor: first?.pagination.next_cursor });
    expect(again).toEqual(second);
  });
});

describe("graph_query text search at scale", () => {
  it("finds every one of 10 hits among 4,000 nodes in one call, on main and on a branch", async () => {
    const workspace = "search/thousands";
    const admin = await as("root", { role: "admin" });
    const hits = new Set([17, 400, 1234, 1999, 2000, 2500, 3001, 3333, 3900, 3999]);
    const ops = Array.from({ length: 4_000 }, (_, i) =>
      node(`n${i}`, { title: `node ${i}`, text: hits.has(i) ? `a rare Zephyr sighting ${i}` : `ordinary text ${i % 97}` }),
    );
    for (let start = 0; start < ops.length; start += 2_000) {
      const items = [];
      for (let at = start; at < start + 2_000; at += 500) items.push({ op: "graph", ops: ops.slice(at, at + 500) });
      await ok("workspace_import", { workspace, ops: items }, admin);
    }
    await ok("branch_create", { workspace, name: "b" });
    const expected = [...hits].sort((a, b) => b - a).map((i) => `n${i}`);
    for (const branch of ["main", "b"]) {
      const found = await ok("graph_query", { workspace, branch, text: "zephyr", limit: 50 });
      expect(ids(found.nodes)).toEqual(expected);
      expect(found.pagination.has_more).toBe(false);
    }
    // The cards view of the same doc: these nodes are hypotheses, so think_query finds them too.
    const cards = await ok("think_query", { workspace, text: "ZEPHYR sighting", limit: 50 });
    expect(cards.cards.map((card: { id: string }) => card.id)).toEqual(expected);
    expect(cards.pagination.has_more).toBe(false);
  });

  it("examines at most MAX_TEXT_CANDIDATES matching versions per call, and says where to go on", async () => {
    const workspace = "search/bounded";
    const admin = await as("root", { role: "admin" });
    // On main: the match, then 1,200 newer versions that do not match (more than the scan examines per call).
    await ok("graph_apply", { workspace, ops: [node("OLD", { title: "widget on main" })] });
    for (let start = 0; start < 1_200; start += 400) {
      await ok("graph_apply", { workspace, ops: Array.from({ length: 400 }, (_, k) => node(`f${start + k}`, { title: "filler" })) });
    }
    await ok("branch_create", { workspace, name: "other" });
    // More matching versions than one call examines, all newer than OLD and invisible from main.
    const total = MAX_TEXT_CANDIDATES + 100;
    await importWidgets(workspace, "other", "w", total, admin);
    // Neither the index (its newest candidates are other's) nor the scan (main's newest 1,000) reaches OLD.
    const first = await ok("graph_query", { workspace, text: "widget", include_edges: false });
    expect(first.nodes).toEqual([]);
    expect(first.pagination.has_more).toBe(true);
    const second = await ok("graph_query", { workspace, text: "widget", include_edges: false, cursor: first.pagination.next_cursor });
    expect(ids(second.nodes)).toEqual(["OLD"]);
    expect(second.pagination.has_more).toBe(false);
    // On the branch, a full page comes first.
    const onOther = await ok("graph_query", { workspace, branch: "other", text: "widget", limit: 3, include_edges: false });
    expect(ids(onOther.nodes)).toEqual([`w${total - 1}`, `w${total - 2}`, `w${total - 3}`]);
    expect(onOther.pagination).toMatchObject({ has_more: true, next_cursor: onOther.nodes[2].last_seq });
  });

  it("fills a page of a common text from the view's own nodes when newer matches elsewhere exhaust the index's bound", async () => {
    const workspace = "search/common";
    const admin = await as("root", { role: "admin" });
    await importWidgets(workspace, "main", "m", 120, admin);
    await ok("branch_create", { workspace, name: "busy" });
    await importWidgets(workspace, "busy", "b", MAX_TEXT_CANDIDATES + 100, admin);
    const seen: string[] = [];
    let cursor: number | undefined;
    let calls = 0;
    do {
      const page = await ok("graph_query", { workspace, text: "WIDGET", limit: 50, include_edges: false, ...(cursor ? { cursor } : {}) });
      if (calls === 0) expect(page.nodes).toHaveLength(50);
      seen.push(...ids(page.nodes));
      cursor = page.pagination.has_more ? page.pagination.next_cursor : undefined;
      calls++;
    } while (cursor !== undefined && calls < 10);
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `m${119 - i}`));
    expect(calls).toBe(3);
  });
});

describe("think_query text search", () => {
  it("keeps lanes: another agent's draft is found only with all_lanes", async () => {
    const workspace = "search/cards";
    const alice = await as("alice");
    const bob = await as("bob");
    await ok("think_add_hypothesis", { workspace, id: "SHARED", title: "Nebula shared" }, alice);
    await ok("think_add_hypothesis", { workspace, id: "DRAFT", title: "nebula draft", lane: "agent" }, bob);
    await ok("graph_apply", { workspace, ops: [{ op: "node_upsert", id: "NOTCARD", type: "widget", title: "nebula, not a card" }] }, alice);
    const mine = await ok("think_query", { workspace, text: "NEBULA" }, alice);
    expect(mine.cards.map((card: { id: string }) => card.id)).toEqual(["SHARED"]);
    const bobs = await ok("think_query", { workspace, text: "nebula" }, bob);
    expect(bobs.cards.map((card: { id: string }) => card.id)).toEqual(["DRAFT", "SHARED"]);
    const all = await ok("think_query", { workspace, text: "nebula", all_lanes: true }, alice);
    expect(all.cards.map((card: { id: string }) => card.id)).toEqual(["DRAFT", "SHARED"]);
    // The graph view keeps lanes too (drafts are lane-scoped): every lane only when asked for.
    expect(ids((await ok("graph_query", { workspace, text: "nebula" }, alice)).nodes)).toEqual(["NOTCARD", "SHARED"]);
    expect(ids((await ok("graph_query", { workspace, text: "nebula", all_lanes: true }, alice)).nodes)).toEqual([
      "NOTCARD",
      "DRAFT",
      "SHARED",
    ]);
  });
});

describe("the index itself", () => {
  it("migration 0014 indexes the live node versions written before it", async () => {
    const stub = env.WORKSPACES.getByName("search/migration");
    await runInDurableObject(stub, (_instance, state) => {
      const db = new Db(state.storage.sql, state.storage);
      const matches = (phrase: string) =>
        db
          .all<{ seq: number }>("SELECT rowid AS seq FROM graph_node_text WHERE graph_node_text MATCH ? ORDER BY rowid", phrase)
          .map((row) => row.seq);
      // Back to schema 13 (the object applied every migration when it started), then versions written there.
      for (const trigger of ["graph_node_text_insert", "graph_node_text_delete", "graph_node_text_fixed", "journal_moves_clocks"])
        db.run(`DROP TRIGGER ${trigger}`);
      db.run("DROP TABLE graph_node_text");
      undoMigrationsAfter16(db);
      db.run("DELETE FROM _migrations WHERE id >= 14");
      db.run(
        "INSERT INTO branches (id, name, base_id, base_seq, depth, created_seq, created_at_ms, created_by) VALUES ('BR-0001', 'main', NULL, NULL, 0, 0, 0, 'a')",
      );
      const version = (seq: number, kind: string, key: string, title: string, deleted: number) =>
        db.run(
          "INSERT INTO graph_versions (seq, branch_id, doc, kind, key, title, deleted, ts_ms, agent_id) VALUES (?, 'BR-0001', 'graph', ?, ?, ?, ?, 0, 'a')",
          seq,
          kind,
          key,
          title,
          deleted,
        );
      version(1, "node", "N1", "Pulsar one", 0);
      version(2, "node", "N2", "pulsar gone", 1);
      version(3, "edge", "N1|r|N1", "pulsar edge", 0);
      version(4, "node", "N3", "two PULSARS", 0);
      expect(migrate(db, WORKSPACE_MIGRATIONS, 0)).toEqual([14, 15, 16, 17, 18, 19, 20, 21, 22]);
      expect(matches('"pulsar"')).toEqual([1, 4]);
      // New versions are indexed as they are written, tombstones and edges are not.
      version(5, "node", "N4", "late pulsar", 0);
      version(6, "node", "N1", null as unknown as string, 1);
      expect(matches('"pulsar"')).toEqual([1, 4, 5]);
      // A deleted version leaves the index; the index stays consistent.
      db.run("DELETE FROM graph_versions WHERE seq = 4");
      expect(matches('"pulsar"')).toEqual([1, 5]);
      db.run("INSERT INTO graph_node_text (graph_node_text, rank) VALUES ('integrity-check', 0)");
      // The indexed values never change.
      expect(() => db.run("UPDATE graph_versions SET title = 'x' WHERE seq = 1")).toThrow();
    });
  });

  it("branch_delete removes the branch's versions from the index", async () => {
    const workspace = "search/branch-delete";
    await ok("graph_apply", { workspace, ops: [node("M", { title: "magnetar on main" })] });
    await ok("branch_create", { workspace, name: "gone" });
    await ok("graph_apply", {
      workspace,
      branch: "gone",
      ops: [node("G1", { title: "magnetar on a doomed branch" }), node("M", { title: "magnetar again" })],
    });
    expect(ids((await ok("graph_query", { workspace, branch: "gone", text: "magnetar" })).nodes)).toEqual(["M", "G1"]);
    await ok("branch_delete", { workspace, name: "gone" });
    await runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
      const db = new Db(state.storage.sql, state.storage);
      const indexed = db.all("SELECT rowid AS seq FROM graph_node_text WHERE graph_node_text MATCH '\"magnetar\"'");
      expect(indexed).toEqual([{ seq: 1 }]);
      db.run("INSERT INTO graph_node_text (graph_node_text, rank) VALUES ('integrity-check', 0)");
    });
    expect(ids((await ok("graph_query", { workspace, text: "magnetar" })).nodes)).toEqual(["M"]);
  });
});
