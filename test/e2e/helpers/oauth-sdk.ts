/**
 * OAuth end to end with a client nobody on this project wrote: the MCP TypeScript SDK's client auth flow
 * (discovery from the 401, registration, PKCE, the code exchange, refresh), its state kept in memory, a
 * loopback listener that takes the code as a desktop app's does, and a person's part on the consent page
 * in headless Chromium (paste the team token, pick the role or leave the one shown, Allow).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { expect } from "vitest";
import type { Browser } from "./browser";

/** The consent page and the redirect after it, on a busy machine. */
const NAVIGATION_TIMEOUT_MS = 20_000;

/** The client's loopback listener: each code the browser brings back, in order. */
export interface CodeListener {
  url: string;
  codes: string[];
  close(): Promise<void>;
}

export async function listenForCodes(): Promise<CodeListener> {
  const codes: string[] = [];
  const server = createServer((request, response) => {
    codes.push(new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("code") ?? "");
    response.writeHead(200, { "content-type": "text/plain" }).end("You can close this window.");
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    codes,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}

/** What an MCP client keeps between runs, in memory; the authorization URL is handed to the test's browser. */
export class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  constructor(
    private readonly name: string,
    private readonly callback: string,
  ) {}
  get redirectUrl(): string {
    return this.callback;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.callback],
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
  /** What the SDK drops when the server refuses it (a refresh refused with invalid_grant: the tokens). */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
    if (scope === "all" || scope === "verifier") this.verifier = "";
  }
}

export type ConsentRole = "read" | "write" | "as shown";

/** The person's part: open the page, paste the team token, pick the role (or leave it), Allow; the code the app receives. */
export async function consentInBrowser(
  browser: Browser,
  listener: CodeListener,
  url: URL,
  teamToken: string,
  role: ConsentRole,
): Promise<string> {
  const page = browser.page;
  const before = listener.codes.length;
  await page.goto(url.toString(), { timeout: NAVIGATION_TIMEOUT_MS });
  await page.getByLabel(/Your team token/).fill(teamToken);
  if (role !== "as shown") await page.getByLabel(/^Role/).selectOption(role);
  await Promise.all([
    page.waitForURL(`${listener.url}**`, { timeout: NAVIGATION_TIMEOUT_MS }),
    page.getByRole("button", { name: "Allow" }).click(),
  ]);
  expect(listener.codes.length).toBe(before + 1);
  return listener.codes.at(-1) ?? "";
}

/**
 * Connects as the SDK does: the first try needs authorization, the person consents, the second try works.
 * With `provider`, an app that connected before comes back (its registration kept, its grant ended).
 */
export async function connectThroughOAuth(
  browser: Browser,
  listener: CodeListener,
  mcpUrl: URL,
  name: string,
  teamToken: string,
  role: ConsentRole,
  provider = new MemoryProvider(name, listener.url),
): Promise<{ client: Client; provider: MemoryProvider }> {
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const client = new Client({ name, version: "1.0.0" });
  await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl?.pathname).toBe("/authorize");
  const code = await consentInBrowser(browser, listener, provider.authorizationUrl as URL, teamToken, role);
  expect(code).not.toBe("");
  await first.finishAuth(code);
  const connected = new Client({ name, version: "1.0.0" });
  await connected.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client: connected, provider };
}
