// OAuth grants (docs/oauth.md), through the Worker's real fetch with OAUTH_KV bound: calls as the grant's
// agent with the role its scopes allow, refresh, revocation (of the access token, of the team token, of
// the grant from /oauth/grants), another origin's audience, forged tokens; team tokens keep working.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../src/worker/index";
import { mintToken } from "../src/worker/token";
import { PROTOCOL, token } from "./helpers/mcp";
import { callWith, connect, consent, exchange, ORIGIN, send, startAuthorization, structured } from "./helpers/oauth";

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
    const tokens = await connect(bearer, { role: "read", agent_id: "bob.reader" });
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
    const tokens = await connect(bearer, { agent_id: "gina.laptop" });
    const other = await token({ agent: "hank", workspaces: ["oauth/*"], role: "write" });
    const form = (fields: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams(fields).toString(),
    });
    const listed = await (await send("/oauth/grants", form({ action: "list", team_token: bearer }))).text();
    expect(listed).toContain("gina.laptop");
    expect(listed).toContain("Test Client");
    const grantId = /name="grant_id" value="([^"]+)"/.exec(listed)?.[1] ?? "";
    expect(grantId).not.toBe("");
    const othersView = await (await send("/oauth/grants", form({ action: "list", team_token: other }))).text();
    expect(othersView).not.toContain("gina.laptop");
    const notTheirs = await (await send("/oauth/grants", form({ action: "revoke", grant_id: grantId, team_token: other }))).text();
    expect(notTheirs).not.toContain("Revoked:");
    expect((await structured(await callWith(tokens.access_token, "ping", { workspace: "oauth/g" }))).error).toBeUndefined();
    const revoked = await (await send("/oauth/grants", form({ action: "revoke", grant_id: grantId, team_token: bearer }))).text();
    expect(revoked).toContain("Revoked: Test Client");
    const after = await callWith(tokens.access_token, "ping", { workspace: "oauth/g" });
    expect(after.status).toBe(401);
    await after.body?.cancel();
  });

  it("refuses a tampered or forged OAuth token with 401 and no data", async () => {
    const bearer = await token({ agent: "ivan", workspaces: ["oauth/*"], role: "write" });
    const tokens = await connect(bearer);
    const last = tokens.access_token.at(-1) === "a" ? "b" : "a";
    for (const forged of [`${tokens.access_token.slice(0, -1)}${last}`, "alice:grant:secret", tokens.refresh_token]) {
      const refused = await callWith(forged, "show", { workspace: "oauth/i", doc: "notes" });
      expect(refused.status, forged).toBe(401);
      expect(await refused.text()).not.toContain("entries");
    }
  });

  it("leaves team tokens working on the same endpoint", async () => {
    const answer = await structured(await callWith(await token({ agent: "dave" }), "ping", { workspace: "oauth/d" }));
    expect(answer.error).toBeUndefined();
  });
});
