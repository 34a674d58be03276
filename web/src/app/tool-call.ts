/**
 * How a board read becomes a host tool call. The server's answer names, per read command, the tool to
 * call and its arguments for this connection; the board adds the command's own arguments.
 *
 * The rule: the suggested arguments are deep-copied (the answer is never changed), and the command's
 * own arguments are added to the object that holds `budget_profile`:
 * - a flat tool holds it at the top level: `{workspace, budget_profile}` + `{id}` →
 *   `{workspace, budget_profile, id}`;
 * - a portal envelope holds it in its nested `args`: `{workspace, op: "call", cmd: "open", args:
 *   {budget_profile}}` + `{id}` → `{workspace, op: "call", cmd: "open", args: {budget_profile, id}}`.
 * When neither level holds `budget_profile` (the conflict decision, `writes`, which carries a
 * resolution instead), a nested `args` object is the holder if there is one, else the top level. A
 * command argument of the same name replaces the suggested one.
 */

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The object in `top` that a command's own arguments join (see the rule above). */
function argumentHolder(top: Record<string, unknown>): Record<string, unknown> {
  if ("budget_profile" in top) return top;
  const nested = top.args;
  return isRecord(nested) ? nested : top;
}

export function toolCallFor(suggestion: { tool: string; args?: Record<string, unknown> }, commandArgs: Record<string, unknown>): ToolCall {
  const copy = structuredClone(suggestion.args ?? {});
  Object.assign(argumentHolder(copy), structuredClone(commandArgs));
  return { name: suggestion.tool, arguments: copy };
}
