// Record-Sync projects (seed 004, docs/projects.md), resolved: project_id mapped like the workspace
// argument (URL lock, patterns, names, both given differently), the agent's default project (named,
// created on first use and only once), and records commands run in the project project_id names.

import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Principal } from "../src/commands/context";
import { defaultProjectOf } from "../src/directory/project-ids";
import { resolveProject } from "../src/worker/workspace-resolution";
import { as, failure, ok, type RpcOptions } from "./helpers/mcp";
import { directory, type Page, type Project, walk } from "./helpers/projects";

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
