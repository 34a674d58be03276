/**
 * What the fuzzer's oracle expects of one flat tool call (checks.ts `Expectation`), from the command and
 * the arguments it was sent. The arguments are whatever the generators made, hostile ones included
 * (`null`, a list, a string): reading them never throws, since an oracle that throws reports a bug the
 * server does not have.
 */
import type { Command } from "../../src/commands/registry";
import type { Expectation } from "./checks";

/** A field of the sent arguments, or undefined when they are not an object. */
function fieldOf(args: unknown, field: string): unknown {
  return args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>)[field] : undefined;
}

/**
 * On success: a read must answer the same when sent again, a write with an idempotency_key must replay.
 * A Directory read is the exception: its summaries (`as_of_tick`, the counts) arrive by each
 * workspace's alarm a few seconds after its writes (docs/projects.md), so one may land between the two
 * sends; it is checked like every read for everything else.
 */
function repeatOf(command: Command, args: unknown): Expectation["repeat"] {
  if (command.kind === "read") return command.scope === "directory" ? undefined : "read";
  return typeof fieldOf(args, "idempotency_key") === "string" ? "replay" : undefined;
}

export function expectationOf(command: Command, args: unknown): Expectation {
  return {
    tool: command.tool,
    readOnly: command.kind === "read",
    // A delta snapshot moves the caller's baseline: sent again it answers a later delta.
    ...(command.tool === "tasks_snapshot" && fieldOf(args, "delta") === true
      ? { bookkeeping: ["snapshot_baselines"] }
      : { repeat: repeatOf(command, args) }),
  };
}
