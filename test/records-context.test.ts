// End-to-end: Record-Sync activation through the real MCP endpoint (toolset=full): activation requirements
// (NOT_ACTIVATED, PARENT_NOT_ACTIVATED), the context bundle an activation loads and its bounds.
import { describe, expect, it } from "vitest";
import { as, failure, ok } from "./helpers/mcp";
import { create } from "./helpers/records-fixtures";

describe("records: activation is required", () => {
  it("answers NOT_ACTIVATED and PARENT_NOT_ACTIVATED, for another session and for an agent without one", async () => {
    const workspace = "records/not-activated";
    const { session_id: s1 } = await create(workspace, { parent_id: null, title: "Root" });
    const bob = await as("bob");
    // Bob has no session at all.
    expect(await failure("update_record", { workspace, id: "R001", body: "x" }, bob)).toMatchObject({ code: "NOT_ACTIVATED" });
    expect(await failure("transition", { workspace, id: "R001", to_state: "LATER", reason: "x" }, bob)).toMatchObject({
      code: "NOT_ACTIVATED",
    });
    const orphan = await failure("create_record", { workspace, parent_id: "R001", type: "x", title: "t", summary: "", body: "" }, bob);
    expect(orphan).toMatchObject({ code: "PARENT_NOT_ACTIVATED", actions: [{ tool: "activate", args: { id: "R001" } }] });
    // Bob starts a session with another record: R001 is still not active in it.
    const other = await create(workspace, { parent_id: null, title: "Bob's root" }, bob);
    const s2 = other.session_id as string;
    expect(await failure("update_record", { workspace, session_id: s2, id: "R001", body: "x" }, bob)).toMatchObject({
      code: "NOT_ACTIVATED",
      details: { record_id: "R001", session_id: s2 },
      actions: [{ tool: "activate", args: { id: "R001", session_id: s2 } }],
    });
    expect(
      await failure("create_record", { workspace, session_id: s2, parent_id: "R001", type: "x", title: "t", summary: "", body: "" }, bob),
    ).toMatchObject({ code: "PARENT_NOT_ACTIVATED", details: { parent_id: "R001", session_id: s2 } });
    expect((await failure("update_record", { workspace, session_id: s1, id: "R404", body: "x" })).code).toBe("RECORD_NOT_FOUND");
    // After activation Bob may write.
    await ok("activate", { workspace, session_id: s2, id: "R001" }, bob);
    const child = await create(workspace, { session_id: s2, parent_id: "R001", title: "Bob's child" }, bob);
    expect(child.record).toMatchObject({ id: "R003", parent_id: "R001" });
  });
});

describe("records: the context bundle", () => {
  it("loads target and parent in full, OPEN children in full, others and grandchildren as refs, with warnings", async () => {
    const workspace = "records/bundle";
    const { session_id: s } = await create(workspace, { parent_id: null, title: "Root", body: "Root body" });
    await create(workspace, { session_id: s, parent_id: "R001", title: "Target", body: "Target body" });
    await create(workspace, { session_id: s, parent_id: "R002", title: "Open child", body: "Open child body" });
    await create(workspace, {
      session_id: s,
      parent_id: "R002",
      title: "Later child",
      body: "Later body",
      state: "LATER",
      reason: "later",
    });
    await create(workspace, { session_id: s, parent_id: "R003", title: "Grandchild", body: "Grandchild body" });
    await create(workspace, { session_id: s, parent_id: "R004", title: "Grandchild 2", body: "G2 body" });
    await ok("transition", { workspace, session_id: s, id: "R001", to_state: "DISCARDED", reason: "superseded" });

    const bob = await as("bob");
    const activated = await ok("activate", { workspace, id: "R002" }, bob);
    expect(activated).toMatchObject({ session_id: "S002", session_started: true, already_loaded: false, active_records: ["R002"] });
    const context = activated.context;
    expect(context.target).toMatchObject({ id: "R002", body: "Target body" });
    expect(context.parent).toMatchObject({ id: "R001", body: "Root body", state: "DISCARDED" });
    expect(context.children.open).toEqual([expect.objectContaining({ id: "R003", body: "Open child body" })]);
    expect(context.children.open_refs).toEqual([]);
    expect(context.children.other).toEqual([
      {
        id: "R004",
        type: "note",
        title: "Later child",
        summary: "",
        state: "LATER",
        parent_id: "R002",
        children_count: 1,
        open_children_count: 1,
      },
    ]);
    expect(context.grandchildren.map((ref: { id: string }) => ref.id)).toEqual(["R005", "R006"]);
    expect(context.grandchildren[0].body).toBeUndefined();
    expect(context.counts).toEqual({ open_children: 1, other_children: 1, grandchildren: 2, omitted: 0 });
    expect(context.warnings.map((warning: { type: string }) => warning.type)).toEqual(["conflict", "orphan"]);
    expect(activated.conflict).toMatchObject({ session_id: "S001", agent_id: "alice" });

    // The root has no parent and no conflict for a fresh reader.
    const root = await ok("activate", { workspace, id: "R001", session_id: "S002" }, bob);
    expect(root.context.parent).toBeNull();
    expect(root.context.grandchildren.map((ref: { id: string }) => ref.id)).toEqual(["R003", "R004"]);
  });

  it("degrades OPEN children to refs past the budget, with a budget warning and counts", async () => {
    const workspace = "records/bundle-budget";
    const { session_id: s } = await create(workspace, { parent_id: null, title: "Root", body: "short" });
    for (let i = 0; i < 5; i++) await create(workspace, { session_id: s, parent_id: "R001", title: `Child ${i}`, body: "x".repeat(1_500) });
    const full = await ok("activate", { workspace, session_id: s, id: "R001" });
    expect(full.context.children.open).toHaveLength(5);
    const tight = await ok("activate", { workspace, session_id: s, id: "R001", max_chars: 4_000 });
    const context = tight.context;
    expect(JSON.stringify(context).length).toBeLessThanOrEqual(4_000);
    expect(context.children.open.map((child: { id: string }) => child.id)).toEqual(["R006"]);
    expect(context.children.open_refs.map((child: { id: string }) => child.id)).toEqual(["R002", "R003", "R004", "R005"]);
    expect(context.counts).toMatchObject({ open_children: 5, omitted: 0 });
    expect(context.warnings).toEqual([
      expect.objectContaining({ type: "budget", details: expect.objectContaining({ open_children_full: 1, open_children_as_refs: 4 }) }),
    ]);
    expect((await failure("activate", { workspace, id: "R001", max_chars: 10 })).code).toBe("INVALID_INPUT");
  });

  it("re-activation says already_loaded and whether the record changed since it was loaded", async () => {
    const workspace = "records/reactivate";
    const { session_id: s1 } = await create(workspace, { parent_id: null, title: "Shared", body: "v1" });
    const bob = await as("bob");
    const first = await ok("activate", { workspace, id: "R001" }, bob);
    const s2 = first.session_id;
    const same = await ok("activate", { workspace, session_id: s2, id: "R001" }, bob);
    expect(same).toMatchObject({ already_loaded: true, changed_since_load: false, loaded_version: 1, session_started: false });
    await ok("update_record", { workspace, session_id: s1, id: "R001", body: "v2" });
    const changed = await ok("activate", { workspace, session_id: s2, id: "R001" }, bob);
    expect(changed).toMatchObject({
      already_loaded: true,
      changed_since_load: true,
      loaded_version: 1,
      context: { target: { body: "v2", version: 2 } },
    });
    // Loaded again: the next re-activation sees no change, and Bob's update is not a conflict.
    expect(await ok("activate", { workspace, session_id: s2, id: "R001" }, bob)).toMatchObject({
      changed_since_load: false,
      loaded_version: 2,
    });
    expect(await ok("update_record", { workspace, session_id: s2, id: "R001", body: "v3" }, bob)).toMatchObject({ applied: true });
  });
});
