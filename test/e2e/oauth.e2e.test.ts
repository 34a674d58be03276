// OAuth end to end (docs/oauth.md) with a client nobody on this project wrote: the official MCP
// TypeScript SDK's client auth flow against `wrangler dev` in token mode with OAuth switched on.
// Discovery from the 401, dynamic registration and PKCE are the SDK's; the consent page is driven in
// headless Chromium as a person would (paste the team token, pick the role, Allow); the browser's
// redirect to the client's callback carries the code, which the SDK exchanges; then the SDK calls tools
// as the grant's agent, a read grant is refused a write, and a page approved as shown grants the scope the
// 401 named (write), not the admin role an admin team token would allow.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./helpers/browser";
import { tokenFor } from "./helpers/seed";
import type { E2eServer } from "./helpers/server";
import { startServerAndBrowser } from "./helpers/start";

const ROOT = join(import.meta.dirname, "..", "..");
/** The client's loopback listener, as a desktop app runs one: it takes the code the browser brings back. */
let callback = "";
let callbackServer: Server;
const codes: string[] = [];
/** The consent page and the redirect after it, on a busy machine. */
const NAVIGATION_TIMEOUT_MS = 20_000;

let server: E2eServer;
let browser: Browser;

beforeAll(async () => {
  callbackServer = createServer((request, response) => {
    codes.push(new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("code") ?? "");
    response.writeHead(200, { "content-type": "text/plain" }).end("You can close this window.");
  });
  await new Promise<void>((ready) => callbackServer.listen(0, "127.0.0.1", ready));
  callback = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
  await startServerAndBrowser(ROOT, { oauth: true }, (started) => {
    if (started.server) server = started.server;
    if (started.browser) browser = started.browser;
  });
});

afterAll(async () => {
  await new Promise((closed) => callbackServer?.close(closed));
  await browser?.close();
  await server?.stop();
});

/** What an MCP client keeps between runs, in memory; the authorization URL is handed to the test's browser. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  constructor(private readonly name: string) {}
  get redirectUrl(): string {
    return callback;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [callback],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * The person's part: open the page, paste the team token, pick the role (or leave the one shown), Allow;
 * the code the app receives.
 */
async function consentInBrowser(url: URL, teamToken: string, role: "read" | "write" | "as shown"): Promise<string> {
  const page = browser.page;
  const before = codes.length;
  await page.goto(url.toString(), { timeout: NAVIGATION_TIMEOUT_MS });
  await page.getByLabel(/Your team token/).fill(teamToken);
  if (role !== "as shown") await page.getByLabel(/^Role/).selectOption(role);
  await Promise.all([
    page.waitForURL(`${callback}**`, { timeout: NAVIGATION_TIMEOUT_MS }),
    page.getByRole("button", { name: "Allow" }).click(),
  ]);
  expect(codes.length).toBe(before + 1);
  return codes.at(-1) ?? "";
}

/** Connects as the SDK does: the first try needs authorization, the person consents, the second try works. */
async function connectThroughOAuth(
  name: string,
  teamToken: string,
  role: "read" | "write" | "as shown",
): Promise<{ client: Client; provider: MemoryProvider }> {
  const provider = new MemoryProvider(name);
  const url = new URL(`${server.base}/mcp?toolset=full`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const client = new Client({ name, version: "1.0.0" });
  await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl?.pathname).toBe("/authorize");
  const code = await consentInBrowser(provider.authorizationUrl as URL, teamToken, role);
  expect(code).not.toBe("");
  await first.finishAuth(code);
  const connected = new Client({ name, version: "1.0.0" });
  await connected.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client: connected, provider };
}

describe("OAuth with the MCP TypeScript SDK and a person in a browser", () => {
  it("discovers, registers, consents, exchanges and calls tools as the grant's agent", async () => {
    const teamToken = await tokenFor(server.secret, "alice", "write", 3_600, ["e2e/**"]);
    const { client } = await connectThroughOAuth("E2E SDK Client", teamToken, "write");
    const written = await client.callTool({ name: "notes_commit", arguments: { workspace: "e2e/oauth", content: "through OAuth" } });
    expect(written.isError).toBeFalsy();
    expect((written.structuredContent as { entry: { agent_id: string } }).entry.agent_id).toBe("alice.e2e-sdk-client");
    const outside = await client.callTool({ name: "notes_commit", arguments: { workspace: "elsewhere/x", content: "no" } });
    expect((outside.structuredContent as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    await client.close();
  });

  it("a read grant reads and is refused a write, naming the scope", async () => {
    const teamToken = await tokenFor(server.secret, "bob", "write", 3_600, ["e2e/**"]);
    const { client } = await connectThroughOAuth("E2E Reader", teamToken, "read");
    const read = await client.callTool({ name: "show", arguments: { workspace: "e2e/oauth", doc: "notes" } });
    expect(read.isError).toBeFalsy();
    const write = await client.callTool({ name: "notes_commit", arguments: { workspace: "e2e/oauth", content: "no" } });
    expect(write.isError).toBe(true);
    expect((write.structuredContent as { error: { message: string } }).error.message).toContain("OAuth scope write");
    await client.close();
  });

  it("asks for the scope the 401 names, and the page approved as shown grants no more, whatever the team token allows", async () => {
    const teamToken = await tokenFor(server.secret, "carol", "admin", 3_600, ["e2e/**"]);
    const { client, provider } = await connectThroughOAuth("E2E As Shown", teamToken, "as shown");
    expect(provider.authorizationUrl?.searchParams.get("scope")).toBe("write");
    expect(provider.saved?.scope?.split(" ").sort()).toEqual(["read", "write"]);
    const written = await client.callTool({ name: "notes_commit", arguments: { workspace: "e2e/oauth", content: "as shown" } });
    expect(written.isError).toBeFalsy();
    const exported = await client.callTool({ name: "workspace_export", arguments: { workspace: "e2e/oauth" } });
    expect(exported.isError).toBe(true);
    expect((exported.structuredContent as { error: { details: { scope_required: string } } }).error.details.scope_required).toBe("admin");
    await client.close();
  });
});
