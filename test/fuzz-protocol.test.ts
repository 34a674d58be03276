// Fuzzing the protocol (issue 11): malformed JSON-RPC (not JSON, wrong version, missing or unknown
// method, wrong params, batches, odd headers) and request bodies around the 1 MiB cap, sent whole or
// streamed, through the real Worker. The harness, its checks and the fuzz workspace are in test/fuzz/
// (harness.ts describes the properties and the VITE_FUZZ_* knobs); see docs/ci.md.

import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_REQUEST_BODY_BYTES } from "../src/shared/limits";
import { jsonRpcJunk, type RawRequest } from "./fuzz/arbitraries";
import { fuzzCall } from "./fuzz/checks";
import { BASE_SEED, BODY_RUNS, JSONRPC_RUNS, runGroup, selected, show, stats, timeoutFor } from "./fuzz/harness";
import { bearers, setUpFuzzing } from "./fuzz/workspace";
import { PROTOCOL } from "./helpers/mcp";

/** Its own workspace, not test/fuzz-tools.test.ts's (workspace names stay unique across test files). */
const WORKSPACE = "fuzz/protocol";

describe("fuzzing", () => {
  setUpFuzzing(WORKSPACE, "test/fuzz-protocol.test.ts");

  it(
    "malformed JSON-RPC: not JSON, wrong version, missing or unknown method, wrong params, batches, odd headers",
    async () => {
      const failuresBefore = stats.failures.length;
      if (!selected("jsonrpc")) return;
      await runGroup("json-rpc", BASE_SEED + 2_000, JSONRPC_RUNS, jsonRpcJunk, async (request: RawRequest) => {
        stats.groups.jsonrpc++;
        await fuzzCall(`json-rpc ${request.label} ${show(request)}`, () => post(request.body, request.headers));
      });
      expect(stats.failures.slice(failuresBefore)).toEqual([]);
    },
    timeoutFor(JSONRPC_RUNS),
  );

  it(
    "request bodies around the 1 MiB cap: 413 PAYLOAD_TOO_LARGE above it, streamed or not",
    async () => {
      const failuresBefore = stats.failures.length;
      if (!selected("body")) return;
      const cap = MAX_REQUEST_BODY_BYTES;
      const sizes = fc.record({
        size: fc.oneof(fc.constantFrom(cap - 1, cap, cap + 1, 2 * cap, 4 * cap), fc.integer({ min: cap - 64, max: cap + 64 })),
        streamed: fc.boolean(),
      });
      await runGroup("body", BASE_SEED + 3_000, BODY_RUNS, sizes, async ({ size, streamed }) => {
        stats.groups.body++;
        const text = pingOfSize(size);
        await fuzzCall(`body of ${size} bytes${streamed ? ", streamed" : ""}`, () => post(text, { "mcp-name": "ping" }, streamed), {
          status: size > cap ? 413 : 200,
        });
      });
      expect(stats.failures.slice(failuresBefore)).toEqual([]);
    },
    timeoutFor(BODY_RUNS),
  );
});

/** A tools/call of `ping` padded with an unknown argument to exactly `size` bytes (ASCII). */
function pingOfSize(size: number): string {
  const head = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping","arguments":{"workspace":"${WORKSPACE}","pad":"`;
  const meta = {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL,
    "io.modelcontextprotocol/clientInfo": { name: "branchmind-fuzz", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const tail = `"},"_meta":${JSON.stringify(meta)}}}`;
  return `${head}${"x".repeat(Math.max(0, size - head.length - tail.length))}${tail}`;
}

async function post(body: string, headers: Record<string, string | undefined>, streamed = false): Promise<Response> {
  const merged: Record<string, string | undefined> = {
    host: "localhost",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL,
    "mcp-method": "tools/call",
    authorization: `Bearer ${bearers.admin}`,
    ...headers,
  };
  const defined = Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const bytes = new TextEncoder().encode(body);
  const payload = streamed
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          for (let offset = 0; offset < bytes.length; offset += 64 * 1024) controller.enqueue(bytes.slice(offset, offset + 64 * 1024));
          controller.close();
        },
      })
    : bytes;
  return exports.default.fetch(new Request("http://localhost/mcp?toolset=full", { method: "POST", headers: defined, body: payload }));
}
