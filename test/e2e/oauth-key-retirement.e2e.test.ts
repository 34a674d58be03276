// A grant ends when the key that signed its team token is retired (docs/oauth.md, "When a grant ends"),
// end to end with the MCP TypeScript SDK's auth flow: a deployment mid-rotation (k2 the main key, k1
// still in AUTH_SECRETS) where a person connects an app with a k1 team token; the same deployment
// restarted on the same state and port with k1 retired (docs/deploy.md section 8, step 4). The grant's
// access token is refused with the reason, the SDK's refresh is refused, so the SDK goes back to the
// consent page by itself, and connecting again with a k2 team token works.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/wrangler-dev.ts";
import { mintToken, newTokenId } from "../../src/worker/token";
import type { Browser } from "./helpers/browser";
import { type CodeListener, connectThroughOAuth, listenForCodes } from "./helpers/oauth-sdk";
import { tokenFor } from "./helpers/seed";
import { type E2eServer, startServer } from "./helpers/server";
import { startServerAndBrowser } from "./helpers/start";

const ROOT = join(import.meta.dirname, "..", "..");
/** Two restarts of wrangler and two consents, on a busy machine. */
const FLOW_TIMEOUT_MS = 180_000;
const OLD_SECRET = randomBytes(32).toString("base64url");
const NEW_SECRET = randomBytes(32).toString("base64url");

let server: E2eServer | undefined;
let browser: Browser | undefined;
let listener: CodeListener | undefined;
let state = "";
let port = 0;

beforeAll(async () => {
  state = mkdtempSync(join(tmpdir(), "branchmind-e2e-keys-"));
  port = await freePort();
  listener = await listenForCodes();
  const rotating = { AUTH_SECRET: NEW_SECRET, AUTH_KEY_ID: "k2", AUTH_SECRETS: `k1:${OLD_SECRET}` };
  await startServerAndBrowser(ROOT, { oauth: true, state, port, secrets: rotating }, (started) => {
    server = started.server;
    browser = started.browser;
  });
});

afterAll(async () => {
  await listener?.close();
  await browser?.close();
  await server?.stop();
  if (state !== "") rmSync(state, { recursive: true, force: true });
});

async function newKeyToken(agent: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return mintToken(NEW_SECRET, {
    v: 1,
    kid: "k2",
    jti: newTokenId(),
    sub: agent,
    ws: ["e2e/**"],
    role: "write",
    iat: now,
    exp: now + 3_600,
  });
}

describe("OAuth grants and key retirement, with the MCP TypeScript SDK", () => {
  it(
    "a grant made with a k1 team token ends when k1 is retired; the app connects again with a k2 one",
    async () => {
      const live = { browser: browser as Browser, listener: listener as CodeListener };
      const url = new URL(`http://127.0.0.1:${port}/mcp?toolset=full`);
      const oldToken = await tokenFor(OLD_SECRET, "olga", "write", 3_600, ["e2e/**"]);
      const { client, provider } = await connectThroughOAuth(live.browser, live.listener, url, "E2E Rotating", oldToken, "as shown");
      const before = await client.callTool({ name: "notes_commit", arguments: { workspace: "e2e/keys", content: "before" } });
      expect(before.isError).toBeFalsy();
      await client.close();

      await server?.stop();
      server = undefined;
      server = await startServer(ROOT, { oauth: true, state, port, secrets: { AUTH_SECRET: NEW_SECRET, AUTH_KEY_ID: "k2" } });

      const refused = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${provider.saved?.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain("the key that signed the team token behind this grant was retired");
      const body = (await refused.json()) as { error: { code: string; recovery_hint: string } };
      expect(body.error.code).toBe("UNAUTHORIZED");
      expect(body.error.recovery_hint).toContain("Connect the app again with a current team token");

      // The SDK meets the 401, tries its refresh token (refused: invalid_grant), and asks for authorization.
      const again = new Client({ name: "E2E Rotating", version: "1.0.0" });
      await expect(again.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      expect(provider.authorizationUrl?.pathname).toBe("/authorize");

      const renewed = await connectThroughOAuth(
        live.browser,
        live.listener,
        url,
        "E2E Rotating",
        await newKeyToken("olga"),
        "as shown",
        provider,
      );
      const after = await renewed.client.callTool({ name: "notes_commit", arguments: { workspace: "e2e/keys", content: "after" } });
      expect(after.isError).toBeFalsy();
      expect((after.structuredContent as { entry: { agent_id: string } }).entry.agent_id).toBe("olga.e2e-rotating");
      await renewed.client.close();
    },
    FLOW_TIMEOUT_MS,
  );
});
