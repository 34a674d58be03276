// End-to-end: Record-Sync history, diff, activity and active sessions through the real MCP endpoint
// (toolset=full): versions with unified body diffs, diffs from a version, a tick, a timestamp or the last
// save, the activity log's filters and paging, and every activity type of seed 004.

import { describe, expect, it } from "vitest";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { as, failure, ok, type RpcOptions } from "./helpers/mcp";

type Args = Record<string, unknown>;

async function create(workspace: string, fields: Args, options: RpcOptions = {}) {
  return ok("create_record", { workspace, type: "note", summary: "", body: "", ...fields }, options);
}

describe("records: history and diff", () => {
  it("lists versions newest first with unified diffs of body changes, and pages them", async () => {
    const workspace = "records/history";
    const s = (await create(workspace, { parent_id: null, title: "Design", body: "line one\nline two\nline three" })).session_id;
    await ok("update_record", { workspace, session_id: s, id: "R001", body: "line one\nline 2\nline three" });
    await ok("update_record", { workspace, session_id: s, id: "R001", title: "Design v2" });
    await ok("transition", { workspace, session_id: s, id: "R001", to_state: "LATER", reason: "Parked for Q3" });
    const history = await ok("get_record_history", { workspace, id: "R001" });
    expect(
      history.history.map((entry: Args) => [entry.version, entry.change_type, entry.summary, entry.session_id, entry.agent_id]),
    ).toEqual([
      [4, "state_changed", "OPEN → LATER", s, "alice"],
      [3, "modified", "changed title", s, "alice"],
      [2, "modified", "changed body", s, "alice"],
      [1, "created", "created OPEN", s, "alice"],
    ]);
    expect(history.history[0]).toMatchObject({ reason: "Parked for Q3", at_tick: 4 });
    expect(history.history[1].diff).toBeUndefined();
    expect(history.history[2].diff).toBe(
      ["--- R001@v1", "+++ R001@v2", "@@ -1,3 +1,3 @@", " line one", "-line two", "+line 2", " line three"].join("\n"),
    );
    const page = await ok("get_record_history", { workspace, id: "R001", limit: 2 });
    expect(page).toMatchObject({ has_more: true, next_cursor: 3 });
    const rest = await ok("get_record_history", { workspace, id: "R001", limit: 2, cursor: page.next_cursor });
    expect(rest.history.map((entry: Args) => entry.version)).toEqual([2, 1]);
    // The diff of version 2 does not depend on which page shows it.
    expect(rest.history[0].diff).toBe(history.history[2].diff);
    expect(rest.has_more).toBe(false);
    expect((await ok("get_record_history", { workspace, id: "R001", since: "2999-01-01T00:00:00Z" })).history).toEqual([]);
    expect((await ok("get_record_history", { workspace, id: "R001", since: "2000-01-01T00:00:00Z" })).history).toHaveLength(4);
    expect((await failure("get_record_history", { workspace, id: "R001", since: "last week" })).code).toBe("INVALID_INPUT");
    expect((await failure("get_record_history", { workspace, id: "R404" })).code).toBe("RECORD_NOT_FOUND");
  });

  it("diffs from a version, a tick, a timestamp or the last save, field by field", async () => {
    const workspace = "records/diff";
    const s = (await create(workspace, { parent_id: null, title: "Plan", summary: "First", body: "a\nb\nc" })).session_id;
    await create(workspace, { session_id: s, parent_id: null, title: "Resolver" });
    await ok("save_session", { workspace, session_id: s });
    await ok("update_record", { workspace, session_id: s, id: "R001", summary: "Second", body: "a\nB\nc", related: ["R002"] });
    await ok("transition", { workspace, session_id: s, id: "R001", to_state: "RESOLVED", resolved_by: "R002" });

    const fromV1 = await ok("get_record_diff", { workspace, id: "R001", from: "v1" });
    expect(fromV1).toMatchObject({
      id: "R001",
      changed: true,
      from_version: { version: 1, summary: "First" },
      to_version: { version: 3, state: "RESOLVED" },
    });
    expect(fromV1.diff).toEqual({
      summary: { old: "First", new: "Second" },
      state: { old: "OPEN", new: "RESOLVED" },
      resolved_by: { old: null, new: "R002" },
      related: { old: [], new: ["R002"] },
      body: ["--- R001@v1", "+++ R001@v3", "@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"].join("\n"),
    });
    // The last save was at tick 3 (after R001 v1 at tick 1): the same as v1.
    expect((await ok("get_record_diff", { workspace, id: "R001", from: "last_save" })).diff).toEqual(fromV1.diff);
    // As of tick 4 (the update), to v3: only the state moved.
    const fromTick = await ok("get_record_diff", { workspace, id: "R001", from: "tick:4", to: "v3" });
    expect(fromTick).toMatchObject({ from_version: { version: 2 }, to_version: { version: 3 } });
    expect(fromTick.diff).toEqual({ state: { old: "OPEN", new: "RESOLVED" }, resolved_by: { old: null, new: "R002" } });
    expect(await ok("get_record_diff", { workspace, id: "R001", from: "2999-01-01T00:00:00Z" })).toMatchObject({
      changed: false,
      diff: {},
      from_version: { version: 3 },
    });
    expect(await failure("get_record_diff", { workspace, id: "R001", from: "2000-01-01T00:00:00Z" })).toMatchObject({
      code: "INVALID_INPUT",
      details: { field: "from" },
    });
    expect((await failure("get_record_diff", { workspace, id: "R001", from: "v9" })).code).toBe("INVALID_INPUT");
    expect((await failure("get_record_diff", { workspace, id: "R001", from: "tick:0" })).code).toBe("INVALID_INPUT");
    expect((await failure("get_record_diff", { workspace, id: "R001", from: "yesterday" })).code).toBe("INVALID_INPUT");
  });
});

describe("records: activity and sessions", () => {
  it("emits every activity type of seed 004 and filters by type, record, since_tick, with paging", async () => {
    const workspace = "records/activity";
    const s1 = (await create(workspace, { parent_id: null, title: "Topic" })).session_id;
    await create(workspace, { session_id: s1, parent_id: "R001", title: "Conclusion", type: "conclusion" });
    const bob = await as("bob");
    const s2 = (await ok("activate", { workspace, id: "R001" }, bob)).session_id;
    await ok("update_record", { workspace, session_id: s1, id: "R001", body: "A" });
    await ok("update_record", { workspace, session_id: s2, id: "R001", body: "B" }, bob);
    await ok("update_record", { workspace, session_id: s2, id: "R001", body: "B", force: true }, bob);
    await ok("transition", { workspace, session_id: s1, id: "R002", to_state: "LATER", reason: "later" });
    await ok("save_session", { workspace, session_id: s1 });
    await ok("activate", { workspace, id: "R002", parent_session: s1 });
    await ok("sync_session", { workspace, session_id: s1 });
    await ok("close_session", { workspace, session_id: s2 }, bob);

    const all = await ok("get_recent_activity", { workspace, limit: 200 });
    const types = new Set((all.activity as { type: string }[]).map((entry) => entry.type));
    for (const type of [
      "record_created",
      "record_updated",
      "state_transition",
      "session_started",
      "session_saved",
      "session_closed",
      "session_branched",
      "activation",
      "conflict_detected",
      "conflict_resolved",
      "session_synced",
    ]) {
      expect(types.has(type), type).toBe(true);
    }
    const ids = (all.activity as { id: number }[]).map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const updates = await ok("get_recent_activity", { workspace, types: ["record_updated"] });
    expect(updates.activity.map((entry: Args) => [entry.session_id, entry.at_tick])).toEqual([
      [s2, 4],
      [s1, 3],
    ]);
    const forR002 = await ok("get_recent_activity", { workspace, record_id: "R002" });
    // R002 is still active in S001 (auto-activated there), so the branched session's activation reports a conflict.
    expect(forR002.activity.map((entry: Args) => entry.type)).toEqual([
      "conflict_detected",
      "activation",
      "session_branched",
      "state_transition",
      "record_created",
    ]);
    const recent = await ok("get_recent_activity", { workspace, since_tick: 4 });
    expect(recent.activity.every((entry: { at_tick: number }) => entry.at_tick > 4)).toBe(true);
    expect(recent.activity.length).toBeGreaterThan(0);

    const first = await ok("get_recent_activity", { workspace, limit: 3 });
    expect(first).toMatchObject({ has_more: true, next_cursor: ids[2] });
    const second = await ok("get_recent_activity", { workspace, limit: 3, cursor: first.next_cursor });
    expect(second.activity.map((entry: { id: number }) => entry.id)).toEqual(ids.slice(3, 6));
    expect((await failure("get_recent_activity", { workspace, types: ["nope"] })).code).toBe("INVALID_INPUT");
  });

  it("get_active_sessions lists who has a record active, with is_current", async () => {
    const workspace = "records/active-sessions";
    const s1 = (await create(workspace, { parent_id: null, title: "Busy" })).session_id;
    const bob = await as("bob");
    const s2 = (await ok("activate", { workspace, id: "R001" }, bob)).session_id;
    const fromAlice = await ok("get_active_sessions", { workspace, record_id: "R001" });
    expect(fromAlice).toMatchObject({ record_id: "R001", has_more: false });
    expect(fromAlice.sessions).toEqual([
      expect.objectContaining({ session_id: s1, agent_id: "alice", is_current: true, status: "active", active_records_count: 1 }),
      expect.objectContaining({ session_id: s2, agent_id: "bob", is_current: false }),
    ]);
    await ok("close_session", { workspace, session_id: s2 }, bob);
    expect((await ok("get_active_sessions", { workspace, record_id: "R001" }, bob)).sessions).toEqual([
      expect.objectContaining({ session_id: s1, is_current: false }),
    ]);
    expect((await failure("get_active_sessions", { workspace, record_id: "R404" })).code).toBe("RECORD_NOT_FOUND");
  });

  it("the overview bounds its lists and reports totals", async () => {
    const workspace = "records/overview";
    const s = (await create(workspace, { parent_id: null, title: "Root 1" })).session_id;
    for (let i = 2; i <= 4; i++) await create(workspace, { session_id: s, parent_id: null, title: `Root ${i}` });
    await create(workspace, { session_id: s, parent_id: null, title: "Deferred", state: "LATER", reason: "later" });
    const overview = await ok("get_project_overview", { workspace, limit: 2 });
    expect(overview).toMatchObject({
      project: { id: workspace, tick: 5 },
      root_records_total: 5,
      open_records_total: 4,
      later_records_total: 1,
      open_sessions_total: 1,
      totals_capped: false,
    });
    expect(overview.root_records.map((ref: { id: string }) => ref.id)).toEqual(["R001", "R002"]);
    expect(overview.open_records.map((ref: { id: string }) => ref.id)).toEqual(["R001", "R002"]);
    expect(overview.later_records.map((ref: { id: string }) => ref.id)).toEqual(["R005"]);
    expect(overview.open_sessions).toEqual([
      {
        id: s,
        agent_id: "alice",
        status: "active",
        active_records: ["R001", "R002", "R003", "R004", "R005"],
        last_sync_tick: 5,
        tick_gap: 0,
      },
    ]);
    expect(overview.recent_activity).toHaveLength(6);
    expect(overview.budget.used_chars).toBeGreaterThan(MIN_BUDGET_CHARS);
    const tight = await ok("get_project_overview", { workspace, max_chars: MIN_BUDGET_CHARS });
    expect(tight.budget).toMatchObject({ max_chars: MIN_BUDGET_CHARS, truncated: true });
    expect(JSON.stringify({ ...tight, budget: undefined }).length).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
  });
});
