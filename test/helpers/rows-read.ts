/**
 * The SQLite rows one tool call read, as the Worker logs them: `callCounted` makes one real `tools/call`
 * through the MCP endpoint (helpers/mcp.ts) and returns its tool result with the `rows_read` of that
 * call's `call` log line (docs/architecture.md, Logs), so a test can bound the work a call did. It spies
 * on console.log for the call's duration (lines still print) and restores it after; so it must not run
 * inside another console.log spy, nor beside a concurrent call.
 */
import { vi } from "vitest";
import { callTool, type RpcOptions, type ToolResult } from "./mcp";

export async function callCounted(
  tool: string,
  args: Record<string, unknown>,
  options: RpcOptions = {},
): Promise<{ result: ToolResult; rows_read: number }> {
  const spy = vi.spyOn(console, "log");
  let result: ToolResult;
  let logged: unknown[][];
  try {
    result = await callTool(tool, args, options);
    logged = [...spy.mock.calls];
  } finally {
    spy.mockRestore();
  }
  const lines = logged.flatMap((call) => {
    try {
      const line: unknown = JSON.parse(String(call[0]));
      return line !== null && typeof line === "object" && (line as Record<string, unknown>).event === "call"
        ? [line as Record<string, unknown>]
        : [];
    } catch {
      return [];
    }
  });
  if (lines.length !== 1) {
    throw new Error(`callCounted(${tool}): expected one "call" log line for the call, saw ${lines.length}: ${JSON.stringify(lines)}`);
  }
  const line = lines[0] as Record<string, unknown>;
  if (!("rows_read" in line)) throw new Error(`callCounted(${tool}): the call log line has no rows_read key: ${JSON.stringify(line)}`);
  const rowsRead = line.rows_read;
  if (typeof rowsRead !== "number" || !Number.isFinite(rowsRead)) {
    throw new Error(`callCounted(${tool}): rows_read is ${JSON.stringify(rowsRead)}, not a number (did a workspace object run?)`);
  }
  return { result, rows_read: rowsRead };
}
