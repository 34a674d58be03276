// OAuth through mcp-remote (the README's Claude Desktop path without a native connector), headless:
// mcp-remote meets the 401, registers, prints the authorization URL and listens on a loopback port; a
// person consents in headless Chromium; mcp-remote takes the code, exchanges it, and then proxies MCP
// over its stdio, where a tool call runs as the grant's agent.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/wrangler-dev.ts";
import type { Browser } from "./helpers/browser";
import { tokenFor } from "./helpers/seed";
import type { E2eServer } from "./helpers/server";
import { startServerAndBrowser } from "./helpers/start";

const ROOT = join(import.meta.dirname, "..", "..");
const MCP_REMOTE = join(ROOT, "node_modules", "mcp-remote", "dist", "proxy.js");
/** mcp-remote's start, its registration and the consent round trip, on a busy machine. */
const FLOW_TIMEOUT_MS = 45_000;

let server: E2eServer;
let browser: Browser;
let remote: ChildProcess | undefined;
let authDir = "";

beforeAll(async () => {
  authDir = mkdtempSync(join(tmpdir(), "branchmind-e2e-mcp-remote-"));
  await startServerAndBrowser(ROOT, { oauth: true }, (started) => {
    if (started.server) server = started.server;
    if (started.browser) browser = started.browser;
  });
});

afterAll(async () => {
  remote?.kill();
  await browser?.close();
  await server?.stop();
  rmSync(authDir, { recursive: true, force: true });
});

/** The first stderr text matching `pattern`, as mcp-remote logs it. */
function logged(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  let text = "";
  return new Promise((found, failed) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) found(match);
    });
    child.once("exit", (code) => failed(new Error(`mcp-remote exited (${code}) before logging ${pattern}: ${text.slice(-2_000)}`)));
  });
}

/** JSON-RPC over mcp-remote's stdio: each answer resolves the request with its id. */
function stdioClient(child: ChildProcess) {
  const waiting = new Map<number, (answer: Record<string, any>) => void>();
  let buffer = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (line === "") continue;
      const message = JSON.parse(line) as Record<string, any>;
      if (typeof message.id === "number") waiting.get(message.id)?.(message);
    }
  });
  let next = 1;
  return {
    request(method: string, params: Record<string, unknown>): Promise<Record<string, any>> {
      const id = next++;
      const answered = new Promise<Record<string, any>>((resolve) => waiting.set(id, resolve));
      child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      return answered;
    },
    notify(method: string): void {
      child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
    },
  };
}

describe("OAuth with mcp-remote and a person in a browser", () => {
  it(
    "connects, and proxies a tool call as the grant's agent",
    async () => {
      const callbackPort = await freePort();
      remote = spawn(process.execPath, [MCP_REMOTE, `${server.base}/mcp?toolset=full`, String(callbackPort), "--allow-http"], {
        // BROWSER=true: mcp-remote's attempt to open a browser does nothing; the test's Chromium opens the URL.
        env: { ...process.env, MCP_REMOTE_CONFIG_DIR: authDir, BROWSER: "true" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      const [, url] = await logged(remote, /visiting:\s*\n(\S+)/);
      const page = browser.page;
      await page.goto(url as string);
      await page.getByLabel(/Your team token/).fill(await tokenFor(server.secret, "alice", "write", 3_600, ["e2e/**"]));
      await Promise.all([page.waitForURL(`http://localhost:${callbackPort}/**`), page.getByRole("button", { name: "Allow" }).click()]);
      expect(await page.textContent("body")).toContain("Authorization successful");
      const client = stdioClient(remote);
      const initialized = await client.request("initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "e2e-over-mcp-remote", version: "1.0.0" },
      });
      expect(initialized.result?.serverInfo?.name).toBe("branchmind");
      client.notify("notifications/initialized");
      const note = await client.request("tools/call", {
        name: "notes_commit",
        arguments: { workspace: "e2e/remote", content: "via mcp-remote" },
      });
      expect(note.result?.isError ?? false).toBe(false);
      expect(note.result?.structuredContent?.entry?.agent_id).toBe("alice.mcp-cli-proxy");
    },
    FLOW_TIMEOUT_MS,
  );
});
