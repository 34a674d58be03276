// OAuth beside the team tokens (docs/oauth.md), through the Worker's real fetch with OAUTH_KV bound:
// discovery from a 401, the consent page (a team token vouches; the grant is never wider than it), and
// clients that name themselves by a metadata document. The grants themselves: test/oauth-grants.test.ts.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mintToken } from "../src/worker/token";
import { token } from "./helpers/mcp";
import { callWith, consent, exchange, ORIGIN, send, startAuthorization, structured } from "./helpers/oauth";

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

  it("refuses a bad team token (an odd agent id included), a wider workspace or role, another agent's id, and a form from another browser", async () => {
    const bearer = await token({ agent: "alice", workspaces: ["oauth/*"], role: "write" });
    const started = await startAuthorization();
    const now = Math.floor(Date.now() / 1000);
    const withoutId = await mintToken(env.AUTH_SECRET as string, {
      v: 1,
      kid: "k1",
      sub: "alice",
      ws: ["oauth/*"],
      role: "write",
      iat: now,
      exp: now + 600,
    });
    const unrevocable = await consent(started, { team_token: withoutId });
    expect(unrevocable.status).toBe(400);
    expect(await unrevocable.text()).toContain("could never be revoked");
    const oddAgent = await mintToken(env.AUTH_SECRET as string, {
      v: 1,
      kid: "k1",
      jti: "6666666666666666",
      sub: "not an agent id",
      ws: ["oauth/*"],
      role: "write",
      iat: now,
      exp: now + 600,
    });
    const odd = await consent(started, { team_token: oddAgent });
    expect(odd.status).toBe(400);
    expect(await odd.text()).toContain("its agent id (sub) is not a valid agent id");
    const bad = await consent(started, { team_token: "bm1.forged.token" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("the team token was refused");
    const wider = await consent(started, { team_token: bearer, workspaces: "elsewhere/x" });
    expect(wider.status).toBe(400);
    expect(await wider.text()).toContain("does not grant");
    const someoneElse = await consent(started, { team_token: bearer, agent_id: "bob" });
    expect(someoneElse.status).toBe(400);
    expect(await someoneElse.text()).toContain("must be your token");
    const prototypeRole = await consent(started, { team_token: bearer, role: "constructor" });
    expect(prototypeRole.status).toBe(400);
    expect(await prototypeRole.text()).toContain("pick a role");
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
