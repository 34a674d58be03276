/**
 * The MCP side of the front door: one handler per isolate (`createMcpHandler`, stateless lane, so
 * 2026-07-28 and 2025-era clients both work) whose factory builds a small low-level server per
 * request. `tools/list` returns the surface's precomputed definitions; `tools/call` runs the command
 * and maps its `Result` to a tool result (`structuredContent` plus the same JSON as one text block,
 * `isError` with the typed error). Unknown tools are protocol errors (-32602), as the spec says.
 */

import { type CallToolResult, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { createMcpHandler, type StatelessMcpHandler } from "agents/mcp/server";
import { findCommand } from "../commands/catalog";
import { findPortal, stripNamePrefix } from "../commands/portals";
import { renderTextBlock } from "../shared/json";
import type { Result } from "../shared/result";
import { type CallSession, callCommand } from "./call-command";
import { callPortal } from "./portal-call";
import { type SurfaceName, toolsOf } from "./surfaces/surfaces";
import { TOOL_DEFINITIONS } from "./surfaces/tool-definitions";

export const SERVER_INFO = { name: "branchmind", version: "0.1.0" };
export const MCP_ROUTE = "/mcp";

const INSTRUCTIONS =
  'BranchMind: durable, branchable working memory. Start with `status` (where you are, 1 best + 1 backup next action); every portal takes {op, args} with a golden op, or op "call" + cmd for any command (`system` op schema.get gives its args); `system` op help explains the portals; `open` reopens any ref. Every read is bounded (max_chars, budget_profile); every write is atomic and accepts idempotency_key.';

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

function buildServer(session: McpSession): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  const tools = toolsOf(session.surface);
  server.setRequestHandler("tools/list", () => ({ tools }));
  server.setRequestHandler("tools/call", async (request) => {
    // `status` and `open` are both portals and commands: the surface's own kind of tool wins.
    const portal = findPortal(request.params.name);
    const command = findCommand(request.params.name) ?? findCommand(stripNamePrefix(request.params.name));
    if (portal && (session.surface === "portals" || !command)) {
      return toToolResult(await callPortal(session, portal, request.params.arguments));
    }
    if (!command) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool: ${request.params.name}. Call tools/list, or the system portal (op cmd.list) for every command.`,
      );
    }
    const result = toToolResult(await callCommand(session, command, request.params.arguments));
    return server.projectCallToolResult(result, TOOL_DEFINITIONS.get(command.tool)?.outputSchema);
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
      onerror: (error) => console.error("mcp handler error", error),
    },
  );
  return handler;
}

export function serveMcp(request: Request, session: McpSession): Promise<Response> {
  return mcpHandler().fetch(request, {
    authInfo: {
      token: "verified",
      clientId: session.principal.agent_id,
      scopes: [session.principal.role],
      extra: { [SESSION_KEY]: session },
    },
  });
}
