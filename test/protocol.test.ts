// End-to-end: the MCP transport edges — both protocol eras, a real 2025-era SDK client, malformed and
// oversized requests, unknown tools, methods and routes. Tools themselves are covered by the other files.

import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { WORKSPACE_MIGRATIONS } from "../src/storage/migrations";
import { rpc, token } from "./helpers/mcp";

async function legacyClient(path = "/mcp?toolset=full"): Promise<Client> {
  const bearer = await token({ agent: "legacy-agent" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost${path}`), {
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
    requestInit: { headers: { host: "localhost", authorization: `Bearer ${bearer}` } },
  });
  const client = new Client({ name: "legacy-test-client", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("2025-era clients (initialize handshake, SDK v1)", () => {
  it("lists and calls tools, with structured results validated by the client", async () => {
    const client = await legacyClient();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("notes_commit");
    const written = await client.callTool({ name: "notes_commit", arguments: { workspace: "protocol/legacy", content: "hello" } });
    expect(written.isError).toBeFalsy();
    expect(written.structuredContent).toMatchObject({ entry: { seq: 1, content: "hello", agent_id: "legacy-agent" } });
    const failed = await client.callTool({ name: "show", arguments: { workspace: "protocol/legacy", branch: "nope" } });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ error: { code: "UNKNOWN_ID" } });
    await client.close();
  });

  it("accepts seed 000's branchmind_* names when called", async () => {
    const client = await legacyClient();
    const result = await client.callTool({ name: "branchmind_status", arguments: { workspace: "protocol/legacy" } });
    expect(result.structuredContent).toMatchObject({ workspace: "protocol/legacy", schema_version: WORKSPACE_MIGRATIONS.length });
    await client.close();
  });
});

describe("2026-07-28 clients (per-request envelope)", () => {
  it("lists tools and calls one as JSON", async () => {
    const listed = await rpc("tools/list", {});
    expect(listed.status).toBe(200);
    expect(listed.headers.get("content-type")).toContain("application/json");
    const body = (await listed.json()) as { result: { tools: { name: string }[] } };
    expect(body.result.tools.length).toBeGreaterThan(20);
    const called = (await (await rpc("tools/call", { name: "ping", arguments: { workspace: "protocol/modern" } })).json()) as {
      result: { structuredContent: { pong: boolean } };
    };
    expect(called.result.structuredContent.pong).toBe(true);
  });

  it("answers an unknown tool with a JSON-RPC invalid-params error", async () => {
    const response = await rpc("tools/call", { name: "no_such_tool", arguments: {} });
    const body = (await response.json()) as { error?: { code: number; message: string } };
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toContain("no_such_tool");
  });
});

describe("malformed and oversized requests", () => {
  const post = async (body: string, extra: Record<string, string> = {}) =>
    exports.default.fetch(
      new Request("http://localhost/mcp?toolset=full", {
        method: "POST",
        headers: {
          host: "localhost",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${await token()}`,
          ...extra,
        },
        body,
      }),
    );

  it("answers malformed JSON with a protocol error, never a 500", async () => {
    // Bodies that parse to an object or array reach the handler parsed (index.ts); the rest it reads itself.
    const parsedByTheWorker = ["[]", '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","id":1,"method":42}', '[{"jsonrpc":"2.0","id":1,"method":42}]'];
    for (const body of ["{not json", "", "42", "null", '"tools/call"', ...parsedByTheWorker]) {
      const response = await post(body);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      await response.body?.cancel();
    }
  });

  it("refuses bodies over the cap with PAYLOAD_TOO_LARGE", async () => {
    const response = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ping", arguments: { pad: "x".repeat(1_100_000) } } }),
    );
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: { data: { code: string } } };
    expect(body.error.data.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("refuses GET on the endpoint, unknown routes, unknown toolsets and foreign origins", async () => {
    const bearer = await token();
    const get = await exports.default.fetch(
      new Request("http://localhost/mcp", { headers: { host: "localhost", authorization: `Bearer ${bearer}` } }),
    );
    expect(get.status).toBe(405);
    await get.body?.cancel();
    const missing = await exports.default.fetch(new Request("http://localhost/nope", { headers: { host: "localhost" } }));
    expect(missing.status).toBe(404);
    await missing.body?.cancel();
    const toolset = await rpc("tools/list", {}, { path: "/mcp?toolset=everything" });
    expect(toolset.status).toBe(400);
    await toolset.body?.cancel();
    const foreign = await rpc("tools/list", {}, { headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    await foreign.body?.cancel();
  });

  it("serves /health without auth", async () => {
    const response = await exports.default.fetch(new Request("http://localhost/health", { headers: { host: "localhost" } }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, server: { name: "branchmind" } });
  });
});
