// OAuth beside the team tokens (docs/oauth.md), through the Worker's real fetch with OAUTH_KV bound:
// discovery from a 401, dynamic registration, the consent page (a team token vouches; the grant is never
// wider than it), the code exchange with PKCE, calls as the grant's agent with the role its scopes allow,
// refresh, and the grant cut off when its team token is revoked. Team tokens keep working.
import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../src/worker/index";
import { mintToken } from "../src/worker/token";
import { PROTOCOL, token } from "./helpers/mcp";

const ORIGIN = "http://localhost";
const REDIRECT = "http://localhost:33418/callback";

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

async function send(path: string, init: RequestInit = {}, workerEnv?: Env): Promise<Response> {
  const request = new Request(`${ORIGIN}${path}`, { ...init, headers: { host: "localhost", ...(init.headers as Record<string, string>) } });
  return workerEnv === undefined ? exports.default.fetch(request) : app.fetch(request, workerEnv, createExecutionContext());
}

/** The cookies a response sets, as the next request sends them. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

async function registerClient(name = "Test Client"): Promise<string> {
  const response = await send("/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

interface Started {
  page: string;
  cookies: string;
  handle: string;
  authorizePath: string;
  verifier: string;
  clientId: string;
}

async function startAuthorization(scope = "read write", client?: string): Promise<Started> {
  const clientId = client ?? (await registerClient());
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "state-123",
    scope,
    resource: ORIGIN,
  });
  const authorizePath = `/authorize?${query}`;
  const response = await send(authorizePath);
  const page = await response.text();
  expect(response.status, page).toBe(200);
  const handle = /name="handle" value="([^"]+)"/.exec(page)?.[1] ?? "";
  return { page, cookies: cookiesOf(response), handle, authorizePath, verifier, clientId };
}

async function consent(started: Started, fields: Record<string, string>): Promise<Response> {
  const body = new URLSearchParams({ handle: started.handle, decision: "approve", lifetime_days: "7", role: "write", ...fields });
  return send(started.authorizePath, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: started.cookies, origin: ORIGIN },
    body: body.toString(),
    redirect: "manual",
  });
}

async function exchange(started: Started, redirect: string): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const code = new URL(redirect).searchParams.get("code") ?? "";
  const response = await send("/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: started.clientId,
      code_verifier: started.verifier,
      resource: ORIGIN,
    }).toString(),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text);
}

/** A whole flow: a person with `teamToken` consents with `fields`; the app's tokens. */
async function connect(teamToken: string, fields: Record<string, string> = {}) {
  const started = await startAuthorization();
  const decided = await consent(started, { team_token: teamToken, ...fields });
  expect(decided.status, await decided.clone().text()).toBe(302);
  return { ...(await exchange(started, decided.headers.get("location") ?? "")), clientId: started.clientId };
}

async function callWith(bearer: string, name: string, args: Record<string, unknown>, workerEnv?: Env) {
  const response = await send(
    "/mcp?toolset=full",
    {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${bearer}`,
        "mcp-protocol-version": PROTOCOL,
        "mcp-method": "tools/call",
        "mcp-name": name,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name,
          arguments: args,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": PROTOCOL,
            "io.modelcontextprotocol/clientInfo": { name: "oauth-tests", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    },
    workerEnv,
  );
  return response;
}

async function structured(response: Response): Promise<Record<string, any>> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (JSON.parse(text) as { result: { structuredContent: Record<string, any> } }).result.structuredContent;
}

describe("discovery", () => {
  it("a 401 points at the protected-resource metadata, which points at the authorization server", async () => {
    const refused = await callWith("not-a-token", "ping", {});
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource"`);
    expect(challenge).toContain("error_description=");
    const resource = (await (await send("/.well-known/oauth-protected-resource")).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: ORIGIN, authorization_servers: [ORIGIN], scopes_supported: ["read", "write", "admin"] });
    const server = (await (await send("/.well-known/oauth-authorization-server")).json()) as Record<string, unknown>;
    expect(server).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
    });
  });

  it("is not offered without the OAuth binding: the paths are 404 and the 401 names no metadata", async () => {
    const { OAUTH_KV: _off, ...without } = env as Env & { OAUTH_KV?: unknown };
    const metadata = await send("/.well-known/oauth-protected-resource", {}, without as Env);
    expect(metadata.status).toBe(404);
    const refused = await callWith("not-a-token", "ping", {}, without as Env);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).not.toContain("resource_metadata");
  });
});

describe("the consent page", () => {
  it("shows the app, where its access goes, and cannot be framed", async () => {
    const started = await startAuthorization();
    expect(started.page).toContain("Connect Test Client to BranchMind?");
    expect(started.page).toContain("localhost");
    expect(started.handle).not.toBe("");
    const response = await send(started.authorizePath);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    await response.body?.cancel();
  });

  it("refuses a bad team token, a wider workspace or role, and a form from another browser", async () => {
    const bearer = await token({ agent: "alice", workspaces: ["oauth/*"], role: "write" });
    const started = await startAuthorization();
    const bad = await consent(started, { team_token: "bm1.forged.token" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("the team token was refused");
    const wider = await consent(started, { team_token: bearer, workspaces: "elsewhere/x" });
    expect(wider.status).toBe(400);
    expect(await wider.text()).toContain("does not grant");
    const higher = await consent(started, { team_token: bearer, role: "admin" });
    expect(higher.status).toBe(400);
    expect(await higher.text()).toContain("cannot get admin");
    const otherBrowser = await send(started.authorizePath, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({
        handle: started.handle,
        decision: "approve",
        team_token: bearer,
        role: "write",
        lifetime_days: "7",
      }).toString(),
      redirect: "manual",
    });
    expect(otherBrowser.status).toBe(400);
    await otherBrowser.body?.cancel();
  });

  it("sends the app access_denied when the person declines", async () => {
    const started = await startAuthorization();
    const denied = await consent(started, { decision: "deny" });
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("state-123");
    expect(location.searchParams.get("iss")).toBe(ORIGIN);
  });
});

describe("clients", () => {
  it("may name themselves by a metadata document (CIMD): the page shows its verified domain", async () => {
    const started = await startAuthorization("read", "https://client.example/oauth/client.json");
    expect(started.page).toContain("Connect Metadata Client to BranchMind?");
    expect(started.page).toContain("Published by <strong>client.example</strong>");
    const bearer = await token({ agent: "erin", workspaces: ["oauth/*"], role: "read" });
    const decided = await consent(started, { team_token: bearer, role: "read" });
    expect(decided.status).toBe(302);
    const tokens = await exchange(started, decided.headers.get("location") ?? "");
    const note = await structured(await callWith(tokens.access_token, "show", { workspace: "oauth/m", doc: "notes" }));
    expect(note.error).toBeUndefined();
  });
});

describe("a grant", () => {
  it("calls as its own agent (the token's id with the app's name), within its workspaces", async () => {
    const bearer = await token({ agent: "alice", workspaces: ["oauth/*"], role: "write" });
    const tokens = await connect(bearer, { workspaces: "oauth/a" });
    expect(tokens.scope.split(" ").sort()).toEqual(["read", "write"]);
    const note = await structured(await callWith(tokens.access_token, "notes_commit", { workspace: "oauth/a", content: "via oauth" }));
    expect(note.entry.agent_id).toBe("alice.test-client");
    const outside = await structured(await callWith(tokens.access_token, "notes_commit", { workspace: "oauth/b", content: "x" }));
    expect(outside.error.code).toBe("FORBIDDEN");
  });

  it("with the read role reads but does not write", async () => {
    const bearer = await token({ agent: "bob", workspaces: ["oauth/*"], role: "write" });
    const tokens = await connect(bearer, { role: "read", agent_id: "bob-reader" });
    expect(tokens.scope).toBe("read");
    const write = await structured(await callWith(tokens.access_token, "notes_commit", { workspace: "oauth/r", content: "x" }));
    expect(write.error).toMatchObject({ code: "FORBIDDEN", details: { scope_required: "write" } });
    expect(write.error.message).toContain("OAuth scope write");
    const read = await structured(await callWith(tokens.access_token, "show", { workspace: "oauth/r", doc: "notes" }));
    expect(read.error).toBeUndefined();
  });

  it("refreshes, and is cut off with its team token", async () => {
    const jti = "0123456789abcdef";
    const now = Math.floor(Date.now() / 1000);
    const claims = { v: 1, kid: "k1", jti, sub: "carol", ws: ["oauth/*"], role: "write", iat: now, exp: now + 3600 } as const;
    const bearer = await mintToken(env.AUTH_SECRET as string, { ...claims, ws: [...claims.ws] });
    const started = await startAuthorization();
    const decided = await consent(started, { team_token: bearer });
    const tokens = await exchange(started, decided.headers.get("location") ?? "");
    const refreshed = await send("/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: started.clientId,
        resource: ORIGIN,
      }).toString(),
    });
    const refreshedText = await refreshed.text();
    expect(refreshed.status, refreshedText).toBe(200);
    const next = JSON.parse(refreshedText) as { access_token: string; refresh_token: string };
    expect((await structured(await callWith(next.access_token, "ping", { workspace: "oauth/c" }))).error).toBeUndefined();
    const revoked = { ...env, AUTH_REVOKED: jti } as Env;
    const cut = await callWith(next.access_token, "ping", { workspace: "oauth/c" }, revoked);
    expect(cut.status).toBe(401);
    expect(cut.headers.get("www-authenticate")).toContain("was revoked");
    await cut.body?.cancel();
    const noRefresh = await send(
      "/oauth/token",
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: next.refresh_token,
          client_id: started.clientId,
          resource: ORIGIN,
        }).toString(),
      },
      revoked,
    );
    expect(noRefresh.status).toBe(400);
    expect(((await noRefresh.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("is refused once its access token is revoked, and at another origin (another audience)", async () => {
    const bearer = await token({ agent: "frank", workspaces: ["oauth/*"], role: "write" });
    const tokens = await connect(bearer);
    const elsewhere = await app.fetch(
      new Request("http://127.0.0.1/mcp?toolset=full", {
        method: "POST",
        headers: {
          host: "127.0.0.1",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${tokens.access_token}`,
          "mcp-protocol-version": PROTOCOL,
          "mcp-method": "tools/list",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/list",
          params: {
            _meta: {
              "io.modelcontextprotocol/protocolVersion": PROTOCOL,
              "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      }),
      env as Env,
      createExecutionContext(),
    );
    expect(elsewhere.status).toBe(401);
    await elsewhere.body?.cancel();
    const revoked = await send("/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.access_token, token_type_hint: "access_token", client_id: tokens.clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    await revoked.body?.cancel();
    const after = await callWith(tokens.access_token, "ping", { workspace: "oauth/f" });
    expect(after.status).toBe(401);
    await after.body?.cancel();
  });

  it("is listed to the person whose team token made it, and revoked from there", async () => {
    const bearer = await token({ agent: "gina", workspaces: ["oauth/*"], role: "write" });
    const tokens = await connect(bearer, { agent_id: "gina-laptop" });
    const other = await token({ agent: "hank", workspaces: ["oauth/*"], role: "write" });
    const form = (fields: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams(fields).toString(),
    });
    const listed = await (await send("/oauth/grants", form({ action: "list", team_token: bearer }))).text();
    expect(listed).toContain("gina-laptop");
    expect(listed).toContain("Test Client");
    const grantId = /name="grant_id" value="([^"]+)"/.exec(listed)?.[1] ?? "";
    expect(grantId).not.toBe("");
    const othersView = await (await send("/oauth/grants", form({ action: "list", team_token: other }))).text();
    expect(othersView).not.toContain("gina-laptop");
    const notTheirs = await (await send("/oauth/grants", form({ action: "revoke", grant_id: grantId, team_token: other }))).text();
    expect(notTheirs).not.toContain("Revoked:");
    expect((await structured(await callWith(tokens.access_token, "ping", { workspace: "oauth/g" }))).error).toBeUndefined();
    const revoked = await (await send("/oauth/grants", form({ action: "revoke", grant_id: grantId, team_token: bearer }))).text();
    expect(revoked).toContain("Revoked: Test Client");
    const after = await callWith(tokens.access_token, "ping", { workspace: "oauth/g" });
    expect(after.status).toBe(401);
    await after.body?.cancel();
  });

  it("leaves team tokens working on the same endpoint", async () => {
    const answer = await structured(await callWith(await token({ agent: "dave" }), "ping", { workspace: "oauth/d" }));
    expect(answer.error).toBeUndefined();
  });
});
