// End-to-end: Record-Sync sessions through the real MCP endpoint (toolset=full): seed 004's four
// workflow patterns, with two agents and with two sessions of one agent; session selection and its
// typed errors; stale detection by tick gap; sync paging; save and close.
import { describe, expect, it } from "vitest";
import { as, failure, ok, type RpcOptions } from "./helpers/mcp";

type Args = Record<string, unknown>;

async function create(workspace: string, fields: Args, options: RpcOptions = {}) {
  return ok("create_record", { workspace, type: "note", summary: "", body: "", ...fields }, options);
}

async function activityTypes(workspace: string, record_id?: string): Promise<string[]> {
  const page = await ok("get_recent_activity", { workspace, ...(record_id ? { record_id } : {}) });
  return (page.activity as { type: string }[]).map((entry) => entry.type);
}

describe("records: workflow patterns", () => {
  it("Pattern 1 — continue existing work: overview, activate, update, create child, save, close", async () => {
    const workspace = "records/pattern1";
    const seed = await create(workspace, { parent_id: null, type: "question", title: "Cache design", body: "How do we cache?" });
    await ok("close_session", { workspace, session_id: seed.session_id });

    const overview = await ok("get_project_overview", { workspace });
    expect(overview).toMatchObject({
      project: { id: workspace, tick: 1 },
      open_sessions: [],
      root_records: [{ id: "R001", state: "OPEN" }],
      open_records: [{ id: "R001" }],
      later_records: [],
    });
    const activated = await ok("activate", { workspace, id: "R001" });
    const session = activated.session_id;
    expect(activated).toMatchObject({ session_started: true, already_loaded: false, context: { target: { id: "R001" } } });
    expect(activated.conflict).toBeUndefined();
    await ok("update_record", { workspace, session_id: session, id: "R001", body: "How do we cache? LRU." });
    const child = await create(workspace, { session_id: session, parent_id: "R001", type: "question", title: "Eviction" });
    expect(child).toMatchObject({ session_id: session, record: { id: "R002" } });
    const saved = await ok("save_session", { workspace, session_id: session, summary: "LRU chosen" });
    expect(saved).toMatchObject({ success: true, saved_records: ["R001", "R002"], project_tick: 4 });
    await ok("update_record", { workspace, session_id: session, id: "R002", summary: "More work" });
    const closed = await ok("close_session", { workspace, session_id: session });
    expect(closed).toMatchObject({ success: true, deactivated_records: ["R001", "R002"], unsaved_records: ["R002"] });
    expect(closed.unsaved_warning).toContain("R002");
    expect((await ok("get_project_overview", { workspace })).open_sessions).toEqual([]);
  });

  it("Pattern 2 — start a new topic: create_record without a session starts one and auto-activates", async () => {
    const workspace = "records/pattern2";
    const overview = await ok("get_project_overview", { workspace });
    expect(overview).toMatchObject({ project: { tick: 0 }, root_records: [], open_records: [] });
    const topic = await create(workspace, { parent_id: null, type: "question", title: "New topic" });
    expect(topic).toMatchObject({ session_started: true, auto_activated: true, record: { id: "R001" } });
    // The only open session is used without naming it.
    const sub = await create(workspace, { parent_id: "R001", title: "Sub-question" });
    expect(sub).toMatchObject({ session_started: false, session_id: topic.session_id, record: { parent_id: "R001" } });
    expect((await ok("save_session", { workspace })).saved_records).toEqual(["R001", "R002"]);
    expect((await ok("close_session", { workspace })).deactivated_records).toEqual(["R001", "R002"]);
    expect(await activityTypes(workspace)).toEqual([
      "session_closed",
      "session_saved",
      "record_created",
      "record_created",
      "session_started",
    ]);
  });

  it("Pattern 3 — a new chat for a subtopic, by another agent: the parent is in its context; sync shows the resolution", async () => {
    const workspace = "records/pattern3-agents";
    const s1 = (await create(workspace, { parent_id: null, type: "question", title: "R-main" })).session_id;
    for (let i = 2; i <= 7; i++) await create(workspace, { session_id: s1, parent_id: null, title: `Topic ${i}` });
    const sub = await create(workspace, { session_id: s1, parent_id: "R007", type: "question", title: "Subtopic" });
    expect(sub.record.id).toBe("R008");
    await create(workspace, { session_id: s1, parent_id: "R007", type: "conclusion", title: "Answer" });

    const bob = await as("bob");
    const chat = await ok("activate", { workspace, id: "R008" }, bob);
    const s2 = chat.session_id;
    expect(s2).not.toBe(s1);
    expect(chat.context.parent).toMatchObject({ id: "R007", title: "Topic 7" });
    await ok("transition", { workspace, session_id: s2, id: "R008", to_state: "RESOLVED", resolved_by: "R009" }, bob);
    await ok("close_session", { workspace, session_id: s2 }, bob);

    const synced = await ok("sync_session", { workspace, session_id: s1 });
    expect(synced).toMatchObject({ session_tick_before: 9, project_tick: 10, tick_gap: 1, last_sync_tick: 10, has_more: false });
    expect(synced.changes).toEqual([
      expect.objectContaining({
        record_id: "R008",
        change_type: "state_changed",
        old_value: { state: "OPEN" },
        new_value: { state: "RESOLVED", resolved_by: "R009" },
        by_session: s2,
        by_agent: "bob",
        at_tick: 10,
        active_in_session: true,
      }),
    ]);
  });

  it("Pattern 3 — with two sessions of one agent: a branched session, session_branched in the activity", async () => {
    const workspace = "records/pattern3-sessions";
    const s1 = (await create(workspace, { parent_id: null, title: "R1" })).session_id;
    await create(workspace, { session_id: s1, parent_id: "R001", type: "question", title: "Subtopic" });
    const chat = await ok("activate", { workspace, id: "R002", parent_session: s1 });
    const s2 = chat.session_id;
    expect(s2).toBe("S002");
    expect(chat.context.parent).toMatchObject({ id: "R001" });
    // R002 is active in S001 too (auto-activated there): the activation still happens and reports it.
    expect(chat.conflict).toMatchObject({ session_id: s1 });
    const activity = (await ok("get_recent_activity", { workspace, types: ["session_branched"] })).activity;
    expect(activity).toEqual([
      expect.objectContaining({ session_id: s2, record_id: "R002", details: expect.objectContaining({ parent_session: s1 }) }),
    ]);
    expect((await ok("get_active_sessions", { workspace, record_id: "R002", session_id: s2 })).sessions).toEqual([
      expect.objectContaining({ session_id: s1, is_current: false }),
      expect.objectContaining({ session_id: s2, is_current: true }),
    ]);
    await ok("update_record", { workspace, session_id: s2, id: "R002", body: "deep work" });
    await ok("transition", { workspace, session_id: s2, id: "R002", to_state: "RESOLVED", resolved_by: "R001" });
    await ok("close_session", { workspace, session_id: s2 });
    const synced = await ok("sync_session", { workspace, session_id: s1 });
    expect(synced.changes.map((change: Args) => [change.record_id, change.change_type, change.by_session])).toEqual([
      ["R002", "modified", s2],
      ["R002", "state_changed", s2],
    ]);
    expect(synced.changes[0]).toMatchObject({ fields: ["body"] });
  });

  it("Pattern 4 — conflict resolution between two agents: the second update is reported, then forced", async () => {
    const workspace = "records/pattern4-agents";
    const s1 = (await create(workspace, { parent_id: null, title: "R7", body: "original" })).session_id;
    const bob = await as("bob");
    const s2 = (await ok("activate", { workspace, id: "R001" }, bob)).session_id;
    const a = await ok("update_record", { workspace, session_id: s1, id: "R001", body: "version A" });
    expect(a).toMatchObject({ applied: true, record: { body: "version A", version: 2 } });
    const tickBefore = a.project_tick;
    const b = await ok("update_record", { workspace, session_id: s2, id: "R001", body: "version B" }, bob);
    expect(b).toMatchObject({
      applied: false,
      project_tick: tickBefore,
      record: { body: "version A" },
      conflict: { by_session: s1, modified_tick: tickBefore, other_version: { body: "version A", version: 2, modified_by_session: s1 } },
    });
    expect(b.conflict.message).toContain("force: true");
    // Nothing was written.
    expect((await ok("get_record_history", { workspace, id: "R001" })).history).toHaveLength(2);
    const merged = await ok("update_record", { workspace, session_id: s2, id: "R001", body: "merged version", force: true }, bob);
    expect(merged).toMatchObject({
      applied: true,
      record: { body: "merged version", version: 3, modified_by_session: s2 },
      conflict_overridden: { by_session: s1, overridden_version: 2 },
    });
    expect(await activityTypes(workspace, "R001")).toEqual([
      "conflict_resolved",
      "record_updated",
      "conflict_detected",
      "record_updated",
      "conflict_detected",
      "activation",
      "session_started",
      "record_created",
    ]);
    expect((await ok("get_record_history", { workspace, id: "R001" })).history[0]).toMatchObject({ version: 3, forced: true });
    // S1 now sees B's merge as a change; its own next update would conflict until it syncs.
    const stale = await ok("update_record", { workspace, session_id: s1, id: "R001", body: "A again" });
    expect(stale).toMatchObject({ applied: false, conflict: { by_session: s2 } });
    await ok("sync_session", { workspace, session_id: s1 });
    expect(await ok("update_record", { workspace, session_id: s1, id: "R001", body: "A again" })).toMatchObject({ applied: true });
  });

  it("Pattern 4 — with two sessions of one agent, and a transition over another session's change is CONFLICT unless force", async () => {
    const workspace = "records/pattern4-sessions";
    const s1 = (await create(workspace, { parent_id: null, title: "Shared" })).session_id;
    await create(workspace, { session_id: s1, parent_id: null, title: "Resolver" });
    const s2 = (await ok("activate", { workspace, id: "R001" })).session_id;
    await ok("update_record", { workspace, session_id: s2, id: "R001", title: "Shared (edited in S2)" });
    const refused = await failure("transition", { workspace, session_id: s1, id: "R001", to_state: "RESOLVED", resolved_by: "R002" });
    expect(refused).toMatchObject({ code: "CONFLICT", details: { by_session: s2 }, actions: [{ tool: "activate" }] });
    expect((await ok("get_record_ref", { workspace, id: "R001" })).state).toBe("OPEN");
    const forced = await ok("transition", {
      workspace,
      session_id: s1,
      id: "R001",
      to_state: "RESOLVED",
      resolved_by: "R002",
      force: true,
    });
    expect(forced.record).toMatchObject({ state: "RESOLVED", version: 3 });
    expect((await ok("get_recent_activity", { workspace, types: ["conflict_resolved"] })).activity).toEqual([
      expect.objectContaining({ session_id: s1, record_id: "R001", details: expect.objectContaining({ command: "transition" }) }),
    ]);
  });
});

describe("records: session selection", () => {
  it("uses the only open session, and lists them all when there are several (SESSION_REQUIRED)", async () => {
    const workspace = "records/selection";
    const s1 = (await create(workspace, { parent_id: null, title: "One" })).session_id;
    expect((await ok("sync_session", { workspace })).session_id).toBe(s1);
    const s2 = (await ok("activate", { workspace, id: "R001" })).session_id;
    const ambiguous = await failure("update_record", { workspace, id: "R001", body: "x" });
    expect(ambiguous).toMatchObject({
      code: "SESSION_REQUIRED",
      details: {
        sessions: [
          { session_id: s1, active_records: ["R001"] },
          { session_id: s2, active_records: ["R001"] },
        ],
        has_more: false,
      },
    });
    expect(ambiguous.actions?.map((action) => action.args.session_id)).toEqual([s1, s2]);
    for (const tool of ["sync_session", "save_session", "close_session"])
      expect((await failure(tool, { workspace })).code).toBe("SESSION_REQUIRED");
    // Another agent's sessions do not count for Bob, and are not Bob's to use.
    const bob = await as("bob");
    expect((await failure("sync_session", { workspace }, bob)).code).toBe("SESSION_NOT_FOUND");
    expect(await failure("sync_session", { workspace, session_id: s1 }, bob)).toMatchObject({
      code: "FORBIDDEN",
      details: { owner: "alice" },
    });
    expect((await failure("sync_session", { workspace, session_id: "S999" })).code).toBe("SESSION_NOT_FOUND");
    expect((await failure("activate", { workspace, id: "R001", session_id: "S999" })).code).toBe("SESSION_NOT_FOUND");
    expect((await failure("activate", { workspace, id: "R001", parent_session: "S999" })).code).toBe("SESSION_NOT_FOUND");
    expect((await failure("activate", { workspace, id: "R001", session_id: s1, parent_session: s2 })).code).toBe("INVALID_INPUT");
  });

  it("refuses a closed session for sync, save and close, and resumes it fresh on activate", async () => {
    const workspace = "records/closed";
    const s1 = (await create(workspace, { parent_id: null, title: "One" })).session_id;
    await create(workspace, { session_id: s1, parent_id: null, title: "Two" });
    await ok("close_session", { workspace, session_id: s1 });
    for (const tool of ["sync_session", "save_session", "close_session"]) {
      expect(await failure(tool, { workspace, session_id: s1 }), tool).toMatchObject({
        code: "SESSION_NOT_FOUND",
        details: { status: "closed" },
      });
    }
    expect((await failure("update_record", { workspace, session_id: s1, id: "R001", body: "x" })).code).toBe("SESSION_NOT_FOUND");
    const resumed = await ok("activate", { workspace, session_id: s1, id: "R002" });
    expect(resumed).toMatchObject({ session_id: s1, session_resumed: true, session_started: false, active_records: ["R002"] });
    expect((await failure("update_record", { workspace, session_id: s1, id: "R001", body: "x" })).code).toBe("NOT_ACTIVATED");
    // Its unsaved changes count from the resume.
    expect((await ok("close_session", { workspace, session_id: s1 })).unsaved_records).toBeUndefined();
  });
});

describe("records: stale sessions and sync", () => {
  it("marks a session stale past its threshold of project writes, warns on activate and sync, and sync pages", async () => {
    const workspace = "records/stale";
    const watcher = (await create(workspace, { parent_id: null, title: "Watched", stale_after_ticks: 3 })).session_id;
    const bob = await as("bob");
    const writer = (await create(workspace, { parent_id: null, title: "Bob's" }, bob)).session_id;
    for (let i = 1; i <= 3; i++) await ok("update_record", { workspace, session_id: writer, id: "R002", body: `edit ${i}` }, bob);
    // Bob's own writes keep Bob in sync; Alice's session is 4 writes behind, threshold 3.
    const sessions = (await ok("get_active_sessions", { workspace })).sessions;
    expect(sessions).toEqual([
      expect.objectContaining({ session_id: watcher, status: "stale", tick_gap: 4, is_current: true }),
      expect.objectContaining({ session_id: writer, status: "active", tick_gap: 0, is_current: false }),
    ]);
    expect((await ok("get_project_overview", { workspace })).open_sessions[0]).toMatchObject({ id: watcher, status: "stale", tick_gap: 4 });
    const activated = await ok("activate", { workspace, session_id: watcher, id: "R002" });
    expect(activated.session_status).toBe("stale");
    expect(activated.context.warnings.map((warning: { type: string }) => warning.type)).toEqual(["conflict", "stale"]);

    const page1 = await ok("sync_session", { workspace, session_id: watcher, limit: 3 });
    expect(page1).toMatchObject({ session_tick_before: 1, project_tick: 5, tick_gap: 4, has_more: true, last_sync_tick: 4 });
    expect(page1.warning).toContain("4 writes");
    expect(page1.changes.map((change: Args) => [change.at_tick, change.change_type])).toEqual([
      [2, "created"],
      [3, "modified"],
      [4, "modified"],
    ]);
    const page2 = await ok("sync_session", { workspace, session_id: watcher, limit: 3 });
    expect(page2).toMatchObject({ session_tick_before: 4, tick_gap: 1, has_more: false, last_sync_tick: 5, session_status: "active" });
    expect(page2.warning).toBeUndefined();
    expect(page2.changes.map((change: Args) => change.at_tick)).toEqual([5]);
    expect((await ok("get_active_sessions", { workspace, record_id: "R002" })).sessions[0]).toMatchObject({
      session_id: watcher,
      status: "active",
    });
  });

  it("a session's own writes do not make it stale", async () => {
    const workspace = "records/own-writes";
    const s = (await create(workspace, { parent_id: null, title: "Mine", stale_after_ticks: 2 })).session_id;
    for (let i = 0; i < 5; i++) await ok("update_record", { workspace, session_id: s, id: "R001", body: `edit ${i}` });
    expect((await ok("get_active_sessions", { workspace })).sessions[0]).toMatchObject({ session_id: s, status: "active", tick_gap: 0 });
    expect((await ok("sync_session", { workspace, session_id: s })).changes).toEqual([]);
  });
});
