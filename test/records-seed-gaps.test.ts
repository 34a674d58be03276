// End-to-end: Record-Sync gaps against seed 004, through the real MCP endpoint (toolset=full):
// sync_session reports the status it found (stale past the threshold, not the status after syncing),
// and search relevance is absolute (from the record and the query alone), not relative to the best hit.
import { describe, expect, it } from "vitest";
import { as, ok, type RpcOptions } from "./helpers/mcp";

type Args = Record<string, unknown>;

async function create(workspace: string, fields: Args, options: RpcOptions = {}) {
  return ok("create_record", { workspace, type: "note", summary: "", body: "", ...fields }, options);
}

async function search(workspace: string, query: string, extra: Args = {}) {
  return ok("search_records", { workspace, query, ...extra });
}

/** Each result's id and relevance, in answer order. */
function scored(answer: Args): [string, number][] {
  return (answer.results as { id: string; relevance: number }[]).map((result) => [result.id, result.relevance]);
}

describe("records gaps: sync_session status", () => {
  it("says stale when the gap it found was past the threshold, though the sync brings the session back in sync", async () => {
    const workspace = "records-gaps/sync-stale";
    const watcher = (await create(workspace, { parent_id: null, title: "Watched", stale_after_ticks: 2 })).session_id;
    const bob = await as("bob");
    const writer = (await create(workspace, { parent_id: null, title: "Bob's" }, bob)).session_id;
    for (let i = 1; i <= 2; i++) await ok("update_record", { workspace, session_id: writer, id: "R002", body: `edit ${i}` }, bob);

    // 3 writes by another session, threshold 2: stale, and one call covers every change (no paging).
    const synced = await ok("sync_session", { workspace, session_id: watcher });
    expect(synced).toMatchObject({
      session_tick_before: 1,
      project_tick: 4,
      tick_gap: 3,
      has_more: false,
      last_sync_tick: 4,
      session_status: "stale",
    });
    expect(synced.changes).toHaveLength(3);
    expect(synced.warning).toContain("3 writes");
    // The sync itself brought it back in sync.
    const after = (await ok("get_active_sessions", { workspace })).sessions;
    expect(after).toContainEqual(expect.objectContaining({ session_id: watcher, status: "active", tick_gap: 0 }));

    // Nothing new: active, no warning.
    const again = await ok("sync_session", { workspace, session_id: watcher });
    expect(again).toMatchObject({ tick_gap: 0, session_status: "active", changes: [] });
    expect(again.warning).toBeUndefined();

    // A gap equal to the threshold is not past it.
    for (let i = 3; i <= 4; i++) await ok("update_record", { workspace, session_id: writer, id: "R002", body: `edit ${i}` }, bob);
    const atThreshold = await ok("sync_session", { workspace, session_id: watcher });
    expect(atThreshold).toMatchObject({ tick_gap: 2, session_status: "active", has_more: false });
    expect(atThreshold.warning).toBeUndefined();
  });

  it("says stale on the first page of a paged sync, and active once the rest is within the threshold", async () => {
    const workspace = "records-gaps/sync-paged";
    const watcher = (await create(workspace, { parent_id: null, title: "Watched", stale_after_ticks: 3 })).session_id;
    const bob = await as("bob");
    const writer = (await create(workspace, { parent_id: null, title: "Bob's" }, bob)).session_id;
    for (let i = 1; i <= 4; i++) await ok("update_record", { workspace, session_id: writer, id: "R002", body: `edit ${i}` }, bob);
    const page1 = await ok("sync_session", { workspace, session_id: watcher, limit: 2 });
    expect(page1).toMatchObject({ tick_gap: 5, has_more: true, last_sync_tick: 3, session_status: "stale" });
    const page2 = await ok("sync_session", { workspace, session_id: watcher, limit: 2 });
    expect(page2).toMatchObject({ session_tick_before: 3, tick_gap: 3, has_more: true, last_sync_tick: 5, session_status: "active" });
  });
});

describe("records gaps: absolute search relevance", () => {
  it("does not give a weak best hit 1, and a stronger match elsewhere leaves a hit's score unchanged", async () => {
    const workspace = "records-gaps/relevance-absolute";
    const s = (await create(workspace, { parent_id: null, title: "Harbour notes", body: "The lighthouse keeper logs every ship." }))
      .session_id;
    await create(workspace, { session_id: s, parent_id: null, title: "Unrelated", body: "Nothing about the coast." });
    const alone = await search(workspace, "lighthouse");
    // The only hit, in a body only: weak, whatever else matches or not.
    expect(scored(alone)).toEqual([["R001", 0.2]]);

    // An exact title match, and more records holding the word (which change bm25's word statistics).
    await create(workspace, { session_id: s, parent_id: null, title: "Lighthouse", body: "lighthouse lighthouse" });
    await create(workspace, { session_id: s, parent_id: null, title: "Lamps", summary: "The lighthouse lamp." });
    const crowded = await search(workspace, "lighthouse");
    expect(scored(crowded)).toEqual([
      ["R003", 1],
      ["R004", 0.4],
      ["R001", 0.2],
    ]);
    // Every word in the summary, none in the title: 0.4.
    expect(scored(await search(workspace, "lamp lighthouse"))).toEqual([["R004", 0.4]]);
    // The same query in another project with other records gives the same record the same score.
    const elsewhere = "records-gaps/relevance-elsewhere";
    await create(elsewhere, { parent_id: null, title: "Harbour notes", body: "The lighthouse keeper logs every ship." });
    expect(scored(await search(elsewhere, "lighthouse"))).toEqual([["R001", 0.2]]);
  });

  it("scores by where each word is found and how much of the title the query is", async () => {
    const workspace = "records-gaps/relevance-formula";
    const s = (await create(workspace, { parent_id: null, title: "Cache eviction policy", body: "LRU." })).session_id;
    await create(workspace, { session_id: s, parent_id: null, title: "Storage engine notes", body: "We keep the WAL small." });
    await create(workspace, { session_id: s, parent_id: null, title: "Café menu", summary: "What the café serves." });
    await create(workspace, { session_id: s, parent_id: null, title: "The foo-bar flag" });
    // Exact title match, in any order: 1.
    expect(scored(await search(workspace, "cache eviction policy"))).toEqual([["R001", 1]]);
    expect(scored(await search(workspace, "policy cache eviction"))).toEqual([["R001", 1]]);
    // One title word of three: 0.8 + 0.2 / 3.
    expect(scored(await search(workspace, "cache"))).toEqual([["R001", 0.8667]]);
    // One word in the title (1 of 3 words), one in the body: 0.8 × (1 + 0.25) / 2 + 0.2 / 3.
    expect(scored(await search(workspace, "storage wal"))).toEqual([["R002", 0.5667]]);
    // Diacritics and case are ignored, a prefix word covers the word it starts.
    expect(scored(await search(workspace, "CAFE"))).toEqual([["R003", 0.9]]);
    expect(scored(await search(workspace, "cafe men*"))).toEqual([["R003", 1]]);
    // A hyphenated word is a phrase: two of the title's four words.
    expect(scored(await search(workspace, "foo-bar"))).toEqual([["R004", 0.9]]);
    // A body-only word scores below an exact title match, in every search.
    expect(scored(await search(workspace, "lru"))).toEqual([["R001", 0.2]]);
    // One word in the title (1 of 2 words), one in the summary: 0.8 × (1 + 0.5) / 2 + 0.2 / 2.
    expect(scored(await search(workspace, "café serves"))).toEqual([["R003", 0.7]]);
    // Filters change which records match, never a score.
    expect(scored(await search(workspace, "cache eviction", { types: ["note"], states: ["OPEN"] }))).toEqual([["R001", 0.9333]]);
    expect(scored(await search(workspace, "storage wal", { types: ["question"] }))).toEqual([]);
  });

  it("orders by relevance first: a summary match ranks above a body full of the word", async () => {
    const workspace = "records-gaps/relevance-order";
    const s = (await create(workspace, { parent_id: null, title: "Log", body: Array.from({ length: 40 }, () => "beacon").join(" ") }))
      .session_id;
    await create(workspace, {
      session_id: s,
      parent_id: null,
      title: "Signals",
      summary: "One beacon among many words in a long summary.",
    });
    await create(workspace, { session_id: s, parent_id: null, title: "Beacon", body: "" });
    const answer = await search(workspace, "beacon");
    expect(scored(answer)).toEqual([
      ["R003", 1],
      ["R002", 0.4],
      ["R001", 0.2],
    ]);
    // A page is the head of the same order.
    expect(scored(await search(workspace, "beacon", { limit: 2 }))).toEqual(scored(answer).slice(0, 2));
    expect((answer.results as { snippet: string }[]).every((result) => /\*\*beacon\*\*/i.test(result.snippet))).toBe(true);
  });
});

describe("records gaps: the overview names the project as the Directory does", () => {
  it("get_project_overview returns the name and description get_project and list_projects return", async () => {
    const created = await ok("create_project", { id: "gaps/named", name: "Search speed", description: "Why search is slow, and the fix" });
    const overview = await ok("get_project_overview", { project_id: created.id });
    const project = await ok("get_project", { id: created.id });
    expect(overview.project).toMatchObject({ id: "gaps/named", name: "Search speed", description: "Why search is slow, and the fix" });
    expect(overview.project).toMatchObject({ name: project.name, description: project.description });
    const listed = (await ok("list_projects", { limit: 200 })).projects.find((item: { id: string }) => item.id === "gaps/named");
    expect(listed).toMatchObject({ name: "Search speed", description: "Why search is slow, and the fix" });
    // A workspace the Directory has no row for yet names itself by its id.
    const bare = await ok("get_project_overview", { workspace: "gaps/unregistered" });
    expect(bare.project).toMatchObject({ id: "gaps/unregistered", name: "gaps/unregistered", description: "" });
  });
});
