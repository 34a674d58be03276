// End-to-end: Record-Sync records through the bulk path (workspace_import's record op): written as
// create_record writes them (ids, versions, search index, child counters, activity, one project tick
// each) by the pseudo-session "import", parents by id or by ref, the create rules enforced, and an
// invalid op rolling the whole import back.
import { describe, expect, it } from "vitest";
import { as, failure, ok } from "./helpers/mcp";

type Args = Record<string, unknown>;

const ids = (page: Record<string, any>, list = "records") => (page[list] as { id: string }[]).map((item) => item.id);

async function projectTick(workspace: string): Promise<number> {
  return (await ok("get_project_overview", { workspace })).project.tick as number;
}

describe("workspace_import: record ops", () => {
  it("imports a tree by ref and by id, searchable, listable, with child counters, versions and activity", async () => {
    const workspace = "records-import/tree";
    const admin = await as("root", { role: "admin" });
    const ops: Args[] = [
      {
        op: "record",
        ref: "q",
        type: "question",
        title: "Which storage engine?",
        summary: "Pick the storage.",
        body: "We need durable storage.",
      },
      {
        op: "record",
        ref: "sqlite",
        parent_ref: "q",
        type: "option",
        title: "SQLite in a Durable Object",
        body: "Transactional storage close to the code.",
      },
      { op: "record", parent_ref: "q", type: "option", title: "Postgres", state: "DISCARDED", reason: "Too far from the edge" },
      { op: "record", parent_ref: "q", type: "option", title: "KV", state: "LATER", reason: "Revisit for caches", metadata: { votes: 1 } },
      { op: "record", parent_ref: "sqlite", type: "note", title: "WAL mode", body: "Durable storage writes go through the WAL." },
      { op: "note", content: "a note in the same import" },
      // By id: R001 was imported earlier in this call (ids are given in op order).
      { op: "record", parent_id: "R001", type: "conclusion", title: "Use SQLite", related: ["R002", "R002"] },
      { op: "record", type: "question", title: "Second root", state: "RESOLVED", resolved_by: "R006" },
    ];
    const imported = await ok("workspace_import", { workspace, ops }, admin);
    expect(imported).toMatchObject({
      records_imported: 7,
      notes_imported: 1,
      first_record_id: "R001",
      last_record_id: "R007",
      record_refs: { q: "R001", sqlite: "R002" },
    });

    expect(await ok("get_record_ref", { workspace, id: "R001" })).toMatchObject({
      id: "R001",
      type: "question",
      parent_id: null,
      children_count: 4,
      open_children_count: 2,
    });
    expect(await ok("get_record_ref", { workspace, id: "R002" })).toMatchObject({ children_count: 1, open_children_count: 1 });
    expect(ids(await ok("list_records", { workspace }))).toEqual(["R001", "R002", "R005", "R003", "R004", "R006", "R007"]);
    expect(ids(await ok("list_records", { workspace, states: ["OPEN"] }))).toEqual(["R001", "R002", "R005", "R006"]);

    const found = await ok("search_records", { workspace, query: "storage" });
    expect(found.total).toBe(3);
    expect(ids(found, "results").sort()).toEqual(["R001", "R002", "R005"]);
    expect((await ok("search_records", { workspace, query: "storage", parent_id: "R002" })).results).toHaveLength(1);

    // One project tick per record, as create_record takes; the records as create_record stores them.
    const overview = await ok("get_project_overview", { workspace });
    expect(overview.project.tick).toBe(7);
    expect(overview.root_records_total).toBe(2);
    expect(overview.open_sessions_total).toBe(0);
    const sqlite = (await ok("activate", { workspace, id: "R002" })).context;
    expect(sqlite.target).toMatchObject({ id: "R002", depth: 2, version: 1, created_tick: 2, modified_by_session: "import" });
    expect(sqlite.parent).toMatchObject({ id: "R001" });
    expect(ids(sqlite.children, "open")).toEqual(["R005"]);
    const conclusion = await ok("activate", { workspace, id: "R006" });
    expect(conclusion.context.target).toMatchObject({ related: ["R002"], modified_tick: 6 });
    const resolved = await ok("activate", { workspace, id: "R007", session_id: conclusion.session_id });
    expect(resolved.context.target).toMatchObject({ state: "RESOLVED", resolved_by: "R006" });
    const kv = await ok("activate", { workspace, id: "R004", session_id: conclusion.session_id });
    expect(kv.context.target).toMatchObject({ state: "LATER", state_reason: "Revisit for caches", metadata: { votes: 1 } });

    const history = await ok("get_record_history", { workspace, id: "R003" });
    expect(history.history).toEqual([
      expect.objectContaining({
        version: 1,
        at_tick: 3,
        session_id: "import",
        agent_id: "root",
        change_type: "created",
        reason: "Too far from the edge",
      }),
    ]);
    const created = await ok("get_recent_activity", { workspace, types: ["record_created"], limit: 10 });
    expect(created.activity).toHaveLength(7);
    expect(created.activity[0]).toMatchObject({ record_id: "R007", session_id: "import", agent_id: "root", at_tick: 7 });

    // Creating goes on after the import: the next id and the next tick.
    const next = await ok("create_record", {
      workspace,
      session_id: conclusion.session_id,
      parent_id: "R006",
      type: "note",
      title: "After the import",
      summary: "",
      body: "",
    });
    expect(next).toMatchObject({ record: { id: "R008", depth: 3, created_tick: 8 }, project_tick: 8 });
    expect(await ok("get_record_ref", { workspace, id: "R006" })).toMatchObject({ children_count: 1, open_children_count: 1 });
  });

  it("shows imported records to a session started before the import as created by the import", async () => {
    const workspace = "records-import/sync";
    const admin = await as("root", { role: "admin" });
    await ok("workspace_import", { workspace, ops: [{ op: "record", type: "question", title: "First" }] }, admin);
    const { session_id: session } = await ok("activate", { workspace, id: "R001" });
    await ok("workspace_import", { workspace, ops: [{ op: "record", parent_id: "R001", type: "note", title: "Later" }] }, admin);
    const synced = await ok("sync_session", { workspace, session_id: session });
    expect(synced.changes).toEqual([
      expect.objectContaining({ record_id: "R002", change_type: "created", by_session: "import", by_agent: "root", at_tick: 2 }),
    ]);
  });

  it("enforces create_record's rules and rolls the whole import back on an invalid op", async () => {
    const workspace = "records-import/atomic";
    const admin = await as("root", { role: "admin" });
    await ok("workspace_import", { workspace, ops: [{ op: "record", ref: "root", type: "question", title: "Kept" }] }, admin);
    const tick = (await ok("status", { workspace })).tick as number;
    const before = { op: "record", parent_id: "R001", type: "note", title: "Lost", body: "vanishing words" };

    const cases: [Args, string, Args][] = [
      [{ op: "record", parent_ref: "root", type: "note", title: "x" }, "RECORD_NOT_FOUND", { field: "parent_ref", ref: "root" }],
      [{ op: "record", parent_id: "R404", type: "note", title: "x" }, "RECORD_NOT_FOUND", { field: "parent_id" }],
      [{ op: "record", parent_id: "R001", parent_ref: "a", type: "note", title: "x" }, "INVALID_INPUT", {}],
      [{ op: "record", type: "note", title: "x", state: "LATER" }, "INVALID_TRANSITION", { problem: "reason_required" }],
      [{ op: "record", type: "note", title: "x", state: "RESOLVED", resolved_by: "R404" }, "RECORD_NOT_FOUND", { field: "resolved_by" }],
      [{ op: "record", type: "note", title: "x", related: ["R001", "R009"] }, "RECORD_NOT_FOUND", { missing: ["R009"] }],
      [{ op: "record", type: "note", title: "x", metadata: { big: "y".repeat(20_000) } }, "PAYLOAD_TOO_LARGE", {}],
      [{ op: "record", ref: "a", type: "note", title: "x" }, "INVALID_INPUT", { field: "ref" }],
    ];
    for (const [bad, code, details] of cases) {
      const error = await failure(
        "workspace_import",
        { workspace, ops: [before, { op: "record", ref: "a", type: "note", title: "a" }, { op: "note", content: "lost note" }, bad] },
        admin,
      );
      expect(error, JSON.stringify(bad)).toMatchObject({ code, details: { op_index: 3, ...details } });
      expect(error.message).toMatch(/^ops\[3\]: /);
    }

    // A chain one level too deep fails at the 17th level.
    const chain: Args[] = [{ op: "record", ref: "l1", type: "note", title: "Level 1" }];
    for (let level = 2; level <= 17; level++) {
      chain.push({ op: "record", ref: `l${level}`, parent_ref: `l${level - 1}`, type: "note", title: `Level ${level}` });
    }
    expect(await failure("workspace_import", { workspace, ops: chain }, admin)).toMatchObject({
      code: "DEPTH_EXCEEDED",
      details: { op_index: 16, depth: 17, max_depth: 16 },
    });

    // Nothing of the failed imports is left: records, versions, search rows, counters, ticks, notes.
    expect(ids(await ok("list_records", { workspace }))).toEqual(["R001"]);
    expect(await ok("get_record_ref", { workspace, id: "R001" })).toMatchObject({ children_count: 0, open_children_count: 0 });
    expect((await ok("search_records", { workspace, query: "vanishing" })).total).toBe(0);
    expect(await projectTick(workspace)).toBe(1);
    expect((await ok("get_recent_activity", { workspace })).activity).toHaveLength(1);
    expect((await ok("status", { workspace })).tick).toBe(tick);
    expect((await ok("show", { workspace, doc: "notes" })).entries).toHaveLength(0);
    // The record clock did not move either: the next import continues at R002.
    expect(
      await ok("workspace_import", { workspace, ops: [{ op: "record", parent_id: "R001", type: "note", title: "Next" }] }, admin),
    ).toMatchObject({ first_record_id: "R002", records_imported: 1 });
    expect(await projectTick(workspace)).toBe(2);
  });

  it("is admin-only", async () => {
    const workspace = "records-import/role";
    const error = await failure("workspace_import", { workspace, ops: [{ op: "record", type: "note", title: "x" }] }, await as("writer"));
    expect(error.code).toBe("FORBIDDEN");
    expect((await ok("list_records", { workspace })).records).toEqual([]);
  });
});
