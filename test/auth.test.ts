// End-to-end: authentication, roles, workspace resolution, URL locks and project guards at the front door.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CALL_LOG_KEYS, REFUSAL_LOG_KEYS } from "../src/worker/call-log";
import app from "../src/worker/index";
import { mintToken, type TokenClaims } from "../src/worker/token";
import { failure, ok, rpc, token, toolCallRequest } from "./helpers/mcp";

/** The Worker as the runtime calls it, with an execution context of its own. */
const worker = { fetch: (request: Request, workerEnv: Env) => app.fetch(request, workerEnv, createExecutionContext()) };

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
  return toolCallRequest("ping", { workspace: "auth/direct" }, headers);
}

describe("server modes", () => {
  it("refuses every call with SERVER_MISCONFIGURED when deployed without a secret", async () => {
    const response = await worker.fetch(directRequest({ authorization: `Bearer ${await token()}` }), {
      ...env,
      AUTH_SECRET: undefined,
      AUTH_SECRETS: undefined,
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

const SECOND_SECRET = "a-second-secret-for-key-k2-rotation-tests";

/** A token with chosen claims (the helper's token() has no jti). */
async function tokenWith(overrides: Partial<TokenClaims>, secret = env.AUTH_SECRET as string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return mintToken(secret, { v: 1, kid: "k1", sub: "alice", ws: ["**"], role: "write", iat: now, exp: now + 3600, ...overrides });
}

/** One ping through the Worker's fetch with `bearer` and the given environment: status and body. */
async function pingWith(bearer: string, testEnv: Env): Promise<{ status: number; body: any; authenticate: string | null }> {
  const response = await worker.fetch(toolCallRequest("ping", { workspace: "auth/keys" }, { authorization: `Bearer ${bearer}` }), testEnv);
  return { status: response.status, body: await response.json(), authenticate: response.headers.get("WWW-Authenticate") };
}

describe("a token's agent id", () => {
  it("is checked when the token is verified: one minted elsewhere with an odd sub is refused with a reason", async () => {
    for (const sub of ["", " alice", "-dash-first", "has space", 'quote"d', "slash/ed", "x".repeat(129), "émile"]) {
      const refused = await pingWith(await tokenWith({ jti: "4444444444444444", sub }), env);
      expect(refused.status, JSON.stringify(sub)).toBe(401);
      expect(refused.body.error.code).toBe("UNAUTHORIZED");
      expect(refused.body.error.message).toContain("its agent id (sub) is not a valid agent id");
      expect(refused.body.error.recovery_hint).toContain("npm run token -- --agent");
      expect(refused.authenticate).toContain('error_description="its agent id (sub) is not a valid agent id"');
      if (sub.length > 1) expect(JSON.stringify(refused.body) + refused.authenticate).not.toContain(sub);
    }
    const longest = "a".repeat(128);
    for (const sub of ["a.b:c@d-e_f", "7", longest]) {
      expect((await pingWith(await tokenWith({ jti: "5555555555555555", sub }), env)).body.result.structuredContent.agent_id).toBe(sub);
    }
  });
});

describe("revocation", () => {
  it("refuses a revoked token id at once while other tokens work", async () => {
    const revokedToken = await tokenWith({ jti: "0badc0ffee0badc0", sub: "leaked" });
    const liveToken = await tokenWith({ jti: "1234567890abcdef", sub: "kept" });
    const legacyToken = await tokenWith({ sub: "legacy" });
    expect((await pingWith(revokedToken, env)).body.result.structuredContent.agent_id).toBe("leaked");

    const revokedEnv = { ...env, AUTH_REVOKED: "feedfacefeedface, 0badc0ffee0badc0\n  cafebabecafebabe" };
    const refused = await pingWith(revokedToken, revokedEnv);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("UNAUTHORIZED");
    expect(refused.body.error.message).toContain("token revoked");
    expect(refused.authenticate).toContain("token revoked");
    const leaked = JSON.stringify(refused.body) + refused.authenticate;
    for (const other of ["feedfacefeedface", "cafebabecafebabe", "0badc0ffee0badc0"]) expect(leaked).not.toContain(other);

    expect((await pingWith(liveToken, revokedEnv)).body.result.structuredContent.agent_id).toBe("kept");
    expect((await pingWith(legacyToken, revokedEnv)).body.result.structuredContent.agent_id).toBe("legacy");
    expect((await pingWith(revokedToken, env)).status).toBe(200);
  });

  it("refuses every call when AUTH_REVOKED is malformed, without echoing it", async () => {
    const refused = await pingWith(await tokenWith({ jti: "1234567890abcdef" }), { ...env, AUTH_REVOKED: "good-id, bad|id" });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe("SERVER_MISCONFIGURED");
    expect(refused.body.error.message).toContain("AUTH_REVOKED");
    expect(JSON.stringify(refused.body)).not.toContain("bad|id");
  });
});

describe("key rotation", () => {
  it("accepts a second key id only while its key is configured", async () => {
    const second = await tokenWith({ kid: "k2", jti: "2222222222222222", sub: "rotated" }, SECOND_SECRET);
    const first = await tokenWith({ jti: "1111111111111111", sub: "original" });

    const unknown = await pingWith(second, env);
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toContain("unknown key id");

    for (const AUTH_SECRETS of [
      `k2:${SECOND_SECRET}`,
      JSON.stringify({ k2: SECOND_SECRET }),
      `k0:${"x".repeat(40)},\nk2:${SECOND_SECRET}`,
    ]) {
      const rotating = { ...env, AUTH_SECRETS };
      expect((await pingWith(second, rotating)).body.result.structuredContent.agent_id).toBe("rotated");
      expect((await pingWith(first, rotating)).body.result.structuredContent.agent_id).toBe("original");
    }

    // A k2 token signed with another secret is still refused, and so is a k1 token once k1 is retired.
    const forged = await tokenWith({ kid: "k2", sub: "forged" }, "not-the-second-secret-but-long-enough");
    const refusedForged = await pingWith(forged, { ...env, AUTH_SECRETS: `k2:${SECOND_SECRET}` });
    expect(refusedForged.status).toBe(401);
    expect(refusedForged.body.error.message).toContain("bad signature");
    const retired = { ...env, AUTH_SECRET: SECOND_SECRET, AUTH_KEY_ID: "k2" };
    expect((await pingWith(second, retired)).status).toBe(200);
    expect((await pingWith(first, retired)).body.error.message).toContain("unknown key id");
  });

  it("refuses every call when AUTH_SECRETS is malformed, without echoing it", async () => {
    for (const AUTH_SECRETS of ["k2=oops", '{"k2": 5}', "{not json", `k2:${SECOND_SECRET},:nokid`]) {
      const refused = await pingWith(await tokenWith({}), { ...env, AUTH_SECRETS });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe("SERVER_MISCONFIGURED");
      expect(refused.body.error.message).toContain("AUTH_SECRETS");
      expect(JSON.stringify(refused.body)).not.toContain(SECOND_SECRET);
    }
  });

  it("accepts keys from AUTH_SECRETS alone", async () => {
    const second = await tokenWith({ kid: "k2", sub: "only-extra" }, SECOND_SECRET);
    const onlyExtra = { ...env, AUTH_SECRET: undefined, AUTH_SECRETS: `k2:${SECOND_SECRET}` };
    expect((await pingWith(second, onlyExtra)).body.result.structuredContent.agent_id).toBe("only-extra");
  });
});

describe("structured logs", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function capture(): () => Record<string, unknown>[] {
    const spy = vi.spyOn(console, "log").mockImplementation(() => {});
    return () => spy.mock.calls.map((args) => JSON.parse(String(args[0])) as Record<string, unknown>);
  }

  it("writes one call line per tools/call with exactly the allowed keys and no argument text", async () => {
    const lines = capture();
    const secretText = "ARGUMENT-TEXT-must-not-be-logged";
    const bearer = await tokenWith({ jti: "3333333333333333", sub: "logger" });
    const response = await worker.fetch(
      toolCallRequest("notes_commit", { workspace: "auth/logs", content: secretText }, { authorization: `Bearer ${bearer}` }),
      env,
    );
    const text = await response.text();
    expect(text).toContain(secretText);
    const calls = lines().filter((line) => line.event === "call");
    expect(calls).toHaveLength(1);
    const [line] = calls;
    expect(Object.keys(line ?? {})).toEqual([...CALL_LOG_KEYS]);
    expect(line).toMatchObject({
      agent_id: "logger",
      key_id: "k1",
      workspace: "auth/logs",
      tool: "notes_commit",
      op: null,
      cmd: "vcs.notes.commit",
      outcome: "ok",
    });
    expect(typeof line?.duration_ms).toBe("number");
    // The commit ran in the workspace object: its time there is part of the call's, never more.
    expect(typeof line?.object_ms).toBe("number");
    expect(Number(line?.object_ms)).toBeLessThanOrEqual(Number(line?.duration_ms) + 1);
    expect(Date.parse(String(line?.ts))).not.toBeNaN();
    expect(JSON.stringify(lines())).not.toContain(secretText);
    expect(JSON.stringify(lines())).not.toContain(bearer);
  });

  it("names the portal op and command, the tick when the result has one, and error codes", async () => {
    const lines = capture();
    const bearer = await tokenWith({ sub: "portal-logger" });
    const headers = { authorization: `Bearer ${bearer}` };
    await (await worker.fetch(toolCallRequest("status", { workspace: "auth/logs-status" }, headers), env)).text();
    await (
      await worker.fetch(
        toolCallRequest(
          "vcs",
          { op: "call", cmd: "notes_commit", workspace: "auth/logs-portal", args: { content: "PORTAL-TEXT" } },
          headers,
        ),
        env,
      )
    ).text();
    await (
      await worker.fetch(toolCallRequest("notes_commit", { workspace: "auth/logs", content: "x", agent_id: "mallory" }, headers), env)
    ).text();
    const calls = lines().filter((line) => line.event === "call");
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatchObject({ tool: "status", cmd: "system.status", outcome: "ok", tick: 0, workspace: "auth/logs-status" });
    expect(calls[1]).toMatchObject({ tool: "vcs", op: "call", cmd: "vcs.notes.commit", outcome: "ok", workspace: "auth/logs-portal" });
    expect(calls[2]).toMatchObject({ tool: "notes_commit", outcome: "FORBIDDEN", workspace: "auth/logs", tick: null });
    const logged = JSON.stringify(lines());
    for (const text of ["PORTAL-TEXT", "mallory"]) expect(logged).not.toContain(text);
  });

  it("writes one refused line per refused request, without the token", async () => {
    const lines = capture();
    const revoked = await tokenWith({ jti: "4444444444444444" });
    await pingWith(revoked, { ...env, AUTH_REVOKED: "4444444444444444" });
    const badToolset = await worker.fetch(
      new Request("http://localhost/mcp?toolset=NOT-A-TOOLSET", { method: "POST", headers: { authorization: `Bearer ${revoked}` } }),
      env,
    );
    expect(badToolset.status).toBe(400);
    await badToolset.body?.cancel();
    const refusals = lines().filter((line) => line.event === "refused");
    expect(refusals).toHaveLength(2);
    for (const line of refusals) expect(Object.keys(line)).toEqual([...REFUSAL_LOG_KEYS]);
    expect(refusals[0]).toMatchObject({ status: 401, outcome: "UNAUTHORIZED", reason: "token revoked" });
    expect(refusals[1]).toMatchObject({ status: 400, outcome: "INVALID_INPUT", reason: "unknown toolset" });
    expect(lines().filter((line) => line.event === "call")).toHaveLength(0);
    const logged = JSON.stringify(lines());
    for (const text of [revoked, "NOT-A-TOOLSET", "4444444444444444"]) expect(logged).not.toContain(text);
  });
});
