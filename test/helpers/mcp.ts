/**
 * Test client for the Worker's MCP endpoint: real JSON-RPC over HTTP through `exports.default.fetch`
 * (2026-07-28 per-request envelope), with dev-free token auth. Each test names its own workspace.
 */
import { env, exports } from "cloudflare:workers";
import { mintToken, newTokenId, type TokenClaims, type TokenRole } from "../../src/worker/token";

export const PROTOCOL = "2026-07-28";
const SECRET = env.AUTH_SECRET as string;

export interface TokenOptions {
  agent?: string;
  workspaces?: string[];
  role?: TokenRole;
  expiresInSeconds?: number;
  keyId?: string;
  secret?: string;
}

export async function token(options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: TokenClaims = {
    v: 1,
    kid: options.keyId ?? "k1",
    jti: newTokenId(),
    sub: options.agent ?? "alice",
    ws: options.workspaces ?? ["**"],
    role: options.role ?? "write",
    iat: now,
    exp: now + (options.expiresInSeconds ?? 3600),
  };
  return mintToken(options.secret ?? SECRET, claims);
}

export interface RpcOptions {
  path?: string;
  bearer?: string | null;
  headers?: Record<string, string>;
}

let nextId = 1;

export async function rpc(method: string, params: Record<string, unknown>, options: RpcOptions = {}): Promise<Response> {
  const bearer = options.bearer === undefined ? await token() : options.bearer;
  const name = typeof params.name === "string" ? params.name : undefined;
  const headers: Record<string, string> = {
    host: "localhost",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL,
    "mcp-method": method,
    ...(name && method === "tools/call" ? { "mcp-name": name } : {}),
    ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    ...options.headers,
  };
  const body = {
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientInfo": { name: "branchmind-tests", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  };
  return exports.default.fetch(
    new Request(`http://localhost${options.path ?? "/mcp?toolset=full"}`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
}

export interface ToolResult {
  isError?: boolean;
  structuredContent: Record<string, unknown>;
  content: { type: string; text: string }[];
}

/** Calls a tool and returns the tool result; fails the test on a protocol-level error. */
export async function callTool(name: string, args: Record<string, unknown>, options: RpcOptions = {}): Promise<ToolResult> {
  const response = await rpc("tools/call", { name, arguments: args }, options);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text}`);
  const message = JSON.parse(text) as { result?: ToolResult; error?: unknown };
  if (!message.result) throw new Error(`JSON-RPC error: ${text}`);
  return message.result;
}

/** Calls a tool that must succeed and returns its structured payload. */
export async function ok<T = Record<string, any>>(name: string, args: Record<string, unknown>, options: RpcOptions = {}): Promise<T> {
  const result = await callTool(name, args, options);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}

/** Calls a tool that must fail and returns its typed error. */
export async function failure(name: string, args: Record<string, unknown>, options: RpcOptions = {}) {
  const result = await callTool(name, args, options);
  if (!result.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(result.structuredContent)}`);
  return (
    result.structuredContent as {
      error: { code: string; message: string; recovery_hint: string; details?: Record<string, any>; actions?: Record<string, any>[] };
    }
  ).error;
}

/** Options for a second agent. */
export async function as(agent: string, extra: TokenOptions = {}): Promise<RpcOptions> {
  return { bearer: await token({ agent, ...extra }) };
}

/** One `tools/call` on the full toolset as an HTTP request (2026-07-28 envelope), for tests that fetch it themselves. */
export function toolCallRequest(name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/mcp?toolset=full", {
    method: "POST",
    headers: {
      host: "localhost",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL,
      "mcp-method": "tools/call",
      "mcp-name": name,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name,
        arguments: args,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": PROTOCOL,
          "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
}
