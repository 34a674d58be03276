/**
 * Following the server's suggestions as an agent does: fill each `<fill: …>` marker with a value
 * that fits what it asks for, and paste the call as given (`paste`). Nothing else is changed.
 */
import { callTool, type RpcOptions, type ToolResult } from "./mcp";

export interface SuggestedCall {
  tool: string;
  args: Record<string, unknown>;
  purpose?: string;
}

const MARKER = /<fill:\s*([^>]*)>/gi;

/** The value a test puts where a marker asks for `what` (branch names must be valid names). */
export function fillValue(what: string): string {
  const slug =
    what
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "value";
  return /branch|name/.test(what.toLowerCase()) ? `filled-${slug}` : `filled ${what}`;
}

/** `value` with every marker replaced (deeply; a marker inside a longer text keeps the text around it). */
export function fillIn<T>(value: T): T {
  if (typeof value === "string") return value.replace(MARKER, (_match, what: string) => fillValue(what.trim())) as T;
  if (Array.isArray(value)) return value.map(fillIn) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fillIn(inner)])) as T;
  }
  return value;
}

/** Calls a suggestion as given, its markers filled, on the connection `options` names. */
export function paste(call: SuggestedCall, options: RpcOptions): Promise<ToolResult> {
  return callTool(call.tool, fillIn(call.args), options);
}

/** The command a rendered portal suggestion runs: its `cmd`, else its portal and golden op (`tasks plan.create`). */
export function moveOf(action: { tool: string; args: Record<string, any> }): string {
  return action.args.cmd ?? `${action.tool} ${action.args.op ?? ""}`.trim();
}
