// End-to-end: the viewer's read-only JSON API (/api/call, /api/session) through the Worker — reads run
// through the command registry, writes are refused whatever the token's role, auth is the same as /mcp,
// unknown workspaces and branches are not found — and the browsing reads it adds (workspace_list,
// graph_edges, graph_node_show, branch_list's checked_out_by).
import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CALL_LOG_KEYS } from "../src/worker/call-log";
import { as, ok, token } from "./helpers/mcp";

interface ApiOptions {
  bearer?: string | null;
  headers?: Record<string, string>;
  method?: string;
  path?: string;
  rawBody?: string;
}

interface ApiError {
  code: string;
  message: string;
  recovery_hint: string;
  details?: Record<string, unknown>;
}

interface ApiAnswer {
  status: number;
  result?: Record<string, any>;
  error?: ApiError;
  headers: Headers;
}

async function api(
  command: string,
  workspace: string | undefined,
  args: Record<string, unknown> = {},
  options: ApiOptions = {},
): Promise<ApiAnswer> {
  const bearer = options.bearer === undefined ? await token({ role: "read", agent: "viewer" }) : options.bearer;
  const method = options.method ?? "POST";
  const body = options.rawBody ?? JSON.stringify({ command, ...(workspace === undefined ? {} : { workspace }), args });
  const response = await exports.default.fetch(
    new Request(`http://localhost${options.path ?? "/api/call"}`, {
      method,
      headers: { "content-type": "application/json", ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...options.headers },
      ...(method === "POST" ? { body } : {}),
    }),
  );
  const json = (await response.json()) as { result?: Record<string, unknown>; error?: ApiError };
  return { status: response.status, headers: response.headers, ...json };
}

/** A read that must succeed: its result. */
async function read(command: string, workspace: string | undefined, args: Record<string, unknown> = {}, options: ApiOptions = {}) {
  const answer = await api(command, workspace, args, options);
  expect(answer.status, JSON.stringify(answer.error)).toBe(200);
  return answer.result as Record<string, any>;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("POST /api/call: reads", () => {
  it("runs a read command by any of its names and returns the same payload as the tool", async () => {
    const workspace = "viewer/reads";
    await ok("notes_commit", { workspace, content: "first" });
    await ok("notes_commit", { workspace, content: "second" });
    const viaApi = await read("docs.show", workspace, { doc: "notes" });
    expect(viaApi.entries.map((entry: { content: string }) => entry.content)).toEqual(["first", "second"]);
    const viaTool = await ok("show", { workspace, doc: "notes" });
    expect(viaApi).toEqual(viaTool);
    expect((await read("show", workspace, { doc: "notes", limit: 1 })).pagination).toMatchObject({ has_more: true, count: 1 });
  });

  it("answers no-store JSON", async () => {
    const workspace = "viewer/headers";
    await ok("notes_commit", { workspace, content: "x" });
    const answer = await api("vcs.branch.list", workspace);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    expect(answer.headers.get("Content-Type")).toContain("application/json");
  });

  it("validates arguments with the command's schema", async () => {
    const workspace = "viewer/invalid";
    await ok("notes_commit", { workspace, content: "x" });
    const answer = await api("docs.show", workspace, { limit: 0 });
    expect(answer.status).toBe(400);
    expect(answer.error?.code).toBe("INVALID_INPUT");
  });
});

describe("POST /api/call: the agents' moves, for a person", () => {
  it("renders a capsule's next moves as a writing agent is told them, where a read agent on MCP gets the status stand-in", async () => {
    const workspace = "viewer/moves";
    const plan = await ok("tasks_create", { workspace, title: "Ship" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Cache", steps: [{ title: "Write it" }] });
    const viewed = await read("tasks.resume_super", workspace, { target: task.id });
    const move = viewed.capsule.next.action as { tool: string; args: Record<string, unknown>; purpose: string };
    expect(move.tool).not.toBe("status");
    expect(move.purpose).not.toContain("not callable");
    const reader = { path: "/mcp", ...(await as("carol", { role: "read" })) };
    const agent = await ok("tasks", { workspace, op: "call", cmd: "tasks.resume_super", args: { target: task.id } }, reader);
    const standIn = agent.capsule.next.action as { tool: string; purpose: string };
    expect(standIn.tool).toBe("status");
    expect(standIn.purpose).toContain("not callable on this connection");
  });
});

describe("POST /api/call: nothing can write", () => {
  it("refuses every write with FORBIDDEN, even for an admin token, and writes nothing", async () => {
    const workspace = "viewer/writes";
    await ok("notes_commit", { workspace, content: "kept" });
    const admin = await token({ role: "admin", agent: "root" });
    for (const name of ["vcs.notes.commit", "notes_commit", "branchmind_notes_commit"]) {
      const answer = await api(name, workspace, { content: "sneaked in" }, { bearer: admin });
      expect(answer.status, name).toBe(403);
      expect(answer.error).toMatchObject({ code: "FORBIDDEN", details: { command: "vcs.notes.commit", kind: "write" } });
    }
    const refusedImport = await api("workspace.import", workspace, { ops: [{ op: "note", content: "x" }] }, { bearer: admin });
    expect(refusedImport.error?.code).toBe("FORBIDDEN");
    const refusedActivate = await api("records.activate", workspace, { id: "R001" }, { bearer: admin });
    expect(refusedActivate.error?.code).toBe("FORBIDDEN");
    const notes = await ok("show", { workspace, doc: "notes" });
    expect(notes.entries.map((entry: { content: string }) => entry.content)).toEqual(["kept"]);
    expect((await ok("status", { workspace })).tick).toBe(1);
  });

  it("refuses a read that would store bookkeeping (a snapshot's delta baseline) and stores nothing", async () => {
    const workspace = "viewer/bookkeeping";
    const task = (await ok("tasks_create", { workspace, title: "Watched task" })).id as string;
    const answer = await api("tasks.snapshot", workspace, { target: task, delta: true });
    expect(answer.status).toBe(403);
    expect(answer.error).toMatchObject({ code: "FORBIDDEN", details: { command: "tasks.snapshot" } });
    // The same read without delta stores nothing, so it runs.
    expect((await read("tasks.snapshot", workspace, { target: task })).delta).toBeUndefined();
    // No baseline was stored for the viewer's agent: its first delta through MCP is still a first one.
    const viewer = { bearer: await token({ role: "read", agent: "viewer" }) };
    const first = await ok("tasks_snapshot", { workspace, target: task, delta: true }, viewer);
    expect(first.delta).toMatchObject({ mode: "since_last", since_seq: null });
  });

  it("refuses an unknown command with UNKNOWN_CMD and a malformed body with INVALID_INPUT", async () => {
    expect(await api("graph.teleport", "viewer/any")).toMatchObject({ status: 404, error: { code: "UNKNOWN_CMD" } });
    expect(await api("", undefined, {}, { rawBody: "{not json" })).toMatchObject({ status: 400, error: { code: "INVALID_INPUT" } });
    const extra = await api("", undefined, {}, { rawBody: JSON.stringify({ command: "docs.show", sql: "DROP TABLE notes" }) });
    expect(extra).toMatchObject({ status: 400, error: { code: "INVALID_INPUT" } });
  });

  it("answers 405 to other methods", async () => {
    const answer = await api("docs.show", "viewer/any", {}, { method: "GET" });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("Allow")).toBe("POST");
  });
});

describe("authentication, as for /mcp", () => {
  it("refuses a missing, forged, expired or malformed token with 401 UNAUTHORIZED", async () => {
    const workspace = "viewer/auth";
    await ok("notes_commit", { workspace, content: "secret" });
    const forged = await token({ secret: "another-secret-entirely-for-forgery", role: "read" });
    const expired = await token({ expiresInSeconds: -10, role: "read" });
    for (const bearer of [null, forged, expired, "not-a-token"]) {
      const answer = await api("docs.show", workspace, { doc: "notes" }, { bearer });
      expect(answer.status).toBe(401);
      expect(answer.error?.code).toBe("UNAUTHORIZED");
      expect(answer.result).toBeUndefined();
    }
    const session = await api("", undefined, {}, { bearer: expired, method: "GET", path: "/api/session" });
    expect(session).toMatchObject({ status: 401, error: { code: "UNAUTHORIZED" } });
    expect(session.error?.message).toContain("expired");
  });

  it("GET /api/session names the caller, read-only", async () => {
    const bearer = await token({ agent: "zoe", role: "write", workspaces: ["acme/**"] });
    const answer = await api("", undefined, {}, { bearer, method: "GET", path: "/api/session" });
    expect(answer.status).toBe(200);
    expect(answer).toMatchObject({ agent_id: "zoe", role: "write", workspaces: ["acme/**"], auth_mode: "token", read_only: true });
  });

  it("refuses a browser request from another origin", async () => {
    const answer = await api("vcs.branch.list", "viewer/any", {}, { headers: { origin: "https://evil.example" } });
    expect(answer).toMatchObject({ status: 403, error: { code: "FORBIDDEN" } });
    const same = await api("workspace.list", undefined, {}, { headers: { origin: "http://localhost" } });
    expect(same.status).toBe(200);
  });

  it("caps the body like /mcp", async () => {
    const response = await exports.default.fetch(
      new Request("http://localhost/api/call", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${await token({ role: "read" })}` },
        body: "x".repeat(1024 * 1024 + 1),
      }),
    );
    expect(response.status).toBe(413);
    await response.body?.cancel();
  });

  it("logs a call line per call, with only the listed keys and never the token", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const bearer = await token({ role: "read", agent: "logger" });
    await api("workspace.list", undefined, {}, { bearer });
    const lines = log.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('"event":"call"'));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(Object.keys(line).sort()).toEqual([...CALL_LOG_KEYS].sort());
    expect(line).toMatchObject({ agent_id: "logger", op: "api", cmd: "workspace.list", outcome: "ok" });
    expect(lines[0]).not.toContain(bearer.slice(4, 40));
  });
});

describe("not found and forbidden", () => {
  it("answers UNKNOWN_ID (404) for a workspace never written, and for an unknown branch", async () => {
    const missing = await api("vcs.branch.list", "viewer/never-written");
    expect(missing).toMatchObject({ status: 404, error: { code: "UNKNOWN_ID", details: { workspace: "viewer/never-written" } } });
    const workspace = "viewer/branches";
    await ok("notes_commit", { workspace, content: "x" });
    const branch = await api("docs.show", workspace, { branch: "no/such/branch" });
    expect(branch).toMatchObject({ status: 404, error: { code: "UNKNOWN_ID" } });
  });

  it("requires the workspace to be named, and never creates a default project", async () => {
    expect(await api("records.list", undefined)).toMatchObject({ status: 400, error: { code: "WORKSPACE_REQUIRED" } });
    expect(await api("records.project.get", undefined)).toMatchObject({ status: 400, error: { code: "WORKSPACE_REQUIRED" } });
    const projects = await read("records.project.list", undefined, {}, { bearer: await token({ role: "read", agent: "nobody-yet" }) });
    expect(projects.projects.map((project: { id: string }) => project.id)).not.toContain("agents/nobody-yet");
  });

  it("answers FORBIDDEN for a workspace outside the token, whether it exists or not", async () => {
    await ok("notes_commit", { workspace: "viewer/private", content: "x" });
    const bearer = await token({ role: "read", workspaces: ["viewer/public/**"] });
    for (const workspace of ["viewer/private", "viewer/private-never-written"]) {
      expect(await api("vcs.branch.list", workspace, {}, { bearer })).toMatchObject({ status: 403, error: { code: "FORBIDDEN" } });
    }
  });
});

describe("workspace_list", () => {
  it("lists the workspaces the token grants with their ticks and counts, paged", async () => {
    const names = ["viewer-list/a", "viewer-list/b", "viewer-list/c"];
    for (const [index, workspace] of names.entries()) {
      for (let n = 0; n <= index; n++) await ok("notes_commit", { workspace, content: `note ${n}` });
      expect(await runDurableObjectAlarm(env.WORKSPACES.getByName(workspace))).toBe(true);
    }
    await ok("branch_create", { workspace: "viewer-list/c", name: "try/x" });
    expect(await runDurableObjectAlarm(env.WORKSPACES.getByName("viewer-list/c"))).toBe(true);
    const bearer = await token({ role: "read", workspaces: ["viewer-list/*"] });
    const all = await read("workspace.list", undefined, {}, { bearer });
    expect(all.workspaces.map((entry: { name: string }) => entry.name)).toEqual(names);
    expect(all.workspaces[2]).toMatchObject({ name: "viewer-list/c", tick: 4, seq: 3, branches: 2, as_of_tick: 4, open_records: 0 });
    const first = await read("workspace.list", undefined, { limit: 2 }, { bearer });
    expect(first.pagination).toMatchObject({ has_more: true, next_cursor: "viewer-list/b", count: 2 });
    const rest = await read("workspace.list", undefined, { limit: 2, cursor: first.pagination.next_cursor }, { bearer });
    expect(rest.workspaces.map((entry: { name: string }) => entry.name)).toEqual(["viewer-list/c"]);
    const narrow = await read("workspace.list", undefined, {}, { bearer: await token({ role: "read", workspaces: ["viewer-list/b"] }) });
    expect(narrow.workspaces.map((entry: { name: string }) => entry.name)).toEqual(["viewer-list/b"]);
  });
});

describe("graph browsing reads", () => {
  it("graph_edges pages every edge, including edges between nodes of different graph_query pages", async () => {
    const workspace = "viewer/edges";
    const nodes = Array.from({ length: 30 }, (_, index) => ({ op: "node_upsert", id: `N${index}`, type: "hypothesis" }));
    const edges = Array.from({ length: 29 }, (_, index) => ({
      op: "edge_upsert",
      from: `N${index}`,
      rel: "supports",
      to: `N${index + 1}`,
    }));
    await ok("graph_apply", { workspace, ops: [...nodes, ...edges] });
    await ok("graph_apply", { workspace, ops: [{ op: "edge_upsert", from: "N0", rel: "blocks", to: "N29" }] });
    await ok("graph_apply", { workspace, ops: [{ op: "edge_delete", from: "N3", rel: "supports", to: "N4" }] });
    const pageOfNodes = await read("graph.query", workspace, { limit: 10 });
    expect(pageOfNodes.edges.length).toBeLessThan(10);
    const seen: string[] = [];
    let cursor: number | undefined;
    for (let page = 0; page < 10; page++) {
      const answer = await read("graph.edges", workspace, { limit: 7, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...answer.edges.map((edge: { from: string; rel: string; to: string }) => `${edge.from}|${edge.rel}|${edge.to}`));
      if (!answer.pagination.has_more) break;
      cursor = answer.pagination.next_cursor;
    }
    expect(seen).toHaveLength(29);
    expect(new Set(seen).size).toBe(29);
    expect(seen[0]).toBe("N0|blocks|N29");
    expect(seen).not.toContain("N3|supports|N4");
    const blocks = await read("graph.edges", workspace, { rels: ["blocks"] });
    expect(blocks.edges).toHaveLength(1);
  });

  it("graph_node_show gives a node's versions on its branch and base, and its edges with the other end", async () => {
    const workspace = "viewer/node";
    await ok("think_card", { workspace, card: { id: "H1", type: "hypothesis", title: "Cache helps" } });
    await ok("think_card", { workspace, card: { id: "E1", type: "evidence", title: "2x faster" }, supports: ["H1"] });
    await ok("branch_create", { workspace, name: "try/more" });
    // H1 is live on try/more (from main): changing it there is an explicit revision (else ALREADY_EXISTS).
    await ok("think_card", {
      workspace,
      branch: "try/more",
      card: { id: "H1", type: "hypothesis", title: "Cache helps a lot" },
      revise: true,
    });
    const shown = await read("graph.node.show", workspace, { branch: "try/more", id: "H1" });
    expect(shown.node).toMatchObject({ id: "H1", title: "Cache helps a lot", deleted: false });
    expect(shown.versions.map((version: { title: string; branch: string }) => [version.branch, version.title])).toEqual([
      ["try/more", "Cache helps a lot"],
      ["main", "Cache helps"],
    ]);
    expect(shown.edges).toEqual([
      expect.objectContaining({
        from: "E1",
        rel: "supports",
        to: "H1",
        direction: "in",
        other: { id: "E1", type: "evidence", title: "2x faster", status: "open", live: true },
      }),
    ]);
    const onMain = await read("graph.node.show", workspace, { id: "H1", versions_limit: 1 });
    expect(onMain.versions).toHaveLength(1);
    expect(onMain.versions_pagination).toMatchObject({ has_more: false });
    expect(await api("graph.node.show", workspace, { id: "NOPE" })).toMatchObject({ status: 404, error: { code: "UNKNOWN_ID" } });
  });

  it("branch_list says who has each branch checked out", async () => {
    const workspace = "viewer/checkouts";
    await ok("notes_commit", { workspace, content: "x" });
    await ok("branch_create", { workspace, name: "try/a" });
    await ok("checkout", { workspace, ref: "try/a" }, await as("bob"));
    await ok("checkout", { workspace, ref: "try/a" }, await as("carol"));
    const listed = await read("vcs.branch.list", workspace);
    expect(listed.branches.map((branch: { name: string; checked_out_by: string[] }) => [branch.name, branch.checked_out_by])).toEqual([
      ["main", []],
      ["try/a", ["bob", "carol"]],
    ]);
  });
});
