// A grant ends when the key that signed its team token is retired (docs/oauth.md, "When a grant ends";
// docs/deploy.md, rotating the key): through the Worker's real fetch, a grant keeps working while its
// key is configured (under AUTH_SECRET or AUTH_SECRETS), and once the key is retired its calls and its
// refreshes are refused with the reason and the way back (connect again). A grant made before grants
// recorded their key is refused the same way.

import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { describe, expect, it } from "vitest";
import { AUTHORIZE_PATH, type GrantProps, OAUTH_SCOPES, REGISTER_PATH, TOKEN_PATH } from "../src/worker/oauth/oauth-server";
import { token } from "./helpers/mcp";
import { callWith, connect, ORIGIN, refresh, startAuthorization, structured } from "./helpers/oauth";

const FIRST_SECRET = env.AUTH_SECRET as string;
const SECOND_SECRET = "a-second-secret-for-key-k2-grant-tests";
/** Rotation under way (docs/deploy.md section 8, steps 1-3): k2 is the main key, k1 still accepted. */
const ROTATING = { ...env, AUTH_SECRET: SECOND_SECRET, AUTH_KEY_ID: "k2", AUTH_SECRETS: `k1:${FIRST_SECRET}` } as Env;
/** Rotation done (step 4): k1 is retired. */
const RETIRED = { ...env, AUTH_SECRET: SECOND_SECRET, AUTH_KEY_ID: "k2", AUTH_SECRETS: undefined } as Env;

async function expectRefused(response: Response, reason: string): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toContain(reason);
  const body = (await response.json()) as { error: { code: string; message: string; recovery_hint: string } };
  expect(body.error.code).toBe("UNAUTHORIZED");
  expect(body.error.message).toContain(reason);
  expect(body.error.recovery_hint).toContain("Connect the app again with a current team token");
}

describe("a grant and the key of its team token", () => {
  it("works while the key is configured, and ends, refreshes included, once it is retired", async () => {
    const bearer = await token({ agent: "kim", workspaces: ["keys/*"], role: "write" });
    const tokens = await connect(bearer);
    expect((await structured(await callWith(tokens.access_token, "ping", { workspace: "keys/a" }, ROTATING))).error).toBeUndefined();
    const refreshed = await refresh(tokens.clientId, tokens.refresh_token, ROTATING);
    const refreshedText = await refreshed.text();
    expect(refreshed.status, refreshedText).toBe(200);
    const next = JSON.parse(refreshedText) as { access_token: string; refresh_token: string };

    await expectRefused(await callWith(next.access_token, "ping", { workspace: "keys/a" }, RETIRED), "was retired");
    const noRefresh = await refresh(tokens.clientId, next.refresh_token, RETIRED);
    expect(noRefresh.status).toBe(400);
    const refusal = (await noRefresh.json()) as { error: string; error_description: string };
    expect(refusal.error).toBe("invalid_grant");
    expect(refusal.error_description).toContain("was retired");
    expect(refusal.error_description).toContain("connect again with a current team token");
  });

  it("of a grant made before grants recorded it is unknown, so that grant has ended", async () => {
    // The grant and its tokens as the previous version made them: its consent page recorded no key id, and
    // its token endpoint (no check of the key) exchanged the code. Calls and refreshes then meet this one.
    const older = new OAuthAuthorizationServer<Env>({
      issuer: ORIGIN,
      resources: [ORIGIN],
      defaultResource: ORIGIN,
      authorizeEndpoint: AUTHORIZE_PATH,
      tokenEndpoint: TOKEN_PATH,
      clientRegistrationEndpoint: REGISTER_PATH,
      scopesSupported: [...OAUTH_SCOPES],
    });
    const started = await startAuthorization("write");
    const oauth = older.getOAuthApi(env as Env);
    const request = await oauth.parseAuthRequest(new Request(`${ORIGIN}${started.authorizePath}`));
    const now = Math.floor(Date.now() / 1000);
    const props: Omit<GrantProps, "key_id"> = {
      agent_id: "lee.old-app",
      workspaces: ["keys/*"],
      role: "write",
      token_jti: "00000000000000aa",
      not_after: now + 3600,
    };
    const { redirectTo } = await oauth.completeAuthorization({
      request,
      userId: "lee",
      metadata: { agent_id: props.agent_id, client_name: "Test Client" },
      scope: ["read", "write"],
      props,
    });
    const exchanged = await older.fetch(
      new Request(`${ORIGIN}${TOKEN_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: new URL(redirectTo).searchParams.get("code") ?? "",
          redirect_uri: request.redirectUri,
          client_id: started.clientId,
          code_verifier: started.verifier,
          resource: ORIGIN,
        }).toString(),
      }),
      env as Env,
      createExecutionContext(),
    );
    const exchangedText = await exchanged.text();
    expect(exchanged.status, exchangedText).toBe(200);
    const tokens = JSON.parse(exchangedText) as { access_token: string; refresh_token: string };

    await expectRefused(await callWith(tokens.access_token, "ping", { workspace: "keys/b" }), "before grants recorded");
    const noRefresh = await refresh(started.clientId, tokens.refresh_token);
    expect(noRefresh.status).toBe(400);
    expect(((await noRefresh.json()) as { error: string }).error).toBe("invalid_grant");
  });
});
