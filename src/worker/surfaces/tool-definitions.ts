/**
 * MCP tool definitions derived from the command registry, computed once per isolate: JSON Schema
 * from zod (input as the client sends it, output as the server returns it) and all four annotations
 * set explicitly. A request only picks the precomputed list of its surface.
 */
import { z } from "zod";
import { COMMANDS } from "../../commands/catalog";
import type { Command } from "../../commands/registry";
import { errorResultSchema } from "../../shared/errors";

export interface ToolDefinition {
  name: string;
  /** Omitted on portal tools (their names say it; the listing is kept small). */
  title?: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: "object" };
  /** Portal tools return many shapes (any command's answer plus the capsule) and declare none. */
  outputSchema?: Record<string, unknown> & { type: "object" };
  /** Flat tools set all four hints; portal tools only those whose MCP default would be wrong. */
  annotations: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint: boolean;
  };
}

/** What every read answer keeps however small its budget: the budget report. */
const budgetStubSchema = z
  .object({ budget: z.object({ max_chars: z.number(), used_chars: z.number(), truncated: z.literal(true) }).loose() })
  .loose()
  .describe("An answer cut down to fit its budget: see budget and warnings.");

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> & { type: "object" } {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return { ...rest, type: "object" };
}

export function toolDefinition(command: Command): ToolDefinition {
  const read = command.kind === "read";
  return {
    name: command.tool,
    title: command.title,
    description: command.description,
    inputSchema: jsonSchema(command.input, "input"),
    // Error results carry `{error}` as structured content; strict clients validate them against this too.
    // A read cut down by its budget (a stub, or the minimal signal) may lack fields but always has `budget`.
    outputSchema: jsonSchema(
      z.union(read ? [command.output, budgetStubSchema, errorResultSchema] : [command.output, errorResultSchema]),
      "output",
    ),
    annotations: {
      title: command.title,
      readOnlyHint: read,
      destructiveHint: !read && command.destructive === true,
      idempotentHint: read || command.idempotent === true,
      openWorldHint: false,
    },
  };
}

export const TOOL_DEFINITIONS: ReadonlyMap<string, ToolDefinition> = new Map(
  COMMANDS.map((command) => [command.tool, toolDefinition(command)]),
);
