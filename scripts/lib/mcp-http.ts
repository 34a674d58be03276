/**
 * A minimal MCP client over HTTP for scripts that drive a running server (benchmark, load test,
 * fuzzer): one stateless `tools/call` per request, in the 2026-07-28 protocol's envelope (protocol
 * version, client info and capabilities in `_meta`; the method and tool name repeated as headers).
 * It accepts a JSON body or an SSE stream, times each call on the client (fetch + body read) and turns
 * every failure (HTTP status, JSON-RPC error, `isError`, a malformed answer) into an `McpCallError`.
 *
 * Deliberately not the SDK: no session, no initialize round trip, nothing between the caller and the
 * request it times.
 */
import { performance } from "node:perf_hooks";

export const PROTOCOL_VERSION = "2026-07-28";
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

export type Json = Record<string, unknown>;

/** A successful call: its client-side latency and the tool's `structuredContent`. */
export interface Call {
  ms: number;
  value: Json;
}

/**
 * How a call failed: `http` (status other than 200), `json-rpc` (an `error` member), `no-result`
 * (neither error nor result), `tool-error` (`isError: true`), `no-structured-content`.
 */
export type McpFailure = "http" | "json-rpc" | "no-result" | "tool-error" | "no-structured-content";

export class McpCallError extends Error {
  readonly tool: string;
  readonly kind: McpFailure;
  /** The HTTP status, the JSON-RPC error, or the tool's `structuredContent`, by `kind`. */
  readonly detail: unknown;

  constructor(tool: string, kind: McpFailure, message: string, detail?: unknown) {
    super(message);
    this.name = "McpCallError";
    this.tool = tool;
    this.kind = kind;
    this.detail = detail;
  }
}

export interface McpClientOptions {
  /** Full MCP URL, query included (e.g. `http://127.0.0.1:8787/mcp?toolset=full`). */
  endpoint: string;
  /** Sent as `X-Agent-Id` (names the agent when the server runs with `AUTH_MODE=dev`). */
  agentId: string;
  /** A bearer token (`npm run token`), for a server in token mode; omitted in dev mode. */
  token?: string;
  clientName: string;
  clientVersion?: string;
  /** Aborts every request in flight (e.g. the dev server's `shutdownSignal`). */
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface McpClient {
  callTool(tool: string, args: Json): Promise<Call>;
}

/** A signal that fires on `signal` or after `timeoutMs`, whichever comes first. */
export function requestSignal(signal: AbortSignal | undefined, timeoutMs: number = DEFAULT_REQUEST_TIMEOUT_MS): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
}

/** Fetches `url` and reads the whole body; `ms` covers both, as a client would see it. */
export async function timedFetch(url: string, init: RequestInit): Promise<{ ms: number; response: Response; text: string }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  return { ms: performance.now() - started, response, text };
}

/** The JSON-RPC message answering `id`, from a JSON body or an SSE stream. */
export function parseMessage(text: string, contentType: string, id: number): Json {
  if (!contentType.includes("text/event-stream")) return JSON.parse(text) as Json;
  let found: Json | undefined;
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const message = JSON.parse(line.slice(5).trim()) as Json;
    if (message.id === id) found = message;
  }
  if (found === undefined) throw new Error(`no JSON-RPC answer with id ${id} in the event stream`);
  return found;
}

export function createMcpClient(options: McpClientOptions): McpClient {
  const clientInfo = { name: options.clientName, version: options.clientVersion ?? "1" };
  let nextId = 1;

  async function callTool(tool: string, args: Json): Promise<Call> {
    const id = nextId++;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: tool,
        arguments: args,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
          "io.modelcontextprotocol/clientInfo": clientInfo,
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    });
    const signal = requestSignal(options.signal, options.timeoutMs);
    const { ms, response, text } = await timedFetch(options.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": PROTOCOL_VERSION,
        "mcp-method": "tools/call",
        "mcp-name": tool,
        "x-agent-id": options.agentId,
        ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      },
      body,
      signal,
    });
    if (response.status !== 200) {
      throw new McpCallError(tool, "http", `${tool}: HTTP ${response.status}: ${text.slice(0, 2_000)}`, response.status);
    }
    const message = parseMessage(text, response.headers.get("content-type") ?? "", id);
    if (message.error !== undefined) {
      throw new McpCallError(tool, "json-rpc", `${tool}: JSON-RPC error: ${JSON.stringify(message.error)}`, message.error);
    }
    const result = message.result as { isError?: boolean; structuredContent?: Json } | undefined;
    if (result === undefined) throw new McpCallError(tool, "no-result", `${tool}: answer without result: ${text.slice(0, 2_000)}`);
    if (result.isError) {
      throw new McpCallError(tool, "tool-error", `${tool} failed: ${JSON.stringify(result.structuredContent)}`, result.structuredContent);
    }
    if (result.structuredContent === undefined) {
      throw new McpCallError(tool, "no-structured-content", `${tool}: result without structuredContent`);
    }
    return { ms, value: result.structuredContent };
  }

  return { callTool };
}
