/**
 * The MCP side of the front door: one handler per isolate (`createMcpHandler`, stateless lane, so
 * 2026-07-28 and 2025-era clients both work) whose factory builds a small low-level server per
 * request. `tools/list` returns the surface's definitions (built on first use); `tools/call` runs the command
 * and maps its `Result` to a tool result (`structuredContent` plus the same JSON as one text block,
 * `isError` with the typed error). Unknown tools are protocol errors (-32602), as the spec says.
 * Every `tools/call` writes one JSON log line (`call-log.ts`): who, where, what, outcome, duration.
 * Resources (`resources.ts`: refs as `branchmind://` URIs) and prompts (`prompts.ts`: the golden
 * paths) are served by the same per-request server.
 */

import { type CallToolResult, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { createMcpHandler, type StatelessMcpHandler } from "agents/mcp/server";
import { findCommand } from "../catalog/catalog";
import { resolveCommand } from "../catalog/command-facts";
import { CALL_OP, findPortal, type Portal, stripNamePrefix } from "../catalog/portals";
import { type Command, SHARED_FIELD_DESCRIPTIONS } from "../commands/registry";
import { renderTextBlock } from "../shared/json";
import type { Result } from "../shared/result";
import { type CallSession, type CallTiming, callCommand, projectArgumentOf } from "./call-command";
import { callLogLine, outcomeOf, tickOf, workspaceOf } from "./call-log";
import { callPortal } from "./portal-call";
import { getPrompt, listPrompts } from "./prompts";
import { listResources, readResource, resourceTemplates } from "./resources";
import { type SurfaceName, toolsOf } from "./surfaces/surfaces";
import { TOOL_DEFINITIONS } from "./surfaces/tool-definitions";

export const SERVER_INFO = { name: "branchmind", version: "0.1.0" };
export const MCP_ROUTE = "/mcp";

/** The fields many tools share, described once here rather than on every tool of the listing. */
const SHARED_FIELDS = [...SHARED_FIELD_DESCRIPTIONS].map(([name, description]) => `${name}: ${description}`).join(" ");

const INSTRUCTIONS = `BranchMind: durable, branchable working memory. Start with \`status\` (where you are, 1 best + 1 backup next action); every portal takes {op, args} with a golden op, or op "call" + cmd for any command (\`system\` op schema.get gives its args); \`system\` op help explains the portals; \`open\` reopens any ref. Every read is bounded (max_chars, budget_profile); every write is atomic and accepts idempotency_key. Shared arguments: ${SHARED_FIELDS}`;

export interface McpSession extends CallSession {
  surface: SurfaceName;
}

const SESSION_KEY = "branchmind_session";

export function toToolResult(result: Result<Record<string, unknown>>): CallToolResult {
  if (result.ok) {
    return {
      content: [{ type: "text", text: renderTextBlock(result.value) }],
      structuredContent: result.value,
    };
  }
  const payload = { error: result.error };
  return {
    content: [{ type: "text", text: renderTextBlock(payload) }],
    structuredContent: payload,
    isError: true,
  };
}

function recordOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The portal op and the command it runs (op null, command undefined when the envelope names none that exists). */
function portalTarget(portal: Portal, envelope: Record<string, unknown>): { op: string | null; command: Command | undefined } {
  const op = typeof envelope.op === "string" ? envelope.op : portal.defaultOp;
  if (op === CALL_OP) return { op, command: typeof envelope.cmd === "string" ? resolveCommand(envelope.cmd) : undefined };
  const golden = op === undefined || !Object.hasOwn(portal.ops, op) ? undefined : portal.ops[op];
  return golden === undefined ? { op: null, command: undefined } : { op: op ?? null, command: findCommand(golden) };
}

/** What a call's log line says about the call itself; argument values stay out (only known names). */
interface CallTarget {
  tool: string | null;
  op: string | null;
  cmd: string | null;
  /** Where the arguments name a workspace: logged only if the result reports none and it is a valid name. */
  named: unknown[];
}

/** Lists that change only with a deployment: one shared answer, fresh for five minutes after it. */
const STATIC_LIST_TTL_MS = 5 * 60 * 1000;
/**
 * Caching hints (protocol 2026-07-28): the tool, template and prompt lists are the same for every
 * caller of a URL; the resource list and reads are the caller's own and change with every write.
 */
const CACHE_HINTS = {
  "tools/list": { ttlMs: STATIC_LIST_TTL_MS, cacheScope: "public" },
  "prompts/list": { ttlMs: STATIC_LIST_TTL_MS, cacheScope: "public" },
  "resources/templates/list": { ttlMs: STATIC_LIST_TTL_MS, cacheScope: "public" },
  "resources/list": { ttlMs: 0, cacheScope: "private" },
  "resources/read": { ttlMs: 0, cacheScope: "private" },
} as const;

function buildServer(session: McpSession): Server {
  const server = new Server(SERVER_INFO, {
    // Stateless: nothing to subscribe to and no list ever changes within a connection.
    capabilities: {
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
    },
    instructions: INSTRUCTIONS,
    cacheHints: CACHE_HINTS,
  });
  // The surface's list is built on its first tools/list, not for every request (a call needs none of it).
  server.setRequestHandler("tools/list", () => ({ tools: toolsOf(session.surface) }));
  server.setRequestHandler("resources/templates/list", () => resourceTemplates());
  server.setRequestHandler("resources/list", (request) => listResources(session, request.params?.cursor));
  server.setRequestHandler("resources/read", (request) => readResource(session, request.params.uri));
  server.setRequestHandler("prompts/list", () => ({ prompts: listPrompts() }));
  server.setRequestHandler("prompts/get", (request) => getPrompt(request.params.name, request.params.arguments ?? {}, session));
  server.setRequestHandler("tools/call", async (request) => {
    const startedMs = Date.now();
    // Each call adds up its own object time and rows read, even when a batch runs several calls on one session.
    const timing: CallTiming = { object_ms: null, rows_read: null };
    const callSession: McpSession = { ...session, timing };
    const args = recordOf(request.params.arguments);
    // A name that is both a portal and a command: the surface's own kind of tool wins.
    const portal = findPortal(request.params.name);
    const command = findCommand(request.params.name) ?? findCommand(stripNamePrefix(request.params.name));
    const viaPortal = portal !== undefined && (session.surface === "portals" || !command);
    let target: CallTarget = { tool: null, op: null, cmd: null, named: [] };
    let result: Result<Record<string, unknown>> | undefined;
    let outcome = "INTERNAL_ERROR";
    try {
      if (portal && viaPortal) {
        const inner = recordOf(args.args);
        const { op, command: innerCommand } = portalTarget(portal, args);
        const named = [args.workspace, inner.workspace, projectArgumentOf(innerCommand, inner)];
        target = { tool: portal.name, op, cmd: innerCommand?.name ?? null, named };
        result = await callPortal(callSession, portal, request.params.arguments);
        return toToolResult(result);
      }
      if (!command) {
        outcome = "UNKNOWN_TOOL";
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown tool: ${request.params.name}. Call tools/list, or the system portal (op cmd.list) for every command.`,
        );
      }
      target = { tool: command.tool, op: null, cmd: command.name, named: [args.workspace, projectArgumentOf(command, args)] };
      result = await callCommand(callSession, command, request.params.arguments);
      return server.projectCallToolResult(toToolResult(result), TOOL_DEFINITIONS.get(command.tool)?.outputSchema);
    } finally {
      console.log(
        callLogLine({
          ts: new Date(startedMs).toISOString(),
          agent_id: session.principal.agent_id,
          key_id: session.principal.key_id,
          workspace: workspaceOf(result, session.lock, target.named),
          tool: target.tool,
          op: target.op,
          cmd: target.cmd,
          outcome: result ? outcomeOf(result) : outcome,
          duration_ms: Date.now() - startedMs,
          tick: tickOf(result),
          object_ms: timing.object_ms,
          rows_read: timing.rows_read,
        }),
      );
    }
  });
  return server;
}

let handler: StatelessMcpHandler | undefined;

/** The isolate's handler, built on first use (it needs no per-request state). */
export function mcpHandler(): StatelessMcpHandler {
  handler ??= createMcpHandler(
    (context) => {
      const session = context.authInfo?.extra?.[SESSION_KEY] as McpSession | undefined;
      if (!session) throw new Error("MCP request reached the server without a session");
      return buildServer(session);
    },
    {
      route: MCP_ROUTE,
      // The front door's policy (browser-policy.ts) has checked host and origin and answered preflights,
      // and it writes every CORS header: the handler adds none and does not check origins a second time.
      corsOptions: false,
      allowedOriginHostnames: "*",
      // Mostly malformed client requests (bad JSON-RPC, empty batches): one line each, no stack, so an
      // operator's error log is not filled with clients' mistakes.
      onerror: (error) => console.error("mcp handler error:", error instanceof Error ? error.message : String(error)),
    },
  );
  return handler;
}

/** Serves one MCP request; `parsedBody` is its body already parsed (see `jsonMessageOf` in index.ts), if any. */
export function serveMcp(request: Request, session: McpSession, parsedBody?: object): Promise<Response> {
  return mcpHandler().fetch(request, {
    ...(parsedBody === undefined ? {} : { parsedBody }),
    authInfo: {
      token: "verified",
      clientId: session.principal.agent_id,
      scopes: [session.principal.role],
      extra: { [SESSION_KEY]: session },
    },
  });
}
