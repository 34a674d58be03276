// End-to-end: Record-Sync records through the real MCP endpoint (toolset=full): ids and refs, parent,
// related and depth checks, every valid and invalid transition, tick accounting, roles and idempotency.
// Activation requirements and the context bundle are in test/records-context.test.ts.
import { describe, expect, it } from "vitest";
import { failure, ok, type RpcOptions, token } from "./helpers/mcp";
import { type Args, create } from "./helpers/records-fixtures";

async function projectTick(workspace: string): Promise<number> {
  return (await ok("get_project_overview", { workspace })).project.tick as number;
}

async function workspaceTick(workspace: string): Promise<number> {
  return (await ok("status", { workspace })).tick as number;
}

describe("records: ids, refs and structure", () => {
  it("numbers records R001…, auto-activates them, keeps child counters and checks parent and related ids", async () => {
    const workspace = "records/structure";
    const root = await create(workspace, {
      parent_id: null,
      type: "question",
      title: "Which storage?",
      summary: "Pick one.",
      body: "Body",
    });
    expect(root).toMatchObject({ auto_activated: true, session_started: true, session_id: "S001", project_tick: 1 });
    expect(root.record).toMatchObject({ id: "R001", type: "question", state: "OPEN", parent_id: null, depth: 1, version: 1, related: [] });
    const session = root.session_id as string;
    const child = await create(workspace, { session_id: session, parent_id: "R001", title: "SQLite", metadata: { votes: 2 } });
    expect(child).toMatchObject({ session_started: false, record: { id: "R002", parent_id: "R001", depth: 2, metadata: { votes: 2 } } });
    await create(workspace, { session_id: session, parent_id: "R001", title: "Postgres", state: "DISCARDED", reason: "Too heavy" });
    const grandchild = await create(workspace, {
      session_id: session,
      parent_id: "R002",
      title: "WAL mode",
      related: ["R003", "R001", "R003"],
    });
    expect(grandchild.record).toMatchObject({ id: "R004", depth: 3, related: ["R003", "R001"] });

    expect(await ok("get_record_ref", { workspace, id: "R001" })).toMatchObject({
      id: "R001",
      type: "question",
      title: "Which storage?",
      summary: "Pick one.",
      state: "OPEN",
      parent_id: null,
      children_count: 2,
      open_children_count: 1,
    });
    const active = await ok("get_active_sessions", { workspace });
    expect(active.sessions).toEqual([expect.objectContaining({ session_id: session, active_records_count: 4, is_current: true })]);

    const noParent = await failure("create_record", {
      workspace,
      session_id: session,
      parent_id: "R999",
      type: "x",
      title: "t",
      summary: "",
      body: "",
    });
    expect(noParent).toMatchObject({ code: "RECORD_NOT_FOUND", details: { id: "R999", field: "parent_id" } });
    const noRelated = await failure("create_record", {
      workspace,
      session_id: session,
      parent_id: null,
      type: "x",
      title: "t",
      summary: "",
      body: "",
      related: ["R001", "R404"],
    });
    expect(noRelated).toMatchObject({ code: "RECORD_NOT_FOUND", details: { missing: ["R404"] } });
    const selfRelated = await failure("update_record", { workspace, session_id: session, id: "R002", related: ["R002"] });
    expect(selfRelated.code).toBe("INVALID_INPUT");
    expect((await failure("get_record_ref", { workspace, id: "R404" })).code).toBe("RECORD_NOT_FOUND");
    // Rejected calls left nothing behind: still four records, tick 4.
    expect(await projectTick(workspace)).toBe(4);
    expect((await ok("list_records", { workspace })).records.map((record: { id: string }) => record.id)).toEqual([
      "R001",
      "R002",
      "R004",
      "R003",
    ]);
  });

  it("lists in tree order with depth, filters and pages", async () => {
    const workspace = "records/list";
    const { session_id: session } = await create(workspace, { parent_id: null, title: "A" });
    await create(workspace, { session_id: session, parent_id: null, type: "question", title: "B" });
    await create(workspace, { session_id: session, parent_id: "R001", title: "A.1" });
    await create(workspace, { session_id: session, parent_id: "R003", title: "A.1.a", state: "LATER", reason: "later" });
    await create(workspace, { session_id: session, parent_id: "R001", title: "A.2" });
    const ids = (page: Record<string, any>) => (page.records as { id: string }[]).map((record) => record.id);
    expect(ids(await ok("list_records", { workspace }))).toEqual(["R001", "R003", "R004", "R005", "R002"]);
    expect(ids(await ok("list_records", { workspace, parent_id: null }))).toEqual(["R001", "R002"]);
    expect(ids(await ok("list_records", { workspace, parent_id: null, depth: 2 }))).toEqual(["R001", "R003", "R005", "R002"]);
    expect(ids(await ok("list_records", { workspace, parent_id: "R001" }))).toEqual(["R003", "R005"]);
    expect(ids(await ok("list_records", { workspace, parent_id: "R001", depth: 2 }))).toEqual(["R003", "R004", "R005"]);
    expect(ids(await ok("list_records", { workspace, states: ["LATER"] }))).toEqual(["R004"]);
    expect(ids(await ok("list_records", { workspace, types: ["question"] }))).toEqual(["R002"]);
    const first = await ok("list_records", { workspace, limit: 2 });
    expect(first.pagination).toMatchObject({ has_more: true, next_cursor: "R003", count: 2 });
    const second = await ok("list_records", { workspace, limit: 2, cursor: first.pagination.next_cursor });
    expect(ids(second)).toEqual(["R004", "R005"]);
    const last = await ok("list_records", { workspace, limit: 2, cursor: second.pagination.next_cursor });
    expect(ids(last)).toEqual(["R002"]);
    expect(last.pagination.has_more).toBe(false);
  });

  it("refuses a record past the depth limit with DEPTH_EXCEEDED", async () => {
    const workspace = "records/depth";
    let parent: string | null = null;
    let session: string | undefined;
    for (let level = 1; level <= 16; level++) {
      const created: Args = await create(workspace, { session_id: session, parent_id: parent, title: `Level ${level}` });
      session = created.session_id as string;
      parent = (created.record as { id: string }).id;
      expect((created.record as { depth: number }).depth).toBe(level);
    }
    const deep = await failure("create_record", {
      workspace,
      session_id: session,
      parent_id: parent,
      type: "x",
      title: "17",
      summary: "",
      body: "",
    });
    expect(deep).toMatchObject({ code: "DEPTH_EXCEEDED", details: { depth: 17, max_depth: 16 } });
    expect(await projectTick(workspace)).toBe(16);
  });
});

describe("records: transitions", () => {
  const STATES = ["OPEN", "LATER", "RESOLVED", "DISCARDED"] as const;
  const VALID = new Set([
    "OPEN>LATER",
    "OPEN>RESOLVED",
    "OPEN>DISCARDED",
    "LATER>OPEN",
    "LATER>DISCARDED",
    "RESOLVED>OPEN",
    "DISCARDED>OPEN",
  ]);
  const INITIAL: Record<string, Args> = {
    OPEN: {},
    LATER: { state: "LATER", reason: "not now" },
    RESOLVED: { state: "RESOLVED", resolved_by: "R001" },
    DISCARDED: { state: "DISCARDED", reason: "dead end" },
  };

  it("allows exactly seed 004's seven moves and refuses the other nine with INVALID_TRANSITION", async () => {
    const workspace = "records/transitions";
    const { session_id: session } = await create(workspace, { parent_id: null, type: "conclusion", title: "The answer" });
    for (const from of STATES) {
      for (const to of STATES) {
        const made = await create(workspace, { session_id: session, parent_id: null, title: `${from} to ${to}`, ...INITIAL[from] });
        const id = made.record.id as string;
        const args = {
          workspace,
          session_id: session,
          id,
          to_state: to,
          reason: "because",
          ...(to === "RESOLVED" ? { resolved_by: "R001" } : {}),
        };
        if (VALID.has(`${from}>${to}`)) {
          const moved = await ok("transition", args);
          expect(moved, `${from} → ${to}`).toMatchObject({ from_state: from, record: { id, state: to, version: 2 } });
        } else {
          const refused = await failure("transition", args);
          expect(refused, `${from} → ${to}`).toMatchObject({ code: "INVALID_TRANSITION", details: { from, to, problem: "not_allowed" } });
        }
      }
    }
  });

  it("requires reasons and resolved_by, keeps reasons in the history, and reopening clears resolved_by", async () => {
    const workspace = "records/transition-rules";
    const { session_id: session } = await create(workspace, { parent_id: null, type: "question", title: "Q" });
    await create(workspace, { session_id: session, parent_id: "R001", type: "conclusion", title: "A" });
    const base = { workspace, session_id: session, id: "R001" };
    expect(await failure("transition", { ...base, to_state: "LATER" })).toMatchObject({
      code: "INVALID_TRANSITION",
      details: { problem: "reason_required" },
    });
    expect(await failure("transition", { ...base, to_state: "DISCARDED" })).toMatchObject({ details: { problem: "reason_required" } });
    expect(await failure("transition", { ...base, to_state: "RESOLVED" })).toMatchObject({ details: { problem: "resolved_by_required" } });
    expect(await failure("transition", { ...base, to_state: "RESOLVED", resolved_by: "R404" })).toMatchObject({
      code: "RECORD_NOT_FOUND",
      details: { field: "resolved_by" },
    });
    expect((await failure("transition", { ...base, to_state: "RESOLVED", resolved_by: "R001" })).code).toBe("INVALID_TRANSITION");
    expect((await failure("transition", { ...base, to_state: "LATER", reason: "x", resolved_by: "R002" })).code).toBe("INVALID_TRANSITION");

    const later = await ok("transition", { ...base, to_state: "LATER", reason: "Waiting on benchmarks" });
    expect(later.record).toMatchObject({ state: "LATER", state_reason: "Waiting on benchmarks" });
    const reopened = await ok("transition", { ...base, to_state: "OPEN" });
    expect(reopened.record.state_reason).toBeUndefined();
    const resolved = await ok("transition", { ...base, to_state: "RESOLVED", resolved_by: "R002" });
    expect(resolved.record).toMatchObject({ state: "RESOLVED", resolved_by: "R002" });
    // R002 is still OPEN: the transition warns and changes nothing below.
    expect(resolved.cascade_warning).toMatchObject({ open_children_count: 1, open_children: [{ id: "R002", state: "OPEN" }] });
    expect((await ok("get_record_ref", { workspace, id: "R002" })).state).toBe("OPEN");
    const again = await ok("transition", { ...base, to_state: "OPEN", reason: "New facts" });
    expect(again.record.resolved_by).toBeUndefined();
    expect(again.cascade_warning).toBeUndefined();

    const history = await ok("get_record_history", { workspace, id: "R001" });
    expect(history.history.map((entry: Args) => [entry.version, entry.change_type, entry.state, entry.reason])).toEqual([
      [5, "state_changed", "OPEN", "New facts"],
      [4, "state_changed", "RESOLVED", undefined],
      [3, "state_changed", "OPEN", undefined],
      [2, "state_changed", "LATER", "Waiting on benchmarks"],
      [1, "created", "OPEN", undefined],
    ]);
  });

  it("keeps the parent's open_children_count in step with its children's states", async () => {
    const workspace = "records/open-counts";
    const { session_id: session } = await create(workspace, { parent_id: null, title: "Parent" });
    await create(workspace, { session_id: session, parent_id: "R001", title: "One" });
    await create(workspace, { session_id: session, parent_id: "R001", title: "Two", state: "LATER", reason: "later" });
    expect(await ok("get_record_ref", { workspace, id: "R001" })).toMatchObject({ children_count: 2, open_children_count: 1 });
    await ok("transition", { workspace, session_id: session, id: "R003", to_state: "OPEN" });
    expect(await ok("get_record_ref", { workspace, id: "R001" })).toMatchObject({ children_count: 2, open_children_count: 2 });
    await ok("transition", { workspace, session_id: session, id: "R002", to_state: "DISCARDED", reason: "dup" });
    expect(await ok("get_record_ref", { workspace, id: "R001" })).toMatchObject({ children_count: 2, open_children_count: 1 });
  });
});

describe("records: tick accounting", () => {
  it("advances the project tick exactly on create, update, transition and save; logs the rest with at_tick", async () => {
    const workspace = "records/ticks";
    const steps: [string, number][] = [];
    const measure = async (label: string, call: () => Promise<unknown>) => {
      const before = await projectTick(workspace);
      await call();
      steps.push([label, (await projectTick(workspace)) - before]);
    };
    let session = "";
    await measure("create_record", async () => {
      session = (await create(workspace, { parent_id: null, title: "T", body: "one" })).session_id;
    });
    await measure("update_record", () => ok("update_record", { workspace, session_id: session, id: "R001", body: "two" }));
    await measure("update_record (no change)", () => ok("update_record", { workspace, session_id: session, id: "R001", body: "two" }));
    await measure("transition", () => ok("transition", { workspace, session_id: session, id: "R001", to_state: "LATER", reason: "r" }));
    await measure("transition (refused)", () =>
      failure("transition", { workspace, session_id: session, id: "R001", to_state: "RESOLVED" }),
    );
    await measure("save_session", () => ok("save_session", { workspace, session_id: session, summary: "checkpoint" }));
    await measure("activate", () => ok("activate", { workspace, session_id: session, id: "R001" }));
    await measure("sync_session", () => ok("sync_session", { workspace, session_id: session }));
    await measure("reads", async () => {
      await ok("search_records", { workspace, query: "two" });
      await ok("get_record_history", { workspace, id: "R001" });
      await ok("get_recent_activity", { workspace });
    });
    await measure("notes_commit (reasoning write)", () => ok("notes_commit", { workspace, content: "not a record write" }));
    await measure("close_session", () => ok("close_session", { workspace, session_id: session }));
    expect(steps).toEqual([
      ["create_record", 1],
      ["update_record", 1],
      ["update_record (no change)", 0],
      ["transition", 1],
      ["transition (refused)", 0],
      ["save_session", 1],
      ["activate", 0],
      ["sync_session", 0],
      ["reads", 0],
      ["notes_commit (reasoning write)", 0],
      ["close_session", 0],
    ]);
    const activity = (await ok("get_recent_activity", { workspace })).activity as { type: string; at_tick: number }[];
    expect(activity.map((entry) => [entry.type, entry.at_tick])).toEqual([
      ["session_closed", 4],
      ["session_synced", 4],
      ["activation", 4],
      ["session_saved", 4],
      ["state_transition", 3],
      ["record_updated", 2],
      ["record_created", 1],
      ["session_started", 0],
    ]);
  });

  it("is a clock separate from the workspace journal: activate, sync and close write no journal row", async () => {
    const workspace = "records/journal";
    const { session_id: s } = await create(workspace, { parent_id: null, title: "T" });
    const journal = await workspaceTick(workspace);
    await ok("activate", { workspace, session_id: s, id: "R001" });
    await ok("sync_session", { workspace, session_id: s });
    expect(await workspaceTick(workspace)).toBe(journal);
    await ok("update_record", { workspace, session_id: s, id: "R001", title: "T2" });
    expect(await workspaceTick(workspace)).toBe(journal + 1);
    await ok("close_session", { workspace, session_id: s });
    expect(await workspaceTick(workspace)).toBe(journal + 1);
  });
});

describe("records: roles and idempotency", () => {
  it("lets a read-role token activate, sync and close, but not write records", async () => {
    const workspace = "records/read-role";
    await create(workspace, { parent_id: null, title: "Public" });
    const reader: RpcOptions = { bearer: await token({ agent: "reader", role: "read" }) };
    const activated = await ok("activate", { workspace, id: "R001" }, reader);
    const session = activated.session_id;
    expect(await ok("sync_session", { workspace, session_id: session }, reader)).toMatchObject({ session_id: session });
    expect(await failure("update_record", { workspace, session_id: session, id: "R001", body: "x" }, reader)).toMatchObject({
      code: "FORBIDDEN",
      details: { required: "write" },
    });
    expect(
      (await failure("create_record", { workspace, parent_id: null, type: "x", title: "t", summary: "", body: "" }, reader)).code,
    ).toBe("FORBIDDEN");
    expect((await failure("save_session", { workspace, session_id: session }, reader)).code).toBe("FORBIDDEN");
    expect(await ok("close_session", { workspace, session_id: session }, reader)).toMatchObject({ deactivated_records: ["R001"] });
  });

  it("replays an idempotent create without a second record or tick", async () => {
    const workspace = "records/idempotent";
    const args = { workspace, parent_id: null, type: "note", title: "Once", summary: "", body: "", idempotency_key: "create-once" };
    const first = await ok("create_record", args);
    const second = await ok("create_record", args);
    expect(second).toEqual(first);
    expect(await projectTick(workspace)).toBe(1);
    expect((await failure("create_record", { ...args, title: "Other" })).code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("accepts project_id as well as workspace, and answers under the seed names and the dotted names", async () => {
    const workspace = "records/names";
    await create(workspace, { parent_id: null, title: "Named" });
    expect(await ok("records.get_ref", { workspace, id: "R001" })).toMatchObject({ id: "R001" });
    expect(await ok("branchmind_get_record_ref", { workspace, id: "R001" })).toMatchObject({ id: "R001" });
    expect(await ok("records.list", { project_id: workspace })).toMatchObject({ records: [{ id: "R001" }] });
  });
});
