// End-to-end: the meaning map through the real MCP endpoint (toolset=full): bootstrap (idempotent),
// registration by canon cards, canon-first snapshots across graphs, rename and merge (old ids become
// aliases, history kept), lint codes, deterministic export, path bindings and macro_anchor_note.
import { describe, expect, it } from "vitest";
import { as, failure, ok } from "./helpers/mcp";

const ids = (list: { id: string }[]) => list.map((item) => item.id);
const tickOf = async (workspace: string) => (await ok("status", { workspace })).tick as number;
const codes = (issues: { code: string; anchor: string }[]) => issues.map((issue) => `${issue.code} ${issue.anchor}`);

const MAP = [
  { id: "a:core", title: "Core", kind: "component", refs: ["path:src"] },
  {
    id: "a:storage",
    title: "Storage engine",
    kind: "data",
    parent: "a:core",
    depends_on: ["a:net"],
    refs: ["path:src/storage/", "https://x/doc"],
  },
  { id: "net", title: "Network", kind: "boundary", aliases: ["a:wire"] },
];

describe("anchors: bootstrap and registration", () => {
  it("bootstraps atomically and idempotently: a repeat writes nothing and leaves the tick", async () => {
    const workspace = "anchors/bootstrap";
    const first = await ok("anchors_bootstrap", { workspace, anchors: MAP });
    expect(first).toEqual({ created: ["a:core", "a:storage", "a:net"], updated: [], unchanged: [], aliases_added: ["a:wire"] });
    const tick = await tickOf(workspace);
    expect(await ok("anchors_bootstrap", { workspace, anchors: MAP })).toEqual({
      created: [],
      updated: [],
      unchanged: ["a:core", "a:storage", "a:net"],
      aliases_added: [],
    });
    expect(await tickOf(workspace)).toBe(tick);

    const changed = await ok("anchors_bootstrap", { workspace, anchors: [{ id: "a:core", title: "Core domain" }, { id: "a:ui" }] });
    expect(changed).toMatchObject({ created: ["a:ui"], updated: ["a:core"] });
    const list = await ok("anchors_list", { workspace });
    expect(ids(list.anchors)).toEqual(["a:core", "a:net", "a:storage", "a:ui"]);
    expect(list.anchors[0]).toMatchObject({ title: "Core domain", kind: "component", refs: ["path:src"], origin: "bootstrap" });
    expect(list.anchors[1]).toMatchObject({ aliases: ["a:wire"], kind: "boundary" });
    expect(list.anchors[2]).toMatchObject({ parent: "a:core", depends_on: ["a:net"], refs: ["https://x/doc", "path:src/storage/"] });
    expect(list.anchors[3]).toMatchObject({ title: "ui", kind: "component", status: "active" });
    const page = await ok("anchors_list", { workspace, limit: 2 });
    expect(ids(page.anchors)).toEqual(["a:core", "a:net"]);
    expect(ids((await ok("anchors_list", { workspace, cursor: page.pagination.next_cursor })).anchors)).toEqual(["a:storage", "a:ui"]);

    // A failing item leaves nothing of the batch behind.
    const bad = await failure("anchors_bootstrap", { workspace, anchors: [{ id: "a:new-one" }, { id: "a:bad", refs: ["path:../x"] }] });
    expect(bad.code).toBe("INVALID_INPUT");
    expect(ids((await ok("anchors_list", { workspace })).anchors)).not.toContain("a:new-one");
    const taken = await failure("anchors_bootstrap", { workspace, anchors: [{ id: "a:ui", aliases: ["a:wire"] }] });
    expect(taken).toMatchObject({ code: "CONFLICT", details: { alias: "a:wire", anchor: "a:net" } });
  });

  it("registers the anchors of canon cards (shared, pinned / v:canon / decision / evidence / test), not of other cards", async () => {
    const workspace = "anchors/canon-registers";
    const bob = await as("bob");
    await ok("think_add_decision", { workspace, title: "Use SQLite", tags: ["a:persistence"] });
    await ok("think_add_note", { workspace, text: "just a note", tags: ["a:scratch"] });
    await ok("think_add_decision", { workspace, title: "a draft decision", tags: ["a:drafty"], lane: "agent" }, bob);
    await ok("think_add_note", { workspace, text: "canon note", tags: ["a:canon-note", "v:canon"] });
    await ok("knowledge_upsert", { workspace, anchor: "a:kb-only", key: "k", card: "Claim: c" });
    await ok("knowledge_upsert", { workspace, anchor: "a:kb-draft", key: "k", card: "Claim: c", visibility: "draft" });
    const list = await ok("anchors_list", { workspace });
    expect(ids(list.anchors)).toEqual(["a:canon-note", "a:kb-only", "a:persistence"]);
    expect(list.anchors[2]).toMatchObject({ origin: "card", title: "persistence", kind: "component" });
    // An unregistered anchor still opens, with its cards.
    const scratch = await ok("anchor_snapshot", { workspace, anchor: "a:scratch" });
    expect(scratch).toMatchObject({ registered: false, anchor: "a:scratch" });
    expect(scratch.cards.map((card: { text: string }) => card.text)).toEqual(["just a note"]);
  });
});

describe("anchors: snapshot", () => {
  it("shows an anchor's cards across branches and graph docs, canon-first, with its tasks", async () => {
    const workspace = "anchors/snapshot";
    const bob = await as("bob");
    const plan = await ok("tasks_create", { workspace, title: "P" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Tune storage", steps: [{ title: "s" }] });
    const tags = ["a:storage"];
    await ok("think_add_note", { workspace, id: "CARD-N", text: "old note", tags });
    await ok("think_add_decision", { workspace, id: "CARD-D", title: "decide", tags });
    await ok("think_add_test", { workspace, id: "CARD-T", title: "a test", tags, target: task.id });
    await ok("think_add_evidence", { workspace, id: "CARD-E", title: "evidence", tags });
    const kb = await ok("knowledge_upsert", { workspace, anchor: "a:storage", key: "wal", card: "Claim: WAL" });
    await ok("think_add_note", { workspace, id: "CARD-P", text: "pinned note", tags });
    await ok("think_pin", { workspace, card_id: "CARD-P" });
    await ok("think_add_note", { workspace, id: "CARD-NEW", text: "newest note", tags });
    await ok("think_add_note", { workspace, id: "CARD-BOB", text: "bob's draft", tags, lane: "agent" }, bob);
    // A card that drops the tag leaves the snapshot. (A changed card under an existing id is refused
    // now, ALREADY_EXISTS; dropping the tag is an explicit revision.)
    await ok("think_add_note", { workspace, id: "CARD-GONE", text: "tagged once", tags });
    await ok("think_card", { workspace, card: { id: "CARD-GONE", type: "note", text: "untagged now" }, revise: true });

    const snapshot = await ok("anchor_snapshot", { workspace, anchor: "a:storage" });
    expect(snapshot).toMatchObject({ kind: "anchor", ref: "a:storage", registered: true, has_more: false });
    expect(ids(snapshot.cards)).toEqual(["CARD-P", kb.card_id, "CARD-D", "CARD-E", "CARD-T", "CARD-NEW", "CARD-N"]);
    const where = Object.fromEntries(
      snapshot.cards.map((card: { id: string; branch: string; graph_doc: string }) => [card.id, `${card.branch}/${card.graph_doc}`]),
    );
    expect(where).toMatchObject({ "CARD-T": `task/${task.id}/${task.id}-graph`, [kb.card_id]: "kb/main/kb-graph", "CARD-D": "main/graph" });
    expect(snapshot.tasks).toEqual([{ id: task.id, title: "Tune storage", status: "TODO", branch: `task/${task.id}` }]);

    expect(ids((await ok("anchor_snapshot", { workspace, anchor: "a:storage" }, bob)).cards)).toContain("CARD-BOB");
    expect(ids((await ok("anchor_snapshot", { workspace, anchor: "a:storage", include_drafts: true })).cards)).toContain("CARD-BOB");
    const page = await ok("anchor_snapshot", { workspace, anchor: "storage", limit: 2 });
    expect(ids(page.cards)).toEqual(["CARD-P", kb.card_id]);
    expect(page.has_more).toBe(true);
    expect((await failure("anchor_snapshot", { workspace, anchor: "a:Storage Layer" })).details).toMatchObject({
      suggestion: "a:storage-layer",
    });
  });
});

describe("anchors: rename and merge", () => {
  it("renames: the old id becomes an alias, relations and bindings follow, cards and knowledge keep resolving", async () => {
    const workspace = "anchors/rename";
    await ok("anchors_bootstrap", { workspace, anchors: MAP });
    await ok("think_add_decision", { workspace, id: "CARD-OLD", title: "tagged with the old id", tags: ["a:storage"] });
    const v1 = await ok("knowledge_upsert", { workspace, anchor: "a:storage", key: "wal", card: "Claim: WAL v1" });

    const renamed = await ok("anchors_rename", { workspace, from: "a:storage", to: "a:store" });
    expect(renamed).toEqual({ from: "a:storage", to: "a:store", aliases: ["a:storage"], relations_rewritten: 0 });
    const list = await ok("anchors_list", { workspace });
    expect(ids(list.anchors)).toEqual(["a:core", "a:net", "a:store"]);
    expect(list.anchors[2]).toMatchObject({ title: "Storage engine", parent: "a:core", aliases: ["a:storage"] });

    // The old id resolves, with a warning; the history (cards tagged a:storage) is kept.
    const old = await ok("anchor_snapshot", { workspace, anchor: "a:storage" });
    expect(old).toMatchObject({ anchor: "a:store", requested: "a:storage", registered: true, aliases: ["a:storage"] });
    expect(old.warnings.map((warning: { code: string }) => warning.code)).toContain("ANCHOR_ALIAS_RESOLVED");
    expect(ids(old.cards)).toEqual([v1.card_id, "CARD-OLD"]);
    expect(ids((await ok("anchor_snapshot", { workspace, anchor: "a:store" })).cards)).toEqual([v1.card_id, "CARD-OLD"]);
    expect(await ok("anchor_resolve", { workspace, anchor: "a:storage" })).toMatchObject({ anchor: "a:store", requested: "a:storage" });
    expect((await ok("anchor_resolve", { workspace, path: "src/storage/wal.ts" })).anchor).toBe("a:store");

    // Knowledge written under the old id is recalled under the new one, and its key keeps its versions.
    const recall = await ok("knowledge_recall", { workspace, anchor: "a:store" });
    expect(recall.cards.map((card: { id: string; anchor: string }) => [card.id, card.anchor])).toEqual([[v1.card_id, "a:store"]]);
    const v2 = await ok("knowledge_upsert", { workspace, anchor: "a:store", key: "wal", card: "Claim: WAL v2" });
    expect(v2).toMatchObject({ version: 2, previous_card_id: v1.card_id });
    expect((await ok("knowledge_query", { workspace, anchor: "a:storage" })).cards.map((card: { id: string }) => card.id)).toEqual([
      v2.card_id,
    ]);

    // Relations that named the old id now name the new one; renaming back drops the alias.
    await ok("anchors_bootstrap", { workspace, anchors: [{ id: "a:wal", parent: "a:store", depends_on: ["a:store", "a:net"] }] });
    const back = await ok("anchors_rename", { workspace, from: "a:store", to: "a:storage" });
    expect(back).toMatchObject({ aliases: ["a:store"], relations_rewritten: 1 });
    const wal = (await ok("anchors_list", { workspace })).anchors.find((anchor: { id: string }) => anchor.id === "a:wal");
    expect(wal).toMatchObject({ parent: "a:storage", depends_on: ["a:net", "a:storage"] });

    expect((await failure("anchors_rename", { workspace, from: "a:nothing", to: "a:x" })).code).toBe("UNKNOWN_ID");
    expect((await failure("anchors_rename", { workspace, from: "a:storage", to: "a:core" })).code).toBe("ALREADY_EXISTS");
    expect((await failure("anchors_rename", { workspace, from: "a:store", to: "a:y" })).code).toBe("INVALID_INPUT");
  });

  it("merges: ids become aliases of the target, refs and bindings join it, a repeat is skipped and writes nothing", async () => {
    const workspace = "anchors/merge";
    await ok("anchors_bootstrap", { workspace, anchors: MAP });
    await ok("anchors_bootstrap", {
      workspace,
      anchors: [{ id: "a:db", refs: ["path:db"], aliases: ["a:database"], depends_on: ["a:storage"] }],
    });
    await ok("think_add_evidence", { workspace, id: "CARD-DB", title: "db evidence", tags: ["a:db"] });

    const merged = await ok("anchors_merge", { workspace, into: "a:storage", from: ["a:db"] });
    expect(merged).toEqual({ into: "a:storage", merged: ["a:db"], skipped: [], aliases: ["a:database", "a:db"] });
    const storage = (await ok("anchors_list", { workspace })).anchors.find((anchor: { id: string }) => anchor.id === "a:storage");
    expect(storage).toMatchObject({
      refs: ["https://x/doc", "path:db", "path:src/storage/"],
      aliases: ["a:database", "a:db"],
      depends_on: ["a:net"],
    });
    expect(ids((await ok("anchor_snapshot", { workspace, anchor: "a:database" })).cards)).toEqual(["CARD-DB"]);
    expect((await ok("anchor_resolve", { workspace, path: "db/schema.sql" })).anchor).toBe("a:storage");

    const tick = await tickOf(workspace);
    expect(await ok("anchors_merge", { workspace, into: "a:storage", from: ["a:db", "a:database"] })).toMatchObject({
      merged: [],
      skipped: [
        { id: "a:database", reason: "already an alias of a:storage" },
        { id: "a:db", reason: "already an alias of a:storage" },
      ],
    });
    expect(await tickOf(workspace)).toBe(tick);
    expect((await failure("anchors_merge", { workspace, into: "a:storage", from: ["a:ghost"] })).code).toBe("UNKNOWN_ID");
    expect((await failure("anchors_merge", { workspace, into: "a:db", from: ["a:net"] })).code).toBe("INVALID_INPUT");
    expect((await failure("anchors_merge", { workspace, into: "a:storage", from: ["a:storage"] })).code).toBe("INVALID_INPUT");
  });
});

describe("anchors: lint and export", () => {
  it("lints the map: unknown and self relations, cycles, aliases used as relations or colliding, orphans", async () => {
    const workspace = "anchors/lint";
    await ok("anchors_bootstrap", {
      workspace,
      anchors: [
        { id: "a:core" },
        { id: "a:db", parent: "a:ghost", depends_on: ["a:phantom", "a:db", "a:old-core"] },
        { id: "a:self", parent: "a:self" },
        { id: "a:x", parent: "a:y" },
        { id: "a:y", parent: "a:x" },
        { id: "a:hub", aliases: ["a:old-core", "a:twin"] },
      ],
    });
    const collision = await ok("anchors_bootstrap", { workspace, anchors: [{ id: "a:twin" }] });
    expect(collision.warnings.map((warning: { code: string }) => warning.code)).toEqual(["ANCHOR_ALIAS_COLLISION"]);
    for (const anchor of ["a:db", "a:self", "a:x", "a:y", "a:twin"])
      await ok("macro_anchor_note", { workspace, anchor, content: "linked" });
    await ok("think_add_note", { workspace, text: "via an alias", tags: ["a:old-core"] });

    const lint = await ok("anchors_lint", { workspace });
    expect(codes(lint.issues)).toEqual([
      "ALIAS_COLLIDES_WITH_ANCHOR_ID a:twin",
      "PARENT_CYCLE a:x",
      "RELATION_USES_ALIAS a:db",
      "SELF_DEPENDS_ON a:db",
      "SELF_PARENT a:self",
      "UNKNOWN_DEPENDS_ON a:db",
      "UNKNOWN_PARENT a:db",
      "ORPHAN_ANCHOR a:core",
    ]);
    expect(lint.stats).toEqual({ anchors: 7, aliases: 2, issues_total: 8, has_more: false });
    for (const issue of lint.issues) expect(issue.hint.length).toBeGreaterThan(0);
    expect(codes((await ok("anchors_lint", { workspace, limit: 1 })).issues)).toEqual(["ALIAS_COLLIDES_WITH_ANCHOR_ID a:twin"]);
  });

  it("exports the map byte-identically, in a fixed order, as text and mermaid", async () => {
    const workspace = "anchors/export";
    // Registered in another order than the export shows.
    await ok("anchors_bootstrap", { workspace, anchors: [...MAP].reverse() });
    const text = await ok("anchors_export", { workspace });
    expect(text).toMatchObject({ format: "text", anchors: 3, aliases: 1, truncated: false });
    expect(text.text).toBe(
      [
        "# anchors: 3, aliases: 1",
        "a:core  Core [component]",
        "  a:storage  Storage engine [data]  depends_on: a:net",
        "a:net  Network [boundary]",
        "aliases:",
        "  a:wire -> a:net",
        "",
      ].join("\n"),
    );
    const mermaid = await ok("anchors_export", { workspace, format: "mermaid" });
    expect(mermaid.text).toBe(
      [
        "flowchart TD",
        '  a_core["a:core: Core"]',
        '  a_net["a:net: Network"]',
        '  a_storage["a:storage: Storage engine"]',
        "  a_core --> a_storage",
        "  a_storage -.->|depends on| a_net",
        "  %% alias a:wire -> a:net",
        "",
      ].join("\n"),
    );
    for (const format of ["text", "mermaid"]) {
      const again = await ok("anchors_export", { workspace, format });
      expect(JSON.stringify(again)).toBe(JSON.stringify(format === "text" ? text : mermaid));
    }
  });
});

describe("anchors: paths and the note macro", () => {
  it("resolves paths through path: bindings, deepest first", async () => {
    const workspace = "anchors/paths";
    await ok("anchors_bootstrap", { workspace, anchors: MAP });
    expect(await ok("anchor_resolve", { workspace, path: "./src/storage/sql.ts" })).toMatchObject({
      path: "src/storage/sql.ts",
      anchor: "a:storage",
      binding: "path:src/storage",
      matches: [
        { anchor: "a:storage", binding: "path:src/storage", depth: 2 },
        { anchor: "a:core", binding: "path:src", depth: 1 },
      ],
    });
    expect(await ok("anchor_resolve", { workspace, path: "src/web/app.ts" })).toMatchObject({ anchor: "a:core", binding: "path:src" });
    expect(await ok("anchor_resolve", { workspace, path: "docs/readme.md" })).toMatchObject({ anchor: null, binding: null, matches: [] });
    expect(await ok("anchor_resolve", { workspace, path: "src" })).toMatchObject({ anchor: "a:core" });
    // A binding on a file is deeper than its directory's.
    await ok("anchors_bootstrap", { workspace, anchors: [{ id: "a:sql", refs: ["path:src/storage/sql.ts"] }] });
    expect((await ok("anchor_resolve", { workspace, path: "src/storage/sql.ts" })).anchor).toBe("a:sql");
    expect((await ok("anchor_resolve", { workspace, path: "src/storage/sql.tsx" })).anchor).toBe("a:storage");
    expect((await failure("anchor_resolve", { workspace, path: "../etc/passwd" })).code).toBe("INVALID_INPUT");
    expect((await failure("anchor_resolve", { workspace })).code).toBe("INVALID_INPUT");
  });

  it("macro_anchor_note registers the anchor, declares aliases and writes a tagged card where think_card would", async () => {
    const workspace = "anchors/macro";
    const note = await ok("macro_anchor_note", {
      workspace,
      anchor: "a:billing",
      content: "Invoices are immutable",
      kind: "contract",
      aliases: ["a:invoices"],
      pin: true,
      visibility: "canon",
    });
    expect(note).toMatchObject({
      anchor: "a:billing",
      registered_now: true,
      aliases_added: ["a:invoices"],
      branch: "main",
      graph_doc: "graph",
      lane: "shared",
    });
    const card = (await ok("think_query", { workspace, ids: [note.card_id] })).cards[0];
    expect(card).toMatchObject({ type: "note", text: "Invoices are immutable", tags: ["a:billing", "pinned", "v:canon"] });
    expect((await ok("anchors_list", { workspace })).anchors[0]).toMatchObject({
      id: "a:billing",
      kind: "contract",
      origin: "note",
      aliases: ["a:invoices"],
    });

    // Through an alias, under a task with its step tag, as a draft.
    const plan = await ok("tasks_create", { workspace, title: "P" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "T", steps: [{ title: "s1" }, { title: "s2" }] });
    const draft = await ok("macro_anchor_note", {
      workspace,
      anchor: "a:invoices",
      content: "maybe archive after 7 years",
      card_type: "hypothesis",
      target: task.id,
      step: task.steps[1].id,
      visibility: "draft",
    });
    expect(draft).toMatchObject({ anchor: "a:billing", registered_now: false, lane: "agent/alice", branch: `task/${task.id}` });
    expect(draft.warnings.map((warning: { code: string }) => warning.code)).toEqual(["ANCHOR_ALIAS_RESOLVED"]);
    const drafted = (await ok("think_query", { workspace, target: task.id, ids: [draft.card_id] })).cards[0];
    expect(drafted.tags).toEqual(["a:billing", `step:${task.steps[1].id.toLowerCase()}`, "v:draft"]);
    const snapshot = await ok("anchor_snapshot", { workspace, anchor: "a:billing" });
    expect(ids(snapshot.cards)).toEqual([note.card_id, draft.card_id]);
    expect((await failure("macro_anchor_note", { workspace, anchor: "a:billing", content: "x", step: "focus" })).code).toBe(
      "INVALID_INPUT",
    );
    expect((await failure("macro_anchor_note", { workspace, anchor: "a:billing", content: "x", aliases: ["a:billing"] })).code).toBe(
      "INVALID_INPUT",
    );
  });
});
