// Record-Sync projects end to end (seed 004, docs/projects.md): create_project with a given or a
// generated id, ALREADY_EXISTS, retry-safe creates (idempotency key, a reservation a crash left
// pending), get_project, list_projects over 200+ projects (pages, one call, budget), summaries pushed
// by the workspace alarm, token patterns, project_id resolution and the agent's default project.

import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createFingerprint } from "../src/capabilities/projects/projects.commands";
import type { Principal } from "../src/commands/context";
import { DIRECTORY_NAME } from "../src/directory/directory-object";
import { defaultProjectOf } from "../src/directory/project-ids";
import { resolveProject } from "../src/worker/workspace-resolution";
import { as, failure, ok, type RpcOptions } from "./helpers/mcp";

const directory = () => env.DIRECTORY.getByName(DIRECTORY_NAME);

interface Project {
  id: string;
  name: string;
  description?: string;
  created: string;
  tick: number;
  open_records: number;
  open_sessions: number;
  as_of_tick: number;
  status: string;
  origin: string;
  created_by: string | null;
  outcome?: string;
}

interface ListItem {
  id: string;
  name: string;
  tick: number;
  open_sessions: number;
  open_records: number;
  as_of_tick: number;
  pending?: true;
}

interface Page {
  projects: ListItem[];
  pagination: { cursor: string | null; next_cursor?: string; has_more: boolean; limit: number; count: number };
  budget: { max_chars: number; used_chars: number; truncated: boolean };
}

/** Every project a token sees, page by page. */
async function walk(options: RpcOptions, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await ok<Page>("list_projects", { limit, ...(cursor ? { cursor } : {}) }, options);
    pages++;
    ids.push(...page.projects.map((project) => project.id));
    cursor = page.pagination.next_cursor;
    expect(page.pagination.has_more).toBe(cursor !== undefined);
  } while (cursor !== undefined && pages < 100);
  return { ids, pages };
}

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

describe("list_projects", () => {
  it("lists 200+ projects in pages and in one call, in id order, within the budget", async () => {
    const bulk = await as("bulk-agent", { workspaces: ["bulk/*"] });
    const ids = Array.from({ length: 210 }, (_, index) => `bulk/p-${String(index).padStart(3, "0")}`);
    // Ten through create_project; the other 200 registered straight in the Directory (no workspace to wake).
    const created = ids.filter((_, index) => index % 21 === 0);
    expect(created.length).toBe(10);
    await Promise.all(created.map((id) => ok("create_project", { id, name: `Project ${id.slice(5)}` }, bulk)));
    for (const id of ids.filter((id) => !created.includes(id))) {
      const registered = await directory().ensureProject({
        id,
        name: `Project ${id.slice(5)}`,
        description: null,
        origin: "workspace",
        agent_id: null,
      });
      expect(registered.ok).toBe(true);
    }
    const paged = await walk(bulk, 50);
    expect(paged.ids).toEqual(ids);
    expect(paged.pages).toBe(5);

    const whole = await ok<Page>("list_projects", { limit: 250, budget_profile: "audit" }, bulk);
    expect(whole.projects.map((project) => project.id)).toEqual(ids);
    expect(whole.pagination).toMatchObject({ has_more: false, count: 210, limit: 250 });
    expect(whole.budget.truncated).toBe(false);
    expect(whole.projects[7]).toEqual({
      id: "bulk/p-007",
      name: "Project p-007",
      tick: 0,
      open_sessions: 0,
      open_records: 0,
      as_of_tick: 0,
    });

    // The default page (100) fits the default budget untrimmed.
    const first = await ok<Page>("list_projects", {}, bulk);
    expect(first.projects.length).toBe(100);
    expect(first.budget).toMatchObject({ max_chars: 20_000, truncated: false });

    // A tight budget drops projects from the end, and next_cursor resumes right after the last one shown.
    const tight = await ok<Page>("list_projects", { limit: 250, max_chars: 3_000 }, bulk);
    expect(tight.budget).toMatchObject({ truncated: true });
    expect(tight.budget.used_chars).toBeLessThanOrEqual(3_000);
    const shown = tight.projects.map((project) => project.id);
    expect(shown).toEqual(ids.slice(0, shown.length));
    expect(tight.pagination).toMatchObject({ has_more: true, next_cursor: shown[shown.length - 1] });
    const rest = await ok<Page>("list_projects", { limit: 250, budget_profile: "audit", cursor: tight.pagination.next_cursor }, bulk);
    expect(rest.projects.map((project) => project.id)).toEqual(ids.slice(shown.length));
  });

  it("shows only the projects the token's patterns grant", async () => {
    for (const id of ["scope/a/one", "scope/a/two", "scope/b/one", "scope/c"]) await ok("create_project", { id, name: id });
    expect((await walk(await as("scoped", { workspaces: ["scope/a/*"] }), 10)).ids).toEqual(["scope/a/one", "scope/a/two"]);
    expect((await walk(await as("scoped", { workspaces: ["scope/*/one", "scope/c"] }), 1)).ids).toEqual([
      "scope/a/one",
      "scope/b/one",
      "scope/c",
    ]);
    expect((await walk(await as("scoped", { workspaces: ["scope/**"] }), 2)).ids).toEqual([
      "scope/a/one",
      "scope/a/two",
      "scope/b/one",
      "scope/c",
    ]);
    expect((await walk(await as("scoped", { workspaces: ["elsewhere/*"] }), 10)).ids).toEqual([]);
    // get_project is held to the same patterns.
    expect((await failure("get_project", { id: "scope/c" }, await as("scoped", { workspaces: ["scope/a/*"] }))).code).toBe("FORBIDDEN");
  });

  it("shows the tick, open sessions and open records a workspace pushed, never moving backwards", async () => {
    const id = "counts/pushed";
    await ok("create_project", { id, name: "Counts" });
    const viewer = await as("counts-viewer", { workspaces: ["counts/*"] });
    // The create's own push: the workspace exists, Record-Sync counts are zero.
    expect(await runDurableObjectAlarm(env.WORKSPACES.getByName(id))).toBe(true);
    const initial = (await ok<Page>("list_projects", {}, viewer)).projects[0] as ListItem;
    expect(initial).toMatchObject({ id, tick: 0, open_records: 0, open_sessions: 0 });
    expect(initial.as_of_tick).toBeGreaterThan(0);
    // A later summary with Record-Sync counts (as a workspace with records pushes it) replaces it...
    await directory().report({
      name: id,
      tick: initial.as_of_tick + 5,
      seq: 0,
      branches: 1,
      as_of_tick: initial.as_of_tick + 5,
      project_tick: 4,
      open_records: 3,
      open_sessions: 2,
    });
    const after = (await ok<Page>("list_projects", {}, viewer)).projects[0];
    expect(after).toMatchObject({ tick: 4, open_records: 3, open_sessions: 2, as_of_tick: initial.as_of_tick + 5 });
    // ...and an older one arriving late is ignored.
    await directory().report({ name: id, tick: 1, seq: 0, branches: 1, as_of_tick: 1, project_tick: 0, open_records: 0, open_sessions: 0 });
    expect((await ok<Page>("list_projects", {}, viewer)).projects[0]).toMatchObject({ tick: 4, open_records: 3 });
  });

  it("lists any workspace that pushed a summary as a project named after itself", async () => {
    const workspace = "plain/workspace";
    await ok("notes_commit", { workspace, content: "x" });
    const viewer = await as("plain-viewer", { workspaces: ["plain/*"] });
    expect((await ok<Page>("list_projects", {}, viewer)).projects).toEqual([]);
    expect(await runDurableObjectAlarm(env.WORKSPACES.getByName(workspace))).toBe(true);
    expect((await ok<Page>("list_projects", {}, viewer)).projects).toEqual([
      { id: workspace, name: workspace, tick: 0, open_sessions: 0, open_records: 0, as_of_tick: 1 },
    ]);
  });
});

describe("project resolution", () => {
  const principal = (workspaces: string[], agent = "res-agent"): Principal => ({
    agent_id: agent,
    workspaces,
    role: "write",
    key_id: "k1",
  });

  it("maps project_id like the workspace argument: URL lock, patterns, and both given differently", () => {
    const any = principal(["**"]);
    expect(resolveProject(any, undefined, undefined, "acme/x", true)).toEqual({ ok: true, workspace: "acme/x", isDefault: false });
    expect(resolveProject(any, undefined, "acme/x", "acme/x", true)).toEqual({ ok: true, workspace: "acme/x", isDefault: false });
    const both = resolveProject(any, undefined, "acme/x", "acme/y", true);
    expect(both.ok ? null : both.error).toMatchObject({ code: "INVALID_INPUT", details: { fields: ["workspace", "project_id"] } });
    const locked = resolveProject(any, "acme/x", undefined, "acme/y", true);
    expect(locked.ok ? null : locked.error.code).toBe("WORKSPACE_LOCKED");
    expect(resolveProject(any, "acme/x", undefined, undefined, true)).toEqual({ ok: true, workspace: "acme/x", isDefault: false });
    const forbidden = resolveProject(principal(["acme/*"]), undefined, undefined, "other/x", true);
    expect(forbidden.ok ? null : forbidden.error.code).toBe("FORBIDDEN");
    const invalid = resolveProject(any, undefined, undefined, "../x", true);
    expect(invalid.ok ? null : invalid.error.code).toBe("INVALID_NAME");
  });

  it("falls back to the agent's default project only when nothing names one, and only for records commands", () => {
    expect(resolveProject(principal(["**"]), undefined, undefined, undefined, true)).toEqual({
      ok: true,
      workspace: "default/res-agent",
      isDefault: true,
    });
    // The token's single workspace comes first.
    expect(resolveProject(principal(["acme/repo"]), undefined, undefined, undefined, true)).toEqual({
      ok: true,
      workspace: "acme/repo",
      isDefault: false,
    });
    // Other commands still need a workspace.
    const other = resolveProject(principal(["**"]), undefined, undefined, undefined, false);
    expect(other.ok ? null : other.error.code).toBe("WORKSPACE_REQUIRED");
    // A default project outside the token's patterns is a clear WORKSPACE_REQUIRED.
    const outside = resolveProject(principal(["acme/*"]), undefined, undefined, undefined, true);
    expect(outside.ok ? null : outside.error).toMatchObject({
      code: "WORKSPACE_REQUIRED",
      details: { default_project: "default/res-agent", granted: ["acme/*"] },
    });
    expect(resolveProject(principal(["default/*"]), undefined, undefined, undefined, true)).toMatchObject({ ok: true, isDefault: true });
  });

  it("names default projects validly and one per agent, whatever the agent id", () => {
    expect(defaultProjectOf("alice")).toBe("default/alice");
    // An id that is not a plain name is escaped (an injective rule; test/default-projects.test.ts).
    const email = defaultProjectOf("bob@example.com");
    expect(email).toBe("default/_bob_aexample.com");
    expect(defaultProjectOf("bob:example.com")).not.toBe(email);
    expect(defaultProjectOf("bob@example.com")).toBe(email);
    const long = defaultProjectOf("x".repeat(128));
    expect(long.length).toBeLessThanOrEqual(128);
    expect(defaultProjectOf("team/lead")).toBe("default/_team_u002flead");
  });

  it("get_project without an id is the default project, created on first use and only once", async () => {
    const agent = await as("default-agent");
    const first = await ok<Project>("get_project", {}, agent);
    expect(first).toMatchObject({
      id: "default/default-agent",
      name: "Default Project",
      origin: "default",
      status: "ready",
      created_by: "default-agent",
      tick: 0,
    });
    const [a, b] = await Promise.all([ok<Project>("get_project", {}, agent), ok<Project>("get_project", {}, agent)]);
    expect(a).toEqual(first);
    expect(b).toEqual(first);
    expect((await walk(await as("default-agent", { workspaces: ["default/**"] }), 50)).ids).toEqual(["default/default-agent"]);
    // The URL lock and the token's single workspace come before the default.
    await ok("create_project", { id: "proj/locked", name: "Locked" });
    await ok("create_project", { id: "proj/single", name: "Single" });
    const lockedUrl = { ...agent, path: "/w/proj/locked/mcp?toolset=full" };
    expect((await ok<Project>("get_project", {}, lockedUrl)).id).toBe("proj/locked");
    expect((await failure("get_project", { id: "proj/single" }, lockedUrl)).code).toBe("WORKSPACE_LOCKED");
    expect((await failure("create_project", { id: "proj/single", name: "x" }, lockedUrl)).code).toBe("WORKSPACE_LOCKED");
    expect((await ok<Project>("get_project", {}, await as("single", { workspaces: ["proj/single"] }))).id).toBe("proj/single");
    const outside = await failure("get_project", {}, await as("outsider", { workspaces: ["proj/*"] }));
    expect(outside).toMatchObject({ code: "WORKSPACE_REQUIRED", details: { default_project: "default/outsider" } });
  });
});

describe("records commands in projects", () => {
  const ids = (answer: { records: { id: string }[] }) => answer.records.map((record) => record.id);
  const record = { type: "question", title: "Which cache?", summary: "Pick the cache layer.", body: "We need a cache." };

  it("run in the project project_id names, and push their counts to list_projects (session bookkeeping too)", async () => {
    const alpha = "rs/alpha";
    await ok("create_project", { id: alpha, name: "Alpha" });
    await ok("create_project", { id: "rs/beta", name: "Beta" });
    expect((await ok("create_record", { project_id: alpha, ...record })).record.id).toBe("R001");
    expect(ids(await ok("list_records", { project_id: alpha }))).toEqual(["R001"]);
    expect(ids(await ok("list_records", { workspace: alpha }))).toEqual(["R001"]);
    expect(ids(await ok("list_records", { project_id: "rs/beta" }))).toEqual([]);
    // get_project is live; list_projects shows the counts once the workspace's alarm pushed them.
    expect(await ok<Project>("get_project", { id: alpha })).toMatchObject({ tick: 1, open_records: 1, open_sessions: 1 });
    const viewer = await as("rs-viewer", { workspaces: ["rs/*"] });
    const listed = async () => (await ok<Page>("list_projects", {}, viewer)).projects.find((project) => project.id === alpha);
    expect(await runDurableObjectAlarm(env.WORKSPACES.getByName(alpha))).toBe(true);
    expect(await listed()).toMatchObject({ tick: 1, open_records: 1, open_sessions: 1 });
    // Closing the session advances no tick but changes the counts: it schedules a push as well.
    await ok("close_session", { project_id: alpha });
    expect(await runDurableObjectAlarm(env.WORKSPACES.getByName(alpha))).toBe(true);
    expect(await listed()).toMatchObject({ tick: 1, open_records: 1, open_sessions: 0 });
  });

  it("resolve project_id like the workspace argument: URL lock, patterns, names, and both given differently", async () => {
    const locked: RpcOptions = { path: "/w/rs/locked/mcp?toolset=full" };
    await ok("list_records", { project_id: "rs/locked" }, locked);
    expect((await failure("list_records", { project_id: "rs/other" }, locked)).code).toBe("WORKSPACE_LOCKED");
    const scoped = await as("rs-scoped", { workspaces: ["rs/*"] });
    expect((await failure("list_records", { project_id: "other/x" }, scoped)).code).toBe("FORBIDDEN");
    const both = await failure("list_records", { project_id: "rs/a", workspace: "rs/b" });
    expect(both).toMatchObject({ code: "INVALID_INPUT", details: { fields: ["workspace", "project_id"] } });
    expect((await failure("list_records", { project_id: "../x" })).code).toBe("INVALID_NAME");
    // Other domains have no default project.
    expect((await failure("notes_commit", { content: "x" })).code).toBe("WORKSPACE_REQUIRED");
  });

  it("use the agent's default project when nothing names one, registered on first use", async () => {
    const agent = await as("rs-default");
    const id = "default/rs-default";
    // Concurrent first uses register it once.
    const [created] = await Promise.all([ok("create_record", record, agent), ok("list_records", {}, agent), ok("list_records", {}, agent)]);
    expect(created.record.id).toBe("R001");
    expect(ids(await ok("list_records", {}, agent))).toEqual(["R001"]);
    expect(ids(await ok("list_records", { project_id: id }))).toEqual(["R001"]);
    // Registered by the call itself (origin default), not by the workspace's later summary push.
    expect(await directory().getProject(id)).toMatchObject({
      ok: true,
      value: { id, name: "Default Project", origin: "default", status: "ready", created_by: "rs-default" },
    });
    expect((await walk(await as("rs-default", { workspaces: ["default/**"] }), 10)).ids).toContain(id);
    expect(await ok<Project>("get_project", {}, agent)).toMatchObject({ id, tick: 1, open_records: 1 });
    // The token's single workspace comes before the default project.
    await ok("create_record", { project_id: "rs/single", ...record });
    expect(ids(await ok("list_records", {}, await as("rs-single", { workspaces: ["rs/single"] })))).toEqual(["R001"]);
    // A default project the token does not grant is a clear error.
    const outside = await failure("list_records", {}, await as("rs-outside", { workspaces: ["rs/*"] }));
    expect(outside).toMatchObject({ code: "WORKSPACE_REQUIRED", details: { default_project: "default/rs-outside" } });
  });
});
