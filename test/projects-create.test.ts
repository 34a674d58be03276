// Record-Sync projects (seed 004, docs/projects.md), creating and reading one: create_project with a
// given or a generated id, ALREADY_EXISTS, retry-safe creates (idempotency key, a reservation a crash
// left pending), the records portal's workspace as the id, and get_project (UNKNOWN_ID, the live tick).
// Listing is in test/projects-list.test.ts, project_id resolution in test/projects-resolution.test.ts.

import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createFingerprint } from "../src/capabilities/projects/projects.commands";
import { as, failure, ok, type RpcOptions } from "./helpers/mcp";
import { directory, type ListItem, type Page, type Project, walk } from "./helpers/projects";

describe("create_project", () => {
  it("creates a project under the given id and initializes its workspace", async () => {
    const created = await ok<Project>("create_project", { id: "proj/given", name: "Given", description: "A chosen id" });
    expect(created).toMatchObject({
      id: "proj/given",
      name: "Given",
      description: "A chosen id",
      tick: 0,
      open_records: 0,
      open_sessions: 0,
      // Live from the workspace: its bootstrap (`main`) is event 1.
      as_of_tick: 1,
      status: "ready",
      origin: "created",
      created_by: "alice",
      outcome: "created",
    });
    expect(new Date(created.created).toISOString()).toBe(created.created);
    expect((await ok("status", { workspace: "proj/given" })).workspace_exists).toBe(true);
    const { outcome: _outcome, ...project } = created;
    expect(await ok<Project>("get_project", { id: "proj/given" })).toMatchObject(project);
  });

  it("generates ids from the name under the token's prefix, numbering clashes and skipping ids taken by hand", async () => {
    const team = await as("gen-agent", { workspaces: ["gen/*"] });
    expect((await ok<Project>("create_project", { name: "My App (v2)" }, team)).id).toBe("gen/my-app-v2");
    expect((await ok<Project>("create_project", { name: "My App (v2)" }, team)).id).toBe("gen/my-app-v2-2");
    await ok("create_project", { id: "gen/my-app-v2-3", name: "By hand" }, team);
    expect((await ok<Project>("create_project", { name: "my app v2" }, team)).id).toBe("gen/my-app-v2-4");
    expect((await ok<Project>("create_project", { name: "!!!" }, team)).id).toBe("gen/project");
    const fixed = await failure("create_project", { name: "Nowhere" }, await as("fixed-agent", { workspaces: ["gen/only"] }));
    expect(fixed).toMatchObject({ code: "FORBIDDEN", details: { granted: ["gen/only"] } });
  });

  it("refuses a duplicate id with ALREADY_EXISTS, also for a workspace written before it was registered", async () => {
    await ok("create_project", { id: "proj/dup", name: "First" });
    const again = await failure("create_project", { id: "proj/dup", name: "Second" });
    expect(again).toMatchObject({ code: "ALREADY_EXISTS", details: { id: "proj/dup", name: "First", status: "ready" } });
    expect(again.actions?.[0]).toMatchObject({ tool: "get_project", args: { id: "proj/dup" } });
    // The same create repeated without a key is a duplicate too once it is ready.
    expect((await failure("create_project", { id: "proj/dup", name: "First" })).code).toBe("ALREADY_EXISTS");
    // A workspace with writes whose summary has not been pushed yet (its alarm is still pending).
    await ok("notes_commit", { workspace: "proj/written", content: "already here" });
    expect((await failure("create_project", { id: "proj/written", name: "Adopt?" })).code).toBe("ALREADY_EXISTS");
    expect(await ok<Project>("get_project", { id: "proj/written" })).toMatchObject({ name: "proj/written", origin: "workspace" });
  });

  it("is retry-safe: the same idempotency_key returns the first create, another create with it is refused", async () => {
    const keyed = await as("key-agent", { workspaces: ["keyed/*"] });
    const first = await ok<Project>("create_project", { name: "Keyed", idempotency_key: "k-1" }, keyed);
    expect(first).toMatchObject({ id: "keyed/keyed", outcome: "created" });
    const replay = await ok<Project>("create_project", { name: "Keyed", idempotency_key: "k-1" }, keyed);
    expect(replay).toMatchObject({ id: "keyed/keyed", outcome: "replayed", created: first.created });
    expect((await walk(keyed, 50)).ids).toEqual(["keyed/keyed"]);
    const reused = await failure("create_project", { name: "Other", idempotency_key: "k-1" }, keyed);
    expect(reused).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", details: { project: "keyed/keyed" } });
    // Keys belong to their agent: another agent's k-1 is a new create.
    const other = await as("key-agent-2", { workspaces: ["keyed/*"] });
    expect((await ok<Project>("create_project", { name: "Keyed", idempotency_key: "k-1" }, other)).id).toBe("keyed/keyed-2");
  });

  it("finishes a create that stopped between the reservation and the workspace's initialization", async () => {
    const id = "proj/crashed";
    // The first half of a create that crashed: the Directory holds a pending reservation, no workspace.
    const reserved = await directory().reserveProject({
      id,
      name: "Crashed",
      description: null,
      agent_id: "alice",
      key: null,
      fingerprint: createFingerprint(id, "Crashed", null),
    });
    expect(reserved).toMatchObject({ ok: true, value: { outcome: "reserved", project: { id, status: "pending" } } });
    expect((await ok("status", { workspace: id })).workspace_exists).toBe(false);
    const listed = await ok<Page>("list_projects", {}, await as("crash-viewer", { workspaces: ["proj/crashed"] }));
    expect(listed.projects).toEqual([expect.objectContaining({ id, pending: true })]);
    // Another create of that id is still a duplicate...
    expect((await failure("create_project", { id, name: "Someone else" })).code).toBe("ALREADY_EXISTS");
    // ...but the retry of the same create completes it.
    const retried = await ok<Project>("create_project", { id, name: "Crashed" });
    expect(retried).toMatchObject({ id, status: "ready", outcome: "resumed" });
    expect((await ok("status", { workspace: id })).workspace_exists).toBe(true);
    expect((await failure("create_project", { id, name: "Crashed" })).code).toBe("ALREADY_EXISTS");
  });

  it("treats the records portal's workspace as the project id and refuses a different id beside it", async () => {
    const portals: RpcOptions = { path: "/mcp?toolset=portals" };
    const created = await ok(
      "records",
      { workspace: "proj/portal", op: "call", cmd: "create_project", args: { name: "Via portal" } },
      portals,
    );
    expect(created).toMatchObject({ id: "proj/portal", outcome: "created" });
    expect(created.capsule.where.workspace).toBe("proj/portal");
    const twice = await failure(
      "records",
      { workspace: "proj/portal", op: "call", cmd: "create_project", args: { id: "proj/other", name: "x" } },
      portals,
    );
    expect(twice).toMatchObject({
      code: "INVALID_INPUT",
      details: { fields: ["workspace", "id"], workspace: "proj/portal", id: "proj/other" },
    });
  });
});

describe("get_project", () => {
  it("answers UNKNOWN_ID for a project that does not exist, pointing at list_projects", async () => {
    const missing = await failure("get_project", { id: "proj/missing" });
    expect(missing).toMatchObject({ code: "UNKNOWN_ID", details: { id: "proj/missing" } });
    expect(missing.actions?.[0]).toMatchObject({ tool: "list_projects" });
  });

  it("reads the workspace's live tick, while list_projects waits for the summary push", async () => {
    const id = "proj/live";
    await ok("create_project", { id, name: "Live" });
    await runDurableObjectAlarm(env.WORKSPACES.getByName(id));
    const viewer = await as("live-viewer", { workspaces: [id] });
    const pushed = (await ok<Page>("list_projects", {}, viewer)).projects[0] as ListItem;
    await ok("notes_commit", { workspace: id, content: "one more event" });
    const live = await ok<Project>("get_project", { id });
    expect(live.as_of_tick).toBe(pushed.as_of_tick + 1);
    expect((await ok<Page>("list_projects", {}, viewer)).projects[0]?.as_of_tick).toBe(pushed.as_of_tick);
    expect(await runDurableObjectAlarm(env.WORKSPACES.getByName(id))).toBe(true);
    expect((await ok<Page>("list_projects", {}, viewer)).projects[0]?.as_of_tick).toBe(live.as_of_tick);
  });
});
