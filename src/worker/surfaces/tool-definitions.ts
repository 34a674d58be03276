/**
 * MCP tool definitions derived from the command registry: JSON Schema from zod (input as the client
 * sends it, output as the server returns it) and all four annotations set explicitly. Each is built
 * the first time it is asked for and kept for the isolate, not at module load: turning ~150 commands'
 * zod schemas into JSON Schema took some 40 % of a new isolate's startup CPU, and most isolates list
 * one small toolset or none (docs/benchmarks.md, "Startup"). A request only picks the kept list of its
 * surface.
 *
 * The listed schemas are lean (`?toolset=full` lists every command, so each repeated keyword is paid
 * ~150 times; schema-compaction.ts): the input keeps its shape, enums, defaults and every description
 * but not its bounds (lengths, patterns, ranges: the server checks them on every call); the output is
 * an outline of the answer that every real answer still satisfies. `answerContract` is the whole answer
 * schema, for tests that check real answers against everything zod knows.
 */
import { z } from "zod";
import { COMMANDS } from "../../catalog/catalog";
import { type Command, SHARED_FIELD_DESCRIPTIONS } from "../../commands/registry";
import { errorResultSchema } from "../../shared/errors";
import { type JsonSchema, outline, withoutAnnotations, withoutBounds, withoutRedundancy, withShortEnums } from "./schema-compaction";

export interface ToolDefinition {
  name: string;
  /** Omitted on portal tools (their names say it; the listing is kept small). */
  title?: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  /** Portal tools return many shapes (any command's answer plus the capsule) and declare none. */
  outputSchema?: JsonSchema & { type: "object" };
  /** Flat tools set all four hints; portal tools only those whose MCP default would be wrong. */
  annotations: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint: boolean;
  };
  /** The tool that opens the MCP App carries the app's resource here (`ui.resourceUri`: app-resource.ts). */
  _meta?: Record<string, unknown>;
}

/** What every read answer keeps however small its budget: the budget report. */
const budgetStubSchema = z
  .object({ budget: z.object({ max_chars: z.number(), used_chars: z.number(), truncated: z.literal(true) }).loose() })
  .loose()
  .describe("An answer cut down to fit its budget: see budget and warnings.");

/** Levels of an answer's named fields the listing spells out: its own fields, each typed (see `outline`). */
const ANSWER_OUTLINE_DEPTH = 1;
/** The budget stub's marker, `budget.truncated: true`, is a field of a field. */
const STUB_OUTLINE_DEPTH = 2;
/** Longer enums in an answer (the 42 error codes) are listed as strings: a closed list paid on every tool. */
const MAX_ANSWER_ENUM_VALUES = 8;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema & { type: "object" } {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
  }) as JsonSchema;
  return { ...rest, type: "object" };
}

/** The answer variants: the command's output, the budget stub (reads), the error result. */
function answerVariants(command: Command): [z.ZodType, z.ZodType, ...z.ZodType[]] {
  // Error results carry `{error}` as structured content; strict clients validate them against this too.
  // A read cut down by its budget (a stub, or the minimal signal) may lack fields but always has `budget`.
  return command.kind === "read" ? [command.output, budgetStubSchema, errorResultSchema] : [command.output, errorResultSchema];
}

/** Everything zod knows about a command's answers (not listed: tests check real answers against it). */
export function answerContract(command: Command): JsonSchema & { type: "object" } {
  return jsonSchema(z.union(answerVariants(command)), "output");
}

/** One answer variant as listed: outlined, unannotated, without the root's type (the union's root has it). */
function listedVariant(schema: z.ZodType, depth: number): JsonSchema {
  const lean = withShortEnums(withoutAnnotations(withoutRedundancy(jsonSchema(schema, "output"))), MAX_ANSWER_ENUM_VALUES);
  const { type: _object, ...variant } = outline(lean, depth);
  return variant;
}

/**
 * The listed output schema: `type: "object"` at the root (the MCP SDK wraps answers of a non-object
 * schema in `{result}`) and one variant per kind of answer, each an outline of its zod schema.
 */
function listedOutput(command: Command): JsonSchema & { type: "object" } {
  const variants = answerVariants(command).map((schema) =>
    listedVariant(schema, schema === budgetStubSchema ? STUB_OUTLINE_DEPTH : ANSWER_OUTLINE_DEPTH),
  );
  // An empty variant (an answer outlined to depth 0) accepts every object: the union says no more than its root.
  return variants.some((variant) => Object.keys(variant).length === 0) ? { type: "object" } : { type: "object", anyOf: variants };
}

/**
 * The listed input schema: zod's, without its bounds (the server checks them on every call) and
 * without the descriptions of the shared fields (`workspace`, `idempotency_key`, the budgets…), which
 * the server's instructions give once; a command that describes such a field its own way keeps it.
 */
function listedInput(command: Command): JsonSchema & { type: "object" } {
  const schema = withoutBounds(withoutRedundancy(jsonSchema(command.input, "input")));
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const listed = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      if (property.description === undefined || property.description !== SHARED_FIELD_DESCRIPTIONS.get(name)) return [name, property];
      const { description: _once, ...rest } = property;
      return [name, rest];
    }),
  );
  return { ...schema, ...(schema.properties === undefined ? {} : { properties: listed }), type: "object" };
}

export function toolDefinition(command: Command): ToolDefinition {
  const read = command.kind === "read";
  return {
    name: command.tool,
    title: command.title,
    description: command.description,
    inputSchema: listedInput(command),
    outputSchema: listedOutput(command),
    annotations: {
      title: command.title,
      readOnlyHint: read,
      destructiveHint: !read && command.destructive === true,
      idempotentHint: read || command.idempotent === true,
      openWorldHint: false,
    },
  };
}

let commandsByTool: ReadonlyMap<string, Command> | undefined;
const definitions = new Map<string, ToolDefinition>();

/** A flat tool's definition by its tool name (undefined for any other name), built on first use. */
function definitionOf(tool: string): ToolDefinition | undefined {
  let definition = definitions.get(tool);
  if (definition === undefined) {
    commandsByTool ??= new Map(COMMANDS.map((command) => [command.tool, command]));
    const command = commandsByTool.get(tool);
    if (command === undefined) return undefined;
    definition = toolDefinition(command);
    definitions.set(tool, definition);
  }
  return definition;
}

/** The flat tools' definitions by tool name; each is built when first asked for, then the same object. */
export const TOOL_DEFINITIONS: Pick<ReadonlyMap<string, ToolDefinition>, "get"> = { get: definitionOf };
