// End-to-end: authentication, roles, workspace resolution, URL locks and project guards at the front door.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/worker/index";
import { failure, ok, PROTOCOL, rpc, token } from "./helpers/mcp";

describe("bearer tokens", () => {
  it("refuses a missing token with 401 and WWW-Authenticate", async () => {
    const response = await rpc("tools/list", {}, { bearer: null });
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toMatch(/^Bearer /);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
  });

  it("refuses a forged, an expired, a malformed and a wrong-key token", async () => {
    const forged = await token({ secret: "another-secret-entirely-for-forgery" });
    const expired = await token({ expiresInSeconds: -10 });
    const wrongKey = await token({ keyId: "k9" });
    for (const bearer of [forged, expired, wrongKey, "not-a-token", `${(await token()).slice(0, -2)}xx`]) {
      const response = await rpc("tools/list", {}, { bearer });
      expect(response.status).toBe(401);
      await response.body?.cancel();
    }
  });

  it("accepts a valid token and takes the agent id from it", async () => {
    const bearer = await token({ agent: "zoe" });
    expect((await ok("ping", { workspace: "auth/ok" }, { bearer })).agent_id).toBe("zoe");
  });
});

describe("roles and agent ids", () => {
  it("lets a read token read but not write", async () => {
    const bearer = await token({ role: "read" });
    await ok("status", { workspace: "auth/read" }, { bearer });
    const error = await failure("notes_commit", { workspace: "auth/read", content: "nope" }, { bearer });
    expect(error.code).toBe("FORBIDDEN");
    expect((await ok("status", { workspace: "auth/read" })).tick).toBe(0);
  });

  it("keeps bulk import for admin tokens", async () => {
    const error = await failure("workspace_import", { workspace: "auth/admin", ops: [{ op: "note", content: "x" }] });
    expect(error).toMatchObject({ code: "FORBIDDEN", details: { required: "admin" } });
    const bearer = await token({ role: "admin" });
    expect(
      (await ok("workspace_import", { workspace: "auth/admin", ops: [{ op: "note", content: "x" }] }, { bearer })).notes_imported,
    ).toBe(1);
  });

  it("refuses an agent_id argument that is not the caller", async () => {
    const error = await failure("notes_commit", { workspace: "auth/agent", content: "x", agent_id: "mallory" });
    expect(error.code).toBe("FORBIDDEN");
    expect((await ok("notes_commit", { workspace: "auth/agent", content: "x", agent_id: "alice" })).entry.agent_id).toBe("alice");
  });
});

describe("workspace resolution", () => {
  it("refuses a workspace outside the token's patterns", async () => {
    const bearer = await token({ workspaces: ["acme/*"] });
    await ok("ping", { workspace: "acme/repo" }, { bearer });
    expect((await failure("ping", { workspace: "acme/repo/deep" }, { bearer })).code).toBe("FORBIDDEN");
    expect((await failure("ping", { workspace: "other/repo" }, { bearer })).code).toBe("FORBIDDEN");
    const deep = await token({ workspaces: ["acme/**"] });
    await ok("ping", { workspace: "acme/repo/deep" }, { bearer: deep });
  });

  it("uses the token's single workspace, else requires one", async () => {
    const single = await token({ workspaces: ["solo/ws"] });
    expect((await ok("ping", {}, { bearer: single })).workspace).toBe("solo/ws");
    expect((await failure("ping", {})).code).toBe("WORKSPACE_REQUIRED");
  });

  it("locks the workspace by URL, with / in names and %2F accepted", async () => {
    expect((await ok("ping", {}, { path: "/w/team/a/repo/mcp?toolset=full" })).workspace).toBe("team/a/repo");
    expect((await ok("ping", {}, { path: "/w/team%2Fb/mcp?toolset=full" })).workspace).toBe("team/b");
    expect((await ok("ping", { workspace: "team/a/repo" }, { path: "/w/team/a/repo/mcp?toolset=full" })).workspace).toBe("team/a/repo");
    const locked = await failure("ping", { workspace: "elsewhere" }, { path: "/w/team/a/repo/mcp?toolset=full" });
    expect(locked.code).toBe("WORKSPACE_LOCKED");
  });

  it("rejects invalid workspace names", async () => {
    expect((await failure("ping", { workspace: "../etc" })).code).toBe("INVALID_NAME");
  });
});

describe("project guard", () => {
  it("stores the guard on init and refuses calls carrying another", async () => {
    const workspace = "auth/guard";
    expect((await ok("init", { workspace, project_guard: "repo-123" })).project_guard).toBe("repo-123");
    await ok("notes_commit", { workspace, content: "ok", project_guard: "repo-123" });
    const error = await failure("notes_commit", { workspace, content: "wrong", project_guard: "repo-999" });
    expect(error.code).toBe("PROJECT_GUARD_MISMATCH");
    expect(error.details).toMatchObject({ expected: "repo-123", given: "repo-999" });
    expect((await failure("init", { workspace, project_guard: "repo-999" })).code).toBe("PROJECT_GUARD_MISMATCH");
    expect((await ok("show", { workspace, doc: "notes" })).entries).toHaveLength(1);
  });
});

function directRequest(headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/mcp?toolset=full", {
    method: "POST",
    headers: {
      host: "localhost",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL,
      "mcp-method": "tools/call",
      "mcp-name": "ping",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "ping",
        arguments: { workspace: "auth/direct" },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": PROTOCOL,
          "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
}

describe("server modes", () => {
  it("refuses every call with SERVER_MISCONFIGURED when deployed without a secret", async () => {
    const response = await worker.fetch(directRequest({ authorization: `Bearer ${await token()}` }), {
      ...env,
      AUTH_SECRET: undefined,
      AUTH_MODE: undefined,
    });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("SERVER_MISCONFIGURED");
  });

  it("in dev mode needs no token and takes the agent from X-Agent-Id (default local)", async () => {
    const devEnv = { ...env, AUTH_MODE: "dev" };
    const named = (await (await worker.fetch(directRequest({ "x-agent-id": "dev-bot" }), devEnv)).json()) as {
      result: { structuredContent: { agent_id: string } };
    };
    expect(named.result.structuredContent.agent_id).toBe("dev-bot");
    const anonymous = (await (await worker.fetch(directRequest(), devEnv)).json()) as {
      result: { structuredContent: { agent_id: string } };
    };
    expect(anonymous.result.structuredContent.agent_id).toBe("local");
  });
});
