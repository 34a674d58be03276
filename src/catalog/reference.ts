/**
 * The command reference (`docs/commands.md`), rendered from the catalog: every command's names,
 * kind, role, description and input arguments (from the same JSON Schema `tools/list` serves), grouped
 * by domain in catalog order, after the portal table (golden ops per portal). Pure and deterministic: the same catalog gives the same bytes, so a test
 * can compare the committed file with a fresh rendering. Toolsets belong to the Worker, so the caller
 * passes them in. `npm run docs` writes the file.
 */
import { z } from "zod";
import { type Command, readFields, workspaceFields, writeFields } from "../commands/registry";
import { COMMANDS, namesOf } from "./catalog";
import { CALL_OP, domainOf, placeOf, portals } from "./portals";

export interface ReferenceOptions {
  /** Tool names listed by each toolset, in listing order (e.g. `core`, `daily`, `full`). */
  toolsets: Readonly<Record<string, readonly string[]>>;
  /** Toolset served when a connection names none. */
  defaultToolset: string;
  /** Command name → the repository-relative path of the file that defines it (`definingFiles`). */
  definedIn: ReadonlyMap<string, string>;
}

type JsonSchema = Record<string, unknown>;

interface CommonGroup {
  title: string;
  anchor: string;
  intro: string;
  properties: Record<string, JsonSchema>;
  required: string[];
}

function inputSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  return (schema.properties ?? {}) as Record<string, JsonSchema>;
}

function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}

function group(title: string, anchor: string, intro: string, shape: z.ZodRawShape): CommonGroup {
  const schema = inputSchema(z.object(shape));
  return { title, anchor, intro, properties: propertiesOf(schema), required: requiredOf(schema) };
}

let builtGroups: CommonGroup[] | undefined;

/**
 * The shared argument groups, built on first use: the Worker imports this module (for `anchorOf`) but
 * renders no reference, so a new isolate does not pay for their JSON Schema.
 */
function commonGroups(): CommonGroup[] {
  builtGroups ??= [
    group(
      "Workspace arguments",
      "workspace-arguments",
      "Accepted by the commands that work in a workspace (each command below lists the common arguments it takes). The workspace comes from the `/w/<workspace>/mcp` URL, else the `workspace` argument, else the token's single workspace.",
      workspaceFields,
    ),
    group("Write arguments", "write-arguments", "Accepted by every write.", writeFields),
    group(
      "Read arguments",
      "read-arguments",
      "Accepted by every read: the budget of the answer. Every read answer carries `budget {max_chars, used_chars, truncated}`.",
      readFields,
    ),
  ];
  return builtGroups;
}

// ---------------------------------------------------------------------------------------------------
// JSON Schema → short Markdown descriptions

function literal(value: unknown): string {
  return JSON.stringify(value);
}

function range(low: number | undefined, high: number | undefined, unit: string): string {
  const suffix = unit === "" ? "" : ` ${unit}`;
  if (low !== undefined && high !== undefined) return low === high ? `${low}${suffix}` : `${low}–${high}${suffix}`;
  if (low !== undefined) return `≥ ${low}${suffix}`;
  if (high !== undefined) return `≤ ${high}${suffix}`;
  return "";
}

function numberBounds(schema: JsonSchema, integer: boolean): string {
  let low = typeof schema.minimum === "number" ? schema.minimum : undefined;
  if (typeof schema.exclusiveMinimum === "number") low = integer ? schema.exclusiveMinimum + 1 : undefined;
  let high = typeof schema.maximum === "number" && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined;
  if (typeof schema.exclusiveMaximum === "number") high = integer ? schema.exclusiveMaximum - 1 : undefined;
  const text = range(low, high, "");
  if (!integer && typeof schema.exclusiveMinimum === "number") return `> ${schema.exclusiveMinimum}${text ? `, ${text}` : ""}`;
  return text;
}

function withBounds(name: string, bounds: string): string {
  return bounds === "" ? name : `${name}, ${bounds}`;
}

/** A one-line type: `integer, 1–200`, `string, ≤ 128 chars`, `one of "a", "b"`, `array of {…}`. */
export function describeType(schema: JsonSchema): string {
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(literal).join(", ")}`;
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants)) return variants.map(describeType).join(" or ");
  const type = schema.type;
  if (Array.isArray(type)) return type.join(" or ");
  switch (type) {
    case "string":
      return withBounds("string", range(schema.minLength as number | undefined, schema.maxLength as number | undefined, "chars"));
    case "integer":
      return withBounds("integer", numberBounds(schema, true));
    case "number":
      return withBounds("number", numberBounds(schema, false));
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const items = schema.items === undefined ? "any" : describeType(schema.items as JsonSchema);
      const count = range(schema.minItems as number | undefined, schema.maxItems as number | undefined, "items");
      return withBounds(`array of ${items}`, count);
    }
    case "object":
      return describeObject(schema);
    default:
      return "any";
  }
}

function describeObject(schema: JsonSchema): string {
  const properties = propertiesOf(schema);
  const names = Object.keys(properties);
  if (names.length === 0) return "object";
  const required = new Set(requiredOf(schema));
  const fields = names.map((name) => {
    const property = properties[name] as JsonSchema;
    const shown = "const" in property ? `: ${literal(property.const)}` : "";
    return `${name}${required.has(name) ? "" : "?"}${shown}`;
  });
  return `{${fields.join(", ")}}`;
}

/** Table cells: no line breaks, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|").trim();
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

function argumentTable(properties: Record<string, JsonSchema>, required: readonly string[]): string[] {
  const needed = new Set(required);
  const rows = Object.entries(properties).map(([name, schema]) => {
    const fallback = "default" in schema ? code(JSON.stringify(schema.default)) : "";
    const description = typeof schema.description === "string" ? schema.description : "";
    return `| ${code(name)} | ${cell(describeType(schema))} | ${needed.has(name) ? "yes" : "no"} | ${cell(fallback)} | ${cell(description)} |`;
  });
  return ["| Argument | Type | Required | Default | Description |", "| --- | --- | --- | --- | --- |", ...rows];
}

// ---------------------------------------------------------------------------------------------------
// The document

function leastRole(command: Command): string {
  return command.requiresRole ?? (command.kind === "write" ? "write" : "read");
}

/** GitHub's heading anchor for a heading made of one code span. */
export function anchorOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_ -]/g, "")
    .replace(/ /g, "-");
}

function sameSchema(a: JsonSchema | undefined, b: JsonSchema | undefined): boolean {
  return a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** How the portal surface reaches a command: its golden op, else `op: "call"`. */
function portalCall(command: Command): string {
  const { portal, op } = placeOf(command);
  return op === undefined
    ? `${code(portal.name)} with ${code(`op: "${CALL_OP}", cmd: "${command.name}"`)}`
    : `${code(portal.name)} op ${code(op)}`;
}

function renderPortals(): string[] {
  return [
    "## Portals",
    "",
    "The `portals` toolset lists one tool per portal. Each takes the envelope `{workspace?, op, cmd?, args, budget_profile?, view?}`:",
    'a golden op below, or `op: "call"` with any command\'s name in `cmd`. Reads default to the `portal` budget profile; every',
    "answer carries the capsule (where / why / next). See docs/portals.md.",
    "",
    "| Portal | Golden ops | Commands in its domains |",
    "| --- | --- | --- |",
    ...portals().map((portal) => {
      const ops = Object.entries(portal.ops).map(([op, cmd]) => `${code(op)} → ${code(cmd)}`);
      const count = COMMANDS.filter((command) => portal.domains.includes(domainOf(command))).length;
      return `| ${code(portal.name)} | ${ops.length > 0 ? ops.join(", ") : "—"} | ${count} |`;
    }),
    "",
  ];
}

function renderCommand(command: Command, options: ReferenceOptions): string[] {
  const { toolsets, definedIn } = options;
  const schema = inputSchema(command.input);
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  const own: Record<string, JsonSchema> = {};
  const common: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const shared = commonGroups().find((candidate) => sameSchema(candidate.properties[name], property) && !required.includes(name));
    if (!shared) own[name] = property;
  }
  for (const candidate of commonGroups()) {
    const accepted = Object.keys(candidate.properties).filter((name) => name in properties && !(name in own));
    if (accepted.length > 0) common.push(`[${candidate.title.toLowerCase()}](#${candidate.anchor}) (${accepted.map(code).join(", ")})`);
  }

  const traits: string[] = [command.kind];
  if (command.kind === "write" && command.idempotent) traits.push("idempotent");
  if (command.kind === "write" && command.destructive) traits.push("destructive");
  const listedIn = Object.entries(toolsets)
    .filter(([, tools]) => tools.includes(command.tool))
    .map(([toolset]) => code(toolset));

  const lines = [
    `### ${code(command.name)}`,
    "",
    `**${command.title}**`,
    "",
    command.description,
    "",
    `- Tool: ${code(command.tool)}`,
    `- Names accepted: ${namesOf(command).map(code).join(", ")}`,
    `- Kind: ${traits.join(", ")}`,
    `- Least role: ${code(leastRole(command))}${command.requiresRole ? "" : ` (default for ${command.kind}s)`}`,
    `- Toolsets: ${listedIn.length > 0 ? listedIn.join(", ") : "none (callable by name from any toolset)"}`,
    `- Portal: ${portalCall(command)}`,
    `- Defined in: ${code(definedIn.get(command.name) ?? "(unknown)")}`,
    "",
  ];
  if (Object.keys(own).length > 0) lines.push(...argumentTable(own, required), "");
  else lines.push("No arguments of its own.", "");
  if (common.length > 0) lines.push(`Also accepts the ${common.join(" and the ")}.`, "");
  const outputs = Object.keys(propertiesOf(z.toJSONSchema(command.output, { io: "output", unrepresentable: "any" }) as JsonSchema));
  if (outputs.length > 0) lines.push(`Returns: ${outputs.map(code).join(", ")}.`, "");
  return lines;
}

/** The whole reference as Markdown; ends with a single newline. */
export function renderCommandReference(options: ReferenceOptions): string {
  const { toolsets, defaultToolset } = options;
  const known = new Set([...COMMANDS.map((command) => command.tool), ...portals().map((portal) => portal.name)]);
  for (const [toolset, tools] of Object.entries(toolsets)) {
    for (const tool of tools) if (!known.has(tool)) throw new Error(`toolset ${toolset} lists unknown tool ${tool}`);
  }
  if (!(defaultToolset in toolsets)) throw new Error(`default toolset ${defaultToolset} is not among the toolsets`);

  const domains = new Map<string, Command[]>();
  for (const command of COMMANDS) {
    const domain = domainOf(command);
    const list = domains.get(domain) ?? [];
    list.push(command);
    domains.set(domain, list);
  }

  const lines: string[] = [
    "# Command reference",
    "",
    "<!-- Generated by `npm run docs` from the command catalog (src/catalog/catalog.ts). Do not edit by hand:",
    "     change the command definitions and run `npm run docs`; a test fails while this file is stale. -->",
    "",
    `${COMMANDS.length} commands. Each has a dotted name by domain and a flat tool name (the name \`tools/list\` shows in the \`full\` toolset).`,
    "A call may use any of a command's accepted names, whatever toolset the connection lists. Arguments are validated",
    "against the schema below (unknown arguments are refused); results carry the JSON payload as `structuredContent` and as one text block.",
    "",
    "## Toolsets",
    "",
    `Chosen per connection with \`?toolset=\` on the MCP URL; the default is \`${defaultToolset}\`.`,
    "",
    "| Toolset | Tools |",
    "| --- | --- |",
    ...Object.entries(toolsets).map(([toolset, tools]) => `| ${code(toolset)} | ${tools.map(code).join(", ")} |`),
    "",
    ...renderPortals(),
    "## Index",
    "",
    "| Command | Tool | Kind | Title |",
    "| --- | --- | --- | --- |",
    ...COMMANDS.map(
      (command) =>
        `| [${code(command.name)}](#${anchorOf(command.name)}) | ${code(command.tool)} | ${command.kind} | ${cell(command.title)} |`,
    ),
    "",
    "## Common arguments",
    "",
  ];
  for (const candidate of commonGroups()) {
    lines.push(`### ${candidate.title}`, "", candidate.intro, "", ...argumentTable(candidate.properties, candidate.required), "");
  }
  for (const [domain, commands] of domains) {
    lines.push(`## ${domain}`, "");
    for (const command of commands) lines.push(...renderCommand(command, options));
  }
  while (lines[lines.length - 1] === "") lines.pop();
  return `${lines.join("\n")}\n`;
}
