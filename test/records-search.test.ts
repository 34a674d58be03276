// End-to-end: Record-Sync full-text search (FTS5) through the real MCP endpoint (toolset=full):
// awkward queries are text, never errors; ranking by an absolute relevance 0..1, ties by bm25; snippets; filters;
// the index follows every write; totals and limits.
import { describe, expect, it } from "vitest";
import { as, ok, type RpcOptions } from "./helpers/mcp";

type Args = Record<string, unknown>;

async function create(workspace: string, fields: Args, options: RpcOptions = {}) {
  return ok("create_record", { workspace, type: "note", summary: "", body: "", ...fields }, options);
}

function ids(answer: Record<string, any>): string[] {
  return (answer.results as { id: string }[]).map((result) => result.id);
}

describe("records: search", () => {
  it("treats hyphens, slashes, dots, quotes, operators, parentheses and column filters as text", async () => {
    const workspace = "records/search-awkward";
    const s = (await create(workspace, { parent_id: null, title: "Parser notes", body: "The foo-bar flag lives in a/b since v1.2." }))
      .session_id;
    await create(workspace, {
      session_id: s,
      parent_id: null,
      title: "Quoting",
      body: 'He said "quoted text" about col:term and NEAR misses.',
    });
    await create(workspace, { session_id: s, parent_id: null, title: "Unrelated", body: "Nothing to see." });
    const expected: [string, string[]][] = [
      ["foo-bar", ["R001"]],
      ["a/b", ["R001"]],
      ["v1.2", ["R001"]],
      ['"quoted', ["R002"]],
      ["col:term", ["R002"]],
      ["NEAR", ["R002"]],
      ["AND OR NOT NEAR *", []],
      ["(", []],
      ["*", []],
      ["title:parser", []],
      ['"', []],
      ["NEAR(foo bar)", []],
      ["foo AND", []],
      ["-foo", ["R001"]],
      ["^foo", ["R001"]],
      ["{a b}", ["R001"]],
      ["'; DROP TABLE records; --", []],
    ];
    for (const [query, want] of expected) {
      const answer = await ok("search_records", { workspace, query });
      expect(ids(answer), query).toEqual(want);
      expect(answer.total, query).toBe(want.length);
    }
    const dropped = await ok("search_records", { workspace, query: "( *" });
    expect(dropped).toMatchObject({
      results: [],
      total: 0,
      terms: [],
      warnings: [expect.objectContaining({ code: "SEARCH_TERMS_DROPPED" })],
    });
    // The table is still there.
    expect((await ok("list_records", { workspace })).records).toHaveLength(3);
  });

  it("ranks title matches above body matches, with an absolute relevance 0..1, snippets and totals", async () => {
    const workspace = "records/search-rank";
    const s = (await create(workspace, { parent_id: null, title: "Unrelated first", body: "cache mentioned once in passing" })).session_id;
    await create(workspace, {
      session_id: s,
      parent_id: null,
      title: "Cache eviction policy",
      summary: "How the cache evicts",
      body: "cache cache",
    });
    await create(workspace, { session_id: s, parent_id: null, title: "Cache warmup", body: "Preload the cache at boot" });
    await create(workspace, { session_id: s, parent_id: null, title: "Nothing", body: "no match here" });
    const answer = await ok("search_records", { workspace, query: "cache" });
    // Relevance is absolute now (it was relative to the best hit, which always scored 1, and bm25 alone
    // ordered): 0.8 × placement + 0.2 × title coverage. Both titles hold the word; "Cache warmup" is half
    // the word (0.9), "Cache eviction policy" a third (0.8667); R001 holds it in its body only (0.2).
    expect(ids(answer)).toEqual(["R003", "R002", "R001"]);
    expect(answer.total).toBe(3);
    const relevance = answer.results.map((result: { relevance: number }) => result.relevance);
    expect(relevance).toEqual([0.9, 0.8667, 0.2]);
    expect(answer.results[1]).toMatchObject({ id: "R002", title: "Cache eviction policy", state: "OPEN", children_count: 0 });
    expect(answer.results[1].snippet).toMatch(/\*\*cache\*\*/i);
    const limited = await ok("search_records", { workspace, query: "cache", limit: 1 });
    expect(limited).toMatchObject({ total: 3, results: [{ id: "R003", relevance: 0.9 }] });
    // Words are ANDed; a trailing * searches a prefix.
    expect(ids(await ok("search_records", { workspace, query: "cache warm" }))).toEqual([]);
    expect(ids(await ok("search_records", { workspace, query: "cache warm*" }))).toEqual(["R003"]);
    // The same call answers the same bytes.
    expect(await ok("search_records", { workspace, query: "cache" })).toEqual(answer);
  });

  it("filters by types, states and subtree", async () => {
    const workspace = "records/search-filters";
    const s = (await create(workspace, { parent_id: null, type: "question", title: "Root about storage" })).session_id;
    await create(workspace, { session_id: s, parent_id: "R001", type: "conclusion", title: "Storage answer" });
    await create(workspace, { session_id: s, parent_id: "R002", type: "note", title: "Storage detail", state: "LATER", reason: "later" });
    await create(workspace, { session_id: s, parent_id: null, type: "note", title: "Other storage" });
    expect(ids(await ok("search_records", { workspace, query: "storage" }))).toHaveLength(4);
    expect(ids(await ok("search_records", { workspace, query: "storage", types: ["note"] })).sort()).toEqual(["R003", "R004"]);
    expect(ids(await ok("search_records", { workspace, query: "storage", states: ["LATER"] }))).toEqual(["R003"]);
    expect(ids(await ok("search_records", { workspace, query: "storage", parent_id: "R001" })).sort()).toEqual(["R002", "R003"]);
    expect(ids(await ok("search_records", { workspace, query: "storage", parent_id: "R002", types: ["note"] }))).toEqual(["R003"]);
  });

  it("ranks the 500 newest matches and counts up to 1,000 when more match, and says so", async () => {
    const workspace = "records/search-ranked";
    const admin = await as("root", { role: "admin" });
    // The 10 oldest records hold the word in their title: ranked with the rest, they would come first.
    const ops = [
      ...Array.from({ length: 10 }, (_, i) => ({ op: "record", type: "old", title: `quasar ${i}` })),
      ...Array.from({ length: 1_000 }, (_, i) => ({ op: "record", type: "new", title: `entry ${i}`, body: `a quasar mention ${i}` })),
    ];
    await ok("workspace_import", { workspace, ops }, admin);
    const ranked = expect.objectContaining({ code: "SEARCH_RANKED_NEWEST" });
    const newest = Array.from({ length: 20 }, (_, i) => `R${511 + i}`);
    const answer = await ok("search_records", { workspace, query: "quasar" });
    expect(answer).toMatchObject({ total: 1_000, total_capped: true, ranked: 500, warnings: [ranked] });
    // Equal scores among the ranked (same body length, no title match): ties by record number.
    expect(ids(answer)).toEqual(newest);
    // The filtered form bounds its ranking and its count the same way.
    const both = await ok("search_records", { workspace, query: "quasar", types: ["old", "new"] });
    expect(both).toMatchObject({ total: 1_000, total_capped: true, ranked: 500, warnings: [ranked] });
    expect(ids(both)).toEqual(newest);
    // Exactly 1,000 matches: counted, not capped; still ranked in the window.
    const words = await ok("search_records", { workspace, query: "quasar mention", limit: 5 });
    expect(words).toMatchObject({ total: 1_000, total_capped: false, ranked: 500, warnings: [ranked] });
    // Narrowed to fewer matches, every match is ranked: the title matches come first, and nothing warns.
    const old = await ok("search_records", { workspace, query: "quasar", types: ["old"] });
    expect(old).toMatchObject({ total: 10, total_capped: false, ranked: 10 });
    expect(old.warnings).toBeUndefined();
    expect(ids(old).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `R${String(i + 1).padStart(3, "0")}`));
  });

  it("follows updates in the same transaction: old words stop matching, new ones match", async () => {
    const workspace = "records/search-sync";
    const s = (await create(workspace, { parent_id: null, title: "Alpha", body: "original wording" })).session_id;
    expect(ids(await ok("search_records", { workspace, query: "original" }))).toEqual(["R001"]);
    await ok("update_record", { workspace, session_id: s, id: "R001", body: "rewritten entirely" });
    expect(ids(await ok("search_records", { workspace, query: "original" }))).toEqual([]);
    expect(ids(await ok("search_records", { workspace, query: "rewritten" }))).toEqual(["R001"]);
    await ok("transition", { workspace, session_id: s, id: "R001", to_state: "LATER", reason: "parked" });
    expect(ids(await ok("search_records", { workspace, query: "alpha" }))).toEqual(["R001"]);
    expect((await ok("search_records", { workspace, query: "alpha" })).results[0].state).toBe("LATER");
  });
});
