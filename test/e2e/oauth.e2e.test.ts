// OAuth end to end (docs/oauth.md) with a client nobody on this project wrote: the official MCP
// TypeScript SDK's client auth flow against `wrangler dev` in token mode with OAuth switched on.
// Discovery from the 401, dynamic registration and PKCE are the SDK's; the consent page is driven in
// headless Chromium as a person would (paste the team token, pick the role, Allow); the browser's
// redirect to the client's callback carries the code, which the SDK exchanges; then the SDK calls tools
// as the grant's agent, a read grant is refused a write, and a page approved as shown grants the scope the
// 401 named (write), not the admin role an admin team token would allow.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./helpers/browser";
import { type CodeListener, type ConsentRole, connectThroughOAuth, listenForCodes } from "./helpers/oauth-sdk";
import { tokenFor } from "./helpers/seed";
import type { E2eServer } from "./helpers/server";
import { startServerAndBrowser } from "./helpers/start";

const ROOT = join(import.meta.dirname, "..", "..");

let server: E2eServer;
let browser: Browser;
let listener: CodeListener;

beforeAll(async () => {
  listener = await listenForCodes();
  await startServerAndBrowser(ROOT, { oauth: true }, (started) => {
    if (started.server) server = started.server;
    if (started.browser) browser = started.browser;
  });
});

afterAll(async () => {
  await listener?.close();
  await browser?.close();
  await server?.stop();
});

function connect(name: string, teamToken: string, role: ConsentRole) {
  return connectThroughOAuth(browser, listener, new URL(`${server.base}/mcp?toolset=full`), name, teamToken, role);
}

describe("OAuth with the MCP TypeScript SDK and a person in a browser", () => {
  it("discovers, registers, consents, exchanges and calls tools as the grant's agent", async () => {
    const teamToken = await tokenFor(server.secret, "alice", "write", 3_600, ["e2e/**"]);
    const { client } = await connect("E2E SDK Client", teamToken, "write");
    const written = await client.callTool({ name: "notes_commit", arguments: { workspace: "e2e/oauth", content: "through OAuth" } });
    expect(written.isError).toBeFalsy();
    expect((written.structuredContent as { entry: { agent_id: string } }).entry.agent_id).toBe("alice.e2e-sdk-client");
    const outside = await client.callTool({ name: "notes_commit", arguments: { workspace: "elsewhere/x", content: "no" } });
    expect((outside.structuredContent as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    await client.close();
  });

  it("a read grant reads and is refused a write, naming the scope", async () => {
    const teamToken = await tokenFor(server.secret, "bob", "write", 3_600, ["e2e/**"]);
    const { client } = await connect("E2E Reader", teamToken, "read");
    const read = await client.callTool({ name: "show", arguments: { workspace: "e2e/oauth", doc: "notes" } });
    expect(read.isError).toBeFalsy();
    const write = await client.callTool({ name: "notes_commit", arguments: { workspace: "e2e/oauth", content: "no" } });
    expect(write.isError).toBe(true);
    expect((write.structuredContent as { error: { message: string } }).error.message).toContain("OAuth scope write");
    await client.close();
  });

  it("asks for the scope the 401 names, and the page approved as shown grants no more, whatever the team token allows", async () => {
    const teamToken = await tokenFor(server.secret, "carol", "admin", 3_600, ["e2e/**"]);
    const { client, provider } = await connect("E2E As Shown", teamToken, "as shown");
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
