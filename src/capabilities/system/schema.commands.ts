/**
 * The system portal's introspection commands (seed 002, branchmind-facts §3.3): `schema.get` (a
 * command's argument schema, a minimal valid example and the portal call that runs it), `cmd.list`
 * (the catalog, paged), `ops.summary` (portals, golden ops, counts, unplugged portals) and
 * `migration.lookup` (a seed 000/001 tool name → the command that does its job now). Stateless reads
 * of the static catalog: they need no workspace, and answer the same bytes for the same catalog.
 */
import { z } from "zod";
import { stripNamePrefix } from "../../commands/portal-table";
import { type CatalogView, type Command, defineStatelessCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, MAX_NAME_CHARS } from "../../shared/limits";
import { suggestionSchema } from "../../shared/suggestion";

const commandName = z.string().min(1).max(MAX_NAME_CHARS);

/** The example call, in the form of the caller's connection (its portal or flat tool). */
const exampleCallSchema = suggestionSchema;

/** Where a command is called from: its portal and golden op (absent: `op: "call"` with `cmd`). */
function placeFields(catalog: CatalogView, command: Command): { portal: string; op?: string } {
  const { portal, op } = catalog.placeOf(command);
  return { portal: portal.name, ...(op === undefined ? {} : { op }) };
}

function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "description")
      .map(([key, inner]) => [key, withoutDescriptions(inner)]),
  );
}

/**
 * Smaller forms of a schema.get answer, tried in order when it does not fit the budget (the largest
 * schemas come near the portal profile): the schema without its descriptions, then everything but the
 * schema (the example call and the doc anchor still say how to call the command).
 */
function schemaStubs(original: Record<string, unknown>): Record<string, unknown>[] {
  const { args_schema: schema, budget: _budget, warnings: _warnings, ...rest } = original;
  return [
    { ...rest, args_schema: withoutDescriptions(schema) },
    { ...rest, args_schema_omitted: "Too large for this budget: pass budget_profile default (20000) or audit." },
  ];
}

export const schemaGet = defineStatelessCommand({
  name: "system.schema.get",
  tool: "schema_get",
  title: "Get a command's schema",
  description:
    "The exact arguments of a command (JSON Schema, without `workspace`), a minimal valid example, the portal call that runs it, and its section in docs/commands.md. `cmd` may be any accepted name: dotted, flat tool name, alias, branchmind_*, or an old seed 000/001 name.",
  kind: "read",
  input: { cmd: commandName.describe("Command name, e.g. vcs.notes.commit or notes_commit.") },
  output: {
    cmd: z.string(),
    tool: z.string(),
    kind: z.enum(["read", "write"]),
    portal: z.string(),
    op: z.string().optional().describe("The portal's golden op for this command; absent: op call with cmd."),
    args_schema: z.record(z.string(), z.unknown()),
    example_minimal_args: z.record(z.string(), z.unknown()),
    example_valid_call: exampleCallSchema,
    doc_ref: z.object({ path: z.string(), anchor: z.string() }),
    default_budget_profile: z.literal("portal").nullable().describe("portal for reads called through a portal; null for writes."),
  },
  budget: { lists: [], keep: [], stubs: schemaStubs },
  handler: ({ catalog }, args) => {
    const command = catalog.resolve(args.cmd) ?? catalog.failUnknown(args.cmd, "cmd");
    return {
      cmd: command.name,
      tool: command.tool,
      kind: command.kind,
      ...placeFields(catalog, command),
      args_schema: catalog.argsSchemaOf(command),
      example_minimal_args: catalog.exampleArgsOf(command),
      example_valid_call: catalog.exampleCallOf(command),
      doc_ref: catalog.docRefOf(command),
      default_budget_profile: command.kind === "read" ? ("portal" as const) : null,
    };
  },
});

/** A page position: the index of the first command of the page, as `next_cursor` gave it. */
const cursorSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,5})$/)
  .describe("next_cursor of the previous page (the index where the next page starts).");

const cmdListItem = z.object({
  cmd: z.string(),
  tool: z.string(),
  portal: z.string(),
  op: z.string().optional(),
  kind: z.enum(["read", "write"]),
  title: z.string(),
});

/**
 * Budget hook: when the budget dropped commands off the end of a page, the next page starts at the
 * first one dropped. The page's start is recovered from the untrimmed payload.
 */
function repairCursor(trimmed: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> {
  const kept = trimmed.cmds as unknown[];
  const shown = original.cmds as unknown[];
  if (!Array.isArray(kept) || !Array.isArray(shown) || kept.length === shown.length) return trimmed;
  const end = typeof original.next_cursor === "string" ? Number(original.next_cursor) : (original.total as number);
  return { ...trimmed, next_cursor: String(end - shown.length + kept.length) };
}

export const cmdList = defineStatelessCommand({
  name: "system.cmd.list",
  tool: "cmd_list",
  title: "List commands",
  description:
    "Every command in catalog order with its flat tool name, portal, golden op, kind and title; filter by portal or by name prefix (dotted or flat). Paged: pass next_cursor back as cursor.",
  kind: "read",
  input: {
    portal: commandName.optional().describe("Only the commands this portal runs (status, tasks, think, …)."),
    prefix: commandName.optional().describe("Only commands whose dotted or flat name starts with this (tasks.step., think_)."),
    cursor: cursorSchema.optional(),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT).describe(`Commands per page (1-${MAX_LIST_LIMIT}).`),
  },
  output: {
    cmds: z.array(cmdListItem),
    total: z.number().describe("Commands matching the filters, over all pages."),
    next_cursor: z.string().optional().describe("Where the next page starts; absent on the last page."),
  },
  budget: { lists: ["cmds"], keep: ["cmd"], trimFromEnd: true, repair: repairCursor },
  handler: ({ catalog }, args) => {
    const portal = args.portal === undefined ? undefined : stripNamePrefix(args.portal);
    if (portal !== undefined && !catalog.allPortals().some((candidate) => candidate.name === portal)) {
      const names = catalog.portals().map((candidate) => candidate.name);
      fail("INVALID_INPUT", `Unknown portal "${args.portal}".`, `Use one of: ${names.join(", ")}.`, {
        portal: args.portal,
        portals: names,
      });
    }
    const prefix = args.prefix;
    const matching = catalog.commands.filter(
      (command) =>
        (portal === undefined || catalog.placeOf(command).portal.name === portal) &&
        (prefix === undefined || command.name.startsWith(prefix) || command.tool.startsWith(prefix)),
    );
    const start = args.cursor === undefined ? 0 : Number(args.cursor);
    if (start > matching.length) {
      fail("INVALID_INPUT", `cursor ${args.cursor} is past the end (${matching.length} commands match).`, "Drop cursor to start over.", {
        cursor: args.cursor,
        total: matching.length,
      });
    }
    const page = matching.slice(start, start + args.limit);
    const end = start + page.length;
    return {
      cmds: page.map((command) => ({
        cmd: command.name,
        tool: command.tool,
        ...placeFields(catalog, command),
        kind: command.kind,
        title: command.title,
      })),
      total: matching.length,
      ...(end < matching.length ? { next_cursor: String(end) } : {}),
    };
  },
});

export const opsSummary = defineStatelessCommand({
  name: "system.ops.summary",
  tool: "ops_summary",
  title: "Summarize the portals",
  description:
    "Each portal with its golden ops (op → command) and how many commands it runs, the totals, and the seed 002 portals not plugged in yet (no command in their domains).",
  kind: "read",
  input: {},
  output: {
    portals: z.array(
      z.object({
        portal: z.string(),
        golden_ops: z.array(z.object({ op: z.string(), cmd: z.string() })),
        cmds: z.number().describe("Commands this portal runs: its golden ops' and the rest of its domains' (cmd.list with this portal)."),
      }),
    ),
    totals: z.object({ portals: z.number(), golden_ops: z.number(), cmds: z.number() }),
    unplugged: z.array(z.string()),
  },
  budget: { lists: ["portals"], keep: ["portal", "cmds"], trimFromEnd: true },
  handler: ({ catalog }) => {
    const counts = new Map<string, number>();
    for (const command of catalog.commands) {
      const name = catalog.placeOf(command).portal.name;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const listed = catalog.portals().map((portal) => ({
      portal: portal.name,
      golden_ops: Object.entries(portal.ops).map(([op, cmd]) => ({ op, cmd })),
      cmds: counts.get(portal.name) ?? 0,
    }));
    return {
      portals: listed,
      totals: {
        portals: listed.length,
        golden_ops: listed.reduce((sum, portal) => sum + portal.golden_ops.length, 0),
        cmds: catalog.commands.length,
      },
      unplugged: catalog.unpluggedPortals(),
    };
  },
});

export const migrationLookup = defineStatelessCommand({
  name: "system.migration.lookup",
  tool: "migration_lookup",
  title: "Look up an old tool name",
  description:
    "Maps a tool name of the earlier contracts (seed 000 branchmind_*, seed 001 flat names such as notes_commit or diagnostics) to the command that does its job now, with the portal call to use instead.",
  kind: "read",
  input: { old_name: commandName.describe("The old tool name, e.g. branchmind_notes_commit or think_add_hypothesis.") },
  output: {
    old_name: z.string(),
    cmd: z.string(),
    tool: z.string(),
    portal: z.string(),
    op: z.string().optional(),
    example_call: exampleCallSchema,
  },
  handler: ({ catalog }, args) => {
    const command = catalog.resolve(args.old_name) ?? catalog.failUnknown(args.old_name, "old_name");
    return {
      old_name: args.old_name,
      cmd: command.name,
      tool: command.tool,
      ...placeFields(catalog, command),
      example_call: catalog.exampleCallOf(command),
    };
  },
});
