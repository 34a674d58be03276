// End-to-end: knowledge cards through the real MCP endpoint (toolset=full): versioning under
// (anchor, key), recall order and drafts, key slugs with suggestions, lint findings (Expiry against an
// explicit or recorded date), note promotion, and the reserved kb/ branches.
import { describe, expect, it } from "vitest";
import { as, failure, ok } from "./helpers/mcp";

const CARD = ["Claim: SQLite runs in WAL mode", "Scope: storage", "Apply: keep readers off the writer", "Expiry: 2999-01-01"].join("\n");
const keys = (cards: { key: string }[]) => cards.map((card) => card.key);
const tickOf = async (workspace: string) => (await ok("status", { workspace })).tick as number;

describe("knowledge: versions", () => {
  it("writes a new card per edit, resolves (anchor, key) to the newest, keeps history, and repeats write nothing", async () => {
    const workspace = "knowledge/versions";
    const first = await ok("knowledge_upsert", { workspace, anchor: "a:storage", key: "wal-mode", card: CARD });
    expect(first).toMatchObject({
      branch: "kb/main",
      graph_doc: "kb-graph",
      trace_doc: "kb-trace",
      anchor: "a:storage",
      key: "wal-mode",
      key_tag: "k:wal-mode",
      key_mode: "explicit",
      version: 1,
      created: true,
      changed: true,
      lane: "shared",
      visibility: "canon",
      expiry: "2999-01-01",
    });
    expect(first.card_id).toMatch(/^CARD-KN-[0-9a-f]{16}$/);
    expect(first.previous_card_id).toBeUndefined();

    // The same card again (through the seed-002 alias name): nothing is written, the tick stays.
    const tick = await tickOf(workspace);
    const repeat = await ok("knowledge.upsert", { workspace, anchor: "storage", key: "wal-mode", card: CARD });
    expect(repeat).toMatchObject({ card_id: first.card_id, version: 1, created: false, changed: false });
    expect(await tickOf(workspace)).toBe(tick);
    // Only whitespace changed: the same claim, so the same card (and version), rewritten.
    const spaced = await ok("knowledge_upsert", {
      workspace,
      anchor: "a:storage",
      key: "wal-mode",
      card: CARD.replace("WAL mode", "WAL  mode"),
    });
    expect(spaced).toMatchObject({ card_id: first.card_id, version: 1, created: false, changed: true });
    await ok("knowledge_upsert", { workspace, anchor: "a:storage", key: "wal-mode", card: CARD });

    const edited = await ok("knowledge_upsert", {
      workspace,
      anchor: "a:storage",
      key: "wal-mode",
      card: CARD.replace("Scope: storage", "Scope: storage and backups"),
    });
    expect(edited).toMatchObject({ version: 2, created: true, previous_card_id: first.card_id });
    expect(edited.card_id).not.toBe(first.card_id);

    const query = await ok("knowledge_query", { workspace, anchor: "a:storage", key: "wal-mode", include_history: true });
    expect(query.cards).toHaveLength(1);
    expect(query.cards[0]).toMatchObject({
      id: edited.card_id,
      type: "knowledge",
      title: "SQLite runs in WAL mode",
      version: 2,
      anchor: "a:storage",
    });
    expect(query.cards[0].tags).toEqual(["a:storage", "k:wal-mode", "v:canon"]);
    expect(query.cards[0].history.map((entry: { card_id: string; version: number }) => [entry.version, entry.card_id])).toEqual([
      [2, edited.card_id],
      [1, first.card_id],
    ]);

    // The replaced card stays in kb-graph, marked superseded.
    const old = await ok("graph_query", { workspace, branch: "kb/main", doc: "kb-graph", ids: [first.card_id] });
    expect(old.nodes[0]).toMatchObject({ id: first.card_id, status: "superseded" });

    // Going back to the first text is a new version that reuses its content-addressed id.
    const back = await ok("knowledge_upsert", { workspace, anchor: "a:storage", key: "wal-mode", card: CARD });
    expect(back).toMatchObject({ card_id: first.card_id, version: 3, created: true, previous_card_id: edited.card_id });
    const recall = await ok("knowledge_recall", { workspace, anchor: "a:storage" });
    expect(recall.cards.map((card: { id: string; status: string }) => [card.id, card.status])).toEqual([[first.card_id, "open"]]);
  });

  it("refuses ids, other types and server tags in the card; a card object works too", async () => {
    const workspace = "knowledge/card-forms";
    const object = await ok("knowledge_upsert", {
      workspace,
      anchor: "a:api",
      key: "rate-limit",
      card: { title: "100 requests per minute", text: "Scope: public API", tags: ["limits"], meta: { owner: "api" } },
    });
    const query = await ok("knowledge_query", { workspace, anchor: "a:api" });
    expect(query.cards[0]).toMatchObject({ id: object.card_id, title: "100 requests per minute", meta: { owner: "api" } });
    expect(query.cards[0].tags).toEqual(["a:api", "k:rate-limit", "limits", "v:canon"]);
    for (const card of [
      { id: "X", title: "t" },
      { type: "decision", title: "t" },
      { title: "t", tags: ["a:other"] },
    ]) {
      expect((await failure("knowledge_upsert", { workspace, anchor: "a:api", key: "k", card })).code).toBe("INVALID_INPUT");
    }
  });
});

describe("knowledge: recall", () => {
  it("recalls canon cards newest first, one per key, drafts only when asked", async () => {
    const workspace = "knowledge/recall";
    const bob = await as("bob");
    expect(await ok("knowledge_recall", { workspace, anchor: "a:db" })).toMatchObject({ branch: "kb/main", cards: [], has_more: false });

    await ok("knowledge_upsert", { workspace, anchor: "a:db", key: "pool-size", card: "Claim: pool of 10" });
    await ok("knowledge_upsert", { workspace, anchor: "a:db", key: "timeouts", card: "Claim: 5 s timeouts" });
    await ok("knowledge_upsert", { workspace, anchor: "a:api", key: "auth", card: "Claim: bearer tokens" });
    await ok("knowledge_upsert", { workspace, anchor: "a:db", key: "pool-size", card: "Claim: pool of 20" });
    const draft = await ok(
      "knowledge_upsert",
      { workspace, anchor: "a:db", key: "vacuum", card: "Claim: vacuum nightly", visibility: "draft" },
      bob,
    );
    expect(draft).toMatchObject({ lane: "agent/bob", visibility: "draft" });

    const recall = await ok("knowledge_recall", { workspace, anchor: "a:db" });
    expect(keys(recall.cards)).toEqual(["pool-size", "timeouts"]);
    expect(recall.cards[0]).toMatchObject({ title: "pool of 20", version: 2, lane: "shared" });
    expect(recall.anchors).toEqual(["a:db"]);

    expect(keys((await ok("knowledge_recall", { workspace, anchor: "a:db", include_drafts: true })).cards)).toEqual([
      "vacuum",
      "pool-size",
      "timeouts",
    ]);
    // Bob's own draft is still a draft: recall shows canon only unless asked.
    expect(keys((await ok("knowledge_recall", { workspace, anchor: "a:db" }, bob)).cards)).toEqual(["pool-size", "timeouts"]);
    expect(keys((await ok("knowledge_recall", { workspace })).cards)).toEqual(["pool-size", "auth", "timeouts"]);
    expect(keys((await ok("knowledge_recall", { workspace, anchors: ["a:api", "a:db"] })).cards)).toEqual([
      "pool-size",
      "auth",
      "timeouts",
    ]);
    const limited = await ok("knowledge_recall", { workspace, limit: 1 });
    expect(keys(limited.cards)).toEqual(["pool-size"]);
    expect(limited.has_more).toBe(true);

    // Query shows the lanes you may see (shared + yours), every lane with include_drafts.
    expect(keys((await ok("knowledge_query", { workspace, anchor: "a:db" }, bob)).cards)).toEqual(["vacuum", "pool-size", "timeouts"]);
    expect(keys((await ok("knowledge_query", { workspace, anchor: "a:db" })).cards)).toEqual(["pool-size", "timeouts"]);
    const page = await ok("knowledge_query", { workspace, limit: 2, include_drafts: true });
    expect(keys(page.cards)).toEqual(["vacuum", "pool-size"]);
    const next = await ok("knowledge_query", { workspace, limit: 2, include_drafts: true, cursor: page.pagination.next_cursor });
    expect(keys(next.cards)).toEqual(["auth", "timeouts"]);
    expect(next.pagination.has_more).toBe(false);
  });
});

describe("knowledge: keys", () => {
  it("refuses a bad key with a suggested slug and a key.suggest call; auto keys come from the claim", async () => {
    const workspace = "knowledge/keys";
    const bad = await failure("knowledge_upsert", { workspace, anchor: "a:cache", key: "Cache TTL", card: "Claim: TTL is 5 minutes" });
    expect(bad).toMatchObject({ code: "INVALID_INPUT", details: { field: "key", suggestion: "cache-ttl" } });
    expect(bad.actions?.[0]).toMatchObject({ tool: "knowledge_key_suggest" });
    const missing = await failure("knowledge_upsert", { workspace, anchor: "a:cache", card: "Claim: TTL is 5 minutes" });
    expect(missing).toMatchObject({ code: "INVALID_INPUT", details: { field: "key", suggestion: "ttl-is-5-minutes" } });
    const badAnchor = await failure("knowledge_upsert", { workspace, anchor: "a:Cache Layer", key: "ttl", card: "x" });
    expect(badAnchor).toMatchObject({ code: "INVALID_INPUT", details: { field: "anchor", suggestion: "a:cache-layer" } });

    const auto = await ok("knowledge_upsert", {
      workspace,
      anchor: "a:cache",
      key_mode: "auto",
      card: "Claim: TTL is 5 minutes\nScope: prod",
    });
    expect(auto).toMatchObject({ key: "ttl-is-5-minutes", key_mode: "auto", version: 1 });
    await ok("knowledge_upsert", { workspace, anchor: "a:cdn", key: "ttl-is-5-minutes", card: "Claim: CDN TTL" });

    const suggested = await ok("knowledge_key_suggest", {
      workspace,
      text: "Claim: TTL is 5 minutes in prod\nScope: x",
      anchor: "a:cache",
    });
    expect(suggested).toMatchObject({ suggested_key: "ttl-is-5-minutes-in-prod", key_tag: "k:ttl-is-5-minutes-in-prod", collisions: [] });
    const taken = await ok("knowledge.key.suggest", { workspace, text: "TTL is 5 minutes", anchor: "a:cache" });
    expect(taken.suggested_key).toBe("ttl-is-5-minutes");
    expect(taken.collisions.map((row: { anchor: string }) => row.anchor)).toEqual(["a:cdn", "a:cache"]);
    expect(taken.existing).toMatchObject({ card_id: auto.card_id, version: 1 });
  });
});

describe("knowledge: lint", () => {
  it("reports duplicates, overloaded keys and Expiry (missing, invalid, past as_of), deterministically", async () => {
    const workspace = "knowledge/lint";
    const put = (anchor: string, key: string, card: string) => ok("knowledge_upsert", { workspace, anchor, key, card });
    await put("a:db", "wal", "Claim: use WAL\nExpiry: never");
    await put("a:db", "journal-mode", "Claim: use WAL\nExpiry: never");
    await put("a:api", "limits", "Claim: 100 rpm\nExpiry: 2000-01-01");
    await put("a:web", "limits", "Claim: 10 uploads\nExpiry: 2999-12-31");
    await put("a:web", "cookies", "Claim: cookies are signed");
    await put("a:web", "csp", "Claim: strict CSP\nExpiry: soon");

    const lint = await ok("knowledge_lint", { workspace });
    expect(lint.as_of_source).toBe("last_write");
    expect(lint.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(lint.issues.map((issue: { code: string; severity: string }) => `${issue.severity} ${issue.code}`)).toEqual([
      "warning KNOWLEDGE_DUPLICATE_CONTENT_SAME_ANCHOR",
      "warning KNOWLEDGE_EXPIRED",
      "warning KNOWLEDGE_EXPIRY_INVALID",
      "info KNOWLEDGE_KEY_OVERLOADED_ACROSS_ANCHORS",
      "info KNOWLEDGE_MISSING_EXPIRY",
    ]);
    expect(lint.issues[0].evidence).toMatchObject({ anchor: "a:db", keys: ["journal-mode", "wal"] });
    expect(lint.issues[1].evidence).toMatchObject({ anchor: "a:api", key: "limits", expiry: "2000-01-01" });
    expect(lint.issues[4].evidence).toMatchObject({ anchor: "a:web", key: "cookies" });
    expect(lint.stats).toMatchObject({ keys_scanned: 6, anchors: 3, keys: 5, issues_total: 5, has_more: false });
    expect(await ok("knowledge_lint", { workspace })).toEqual(lint);

    // An explicit date decides expiry: before 2000-01-01 nothing has expired yet.
    const early = await ok("knowledge.lint", { workspace, as_of: "1999-12-31" });
    expect(early).toMatchObject({ as_of: "1999-12-31", as_of_source: "argument" });
    expect(early.issues.map((issue: { code: string }) => issue.code)).not.toContain("KNOWLEDGE_EXPIRED");
    const late = await ok("knowledge_lint", { workspace, as_of: "3000-01-01", anchor: "a:web" });
    expect(late.issues.map((issue: { code: string; evidence: { key?: string } }) => `${issue.code} ${issue.evidence.key ?? ""}`)).toEqual([
      "KNOWLEDGE_EXPIRED limits",
      "KNOWLEDGE_EXPIRY_INVALID csp",
      "KNOWLEDGE_MISSING_EXPIRY cookies",
    ]);
    expect((await failure("knowledge_lint", { workspace, as_of: "2024-02-30" })).code).toBe("INVALID_INPUT");

    // lint_mode auto returns the findings about the card just written.
    const auto = await ok("knowledge_upsert", {
      workspace,
      anchor: "a:db",
      key: "wal-again",
      card: "Claim: use WAL\nExpiry: never",
      lint_mode: "auto",
    });
    expect(auto.lint.issues.map((issue: { code: string }) => issue.code)).toEqual(["KNOWLEDGE_DUPLICATE_CONTENT_SAME_ANCHOR"]);
    expect(await ok("knowledge_lint", { workspace: "knowledge/lint-empty" })).toMatchObject({
      as_of: null,
      as_of_source: "none",
      issues: [],
    });
  });
});

describe("knowledge: note.promote", () => {
  it("turns a note into a knowledge card once; an auto key already in use is refused", async () => {
    const workspace = "knowledge/promote";
    const note = await ok("notes_commit", {
      workspace,
      title: "Backups run at 02:00",
      content: "Claim: Backups run at 02:00 UTC\nExpiry: 2999-01-01",
      meta: { anchor: "a:ops" },
    });
    const ref = `notes@${note.entry.seq}`;
    const promoted = await ok("knowledge_note_promote", { workspace, note_ref: ref });
    expect(promoted).toMatchObject({
      note_ref: ref,
      anchor: "a:ops",
      key: "backups-run-at-02-00",
      key_mode: "auto",
      version: 1,
      created: true,
    });
    const again = await ok("knowledge.note.promote", { workspace, note_ref: ref });
    expect(again).toMatchObject({ card_id: promoted.card_id, changed: false });
    const card = (await ok("knowledge_query", { workspace, anchor: "a:ops" })).cards[0];
    expect(card).toMatchObject({ id: promoted.card_id, title: "Backups run at 02:00", meta: { promoted_from: ref } });

    const other = await ok("notes_commit", { workspace, title: "Backups run at 02:00", content: "Claim: moved to 03:00" });
    const otherRef = `notes@${other.entry.seq}`;
    expect(await failure("knowledge_note_promote", { workspace, note_ref: otherRef, anchor: "a:ops" })).toMatchObject({
      code: "INVALID_INPUT",
      details: { field: "key", suggestion: "backups-run-at-02-00" },
    });
    const versioned = await ok("knowledge_note_promote", { workspace, note_ref: otherRef, anchor: "a:ops", key: "backups-run-at-02-00" });
    expect(versioned).toMatchObject({ version: 2, previous_card_id: promoted.card_id });

    expect((await failure("knowledge_note_promote", { workspace, note_ref: otherRef })).details).toMatchObject({ field: "anchor" });
    expect((await failure("knowledge_note_promote", { workspace, note_ref: "notes@999999" })).code).toBe("UNKNOWN_ID");
    expect((await failure("knowledge_note_promote", { workspace, note_ref: `trace@${note.entry.seq}`, anchor: "a:ops" })).code).toBe(
      "UNKNOWN_ID",
    );
    expect((await failure("knowledge_note_promote", { workspace, note_ref: "notes", anchor: "a:ops" })).code).toBe("INVALID_INPUT");
  });

  it("keeps kb/ branch names for the server", async () => {
    const workspace = "knowledge/reserved";
    expect((await failure("branch_create", { workspace, name: "kb/main" })).code).toBe("INVALID_NAME");
    await ok("knowledge_upsert", { workspace, anchor: "a:x", key: "y", card: "Claim: z" });
    expect((await failure("branch_rename", { workspace, old: "kb/main", new: "kb-old" })).code).toBe("INVALID_INPUT");
    const deleting = await failure("branch_delete", { workspace, name: "kb/main" });
    expect(deleting.code).toBe("INVALID_INPUT");
    expect(deleting.message).toContain("knowledge cards");
    expect((await ok("knowledge_recall", { workspace, anchor: "a:x" })).cards.length).toBe(1);
  });
});
