/**
 * What `npm run backup` and `npm run restore` share: the connection options (`--url`, `--workspace`,
 * `--token`, or `BRANCHMIND_TOKEN` from the environment), the MCP client they make, a page's size as it
 * travels, and reading a tool's typed error out of a failed call.
 */
import { createMcpClient, McpCallError, type McpClient } from "./mcp-http.ts";

export interface Connection {
  client: McpClient;
  workspace: string;
  /** Where the calls go, for messages. */
  endpoint: string;
}

/** A tool's typed error: `{code, message, recovery_hint, details?}`. */
export interface ToolError {
  code: string;
  message: string;
  recovery_hint: string;
  details?: Record<string, unknown>;
}

/** Each call carries one page (well under a second of work on the server); a slow link gets this long. */
const CALL_TIMEOUT_MS = 300_000;

export function die(script: string, message: string): never {
  process.stderr.write(`${script}: ${message}\n`);
  process.exit(2);
}

/** `--url` is the deployment's base URL (`https://…`) or its MCP endpoint (`…/mcp`); the full toolset is asked for. */
export function endpointOf(url: string): string {
  const parsed = new URL(url);
  if (!parsed.pathname.endsWith("/mcp")) parsed.pathname = `${parsed.pathname.replace(/\/+$/, "")}/mcp`;
  parsed.searchParams.set("toolset", "full");
  return parsed.toString();
}

export function connect(script: string, values: { url?: string; workspace?: string; token?: string }): Connection {
  if (values.url === undefined) die(script, "--url is required (e.g. http://127.0.0.1:8787 for npm run dev)");
  if (values.workspace === undefined) die(script, "--workspace is required");
  let endpoint: string;
  try {
    endpoint = endpointOf(values.url);
  } catch {
    die(script, `--url ${values.url} is not a URL`);
  }
  const token = values.token ?? process.env.BRANCHMIND_TOKEN;
  const client = createMcpClient({ endpoint, agentId: script, token, clientName: script, timeoutMs: CALL_TIMEOUT_MS });
  return { client, workspace: values.workspace, endpoint };
}

/** The typed error of a failed tool call, or undefined for any other failure (network, HTTP, protocol). */
export function toolErrorOf(error: unknown): ToolError | undefined {
  if (!(error instanceof McpCallError) || error.kind !== "tool-error") return undefined;
  const content = error.detail as { error?: ToolError } | undefined;
  return content?.error;
}

export function describe(error: unknown): string {
  const typed = toolErrorOf(error);
  if (typed !== undefined) return `${typed.code}: ${typed.message} (${typed.recovery_hint})`;
  return error instanceof Error ? error.message : String(error);
}

/** A line's size inside a call, in bytes, as the server measures a page: JSON-escaped, plus its escaped newline. */
export function transportBytes(line: string): number {
  return Buffer.byteLength(JSON.stringify(line));
}
