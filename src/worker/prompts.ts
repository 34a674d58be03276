/**
 * MCP prompts for the golden paths (docs/prompts.md). None is listed yet; `prompts/get` answers an
 * unknown name with -32602.
 */
import { type GetPromptResult, type Prompt, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { McpSession } from "./mcp";

export function listPrompts(): Prompt[] {
  return [];
}

export function getPrompt(name: string, _args: Record<string, string>, _session: McpSession): GetPromptResult {
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}.`);
}
