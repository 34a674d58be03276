/**
 * The portal surface's tool definitions (seed 002): one tool per listed portal, all sharing the envelope
 * `{workspace?, op, cmd?, args, budget_profile?, view?}`. Two zod forms per portal: the listed one names
 * the golden ops as an enum (clients see the choices), the accepted one takes any op string so an
 * unknown op is answered with UNKNOWN_OP and a way out rather than a schema error. Each portal's
 * description ends with the signatures of its golden ops (`notes.commit(content: string)`), rendered
 * from the commands' input schemas, and its annotations hold for everything the portal can run. The
 * whole listing stays under MAX_PORTAL_LISTING_CHARS (a test holds it there): every session pays it first.
 */
import { z } from "zod";
import { findCommand } from "../../catalog/catalog";
import { argsSchemaOf } from "../../catalog/command-facts";
import type { JsonSchema } from "../../catalog/examples";
import { CALL_OP, type Portal, portals } from "../../catalog/portals";
import type { Command } from "../../commands/registry";
import { BUDGET_PROFILES } from "../../shared/limits";
import type { ToolDefinition } from "./tool-definitions";

/**
 * The default `tools/list` response stays this small. Seed 002 set 6,000 characters for the bare
 * envelopes; issue 26 raised it to 8,000 so that every golden op states its arguments (about 1,500
 * characters of signatures), which saves a `schema.get` of 1,500-3,200 characters per command an
 * agent would otherwise guess wrong or look up.
 */
export const MAX_PORTAL_LISTING_CHARS = 8_000;
/** Command names are dotted identifiers; longer input is not a name. */
const MAX_NAME_CHARS = 200;
/** Refs (`code:<path>#L1-L2@sha256:<64 hex>`) fit in this. */
const MAX_REF_CHARS = 512;
/** View names are single words. */
const MAX_VIEW_CHARS = 32;

const PROFILES = Object.keys(BUDGET_PROFILES) as [keyof typeof BUDGET_PROFILES, ...(keyof typeof BUDGET_PROFILES)[]];

/**
 * The listed form is written for size (every session pays for it): no length caps and `args` as a
 * plain object. The accepted form carries the caps, takes `args: null` and any op string.
 */
export function envelopeSchema(portal: Portal, form: "listed" | "accepted") {
  const listed = form === "listed";
  const ops: [string, ...string[]] = [CALL_OP, ...Object.keys(portal.ops)];
  const op = listed ? z.enum(ops) : z.string().max(MAX_NAME_CHARS);
  const text = (max: number) => (listed ? z.string() : z.string().max(max));
  return z.strictObject({
    workspace: z.string().optional(),
    op: listed && portal.defaultOp === undefined ? op : op.optional(),
    cmd: text(MAX_NAME_CHARS).optional(),
    args: listed ? z.looseObject({}).optional() : z.record(z.string(), z.unknown()).nullable().optional(),
    budget_profile: z.enum(PROFILES).optional(),
    view: text(MAX_VIEW_CHARS).optional(),
    // Seed 002's later name for `view`; accepted, not listed.
    ...(listed ? {} : { portal_view: text(MAX_VIEW_CHARS).optional() }),
    ...(portal.refField === undefined ? {} : { [portal.refField]: text(MAX_REF_CHARS).optional() }),
  });
}

export type Envelope = z.output<ReturnType<typeof envelopeSchema>> & { portal_view?: string; id?: string };

/**
 * A type in a signature: `string`, `int`, `string[]`, `string|object`, `'OPEN'|'LATER'`, and an object
 * as its required fields (`{title: string, …}`, `…` when it takes more). Objects among alternatives
 * are plain `object`: the graph's apply op, with four op shapes, alone would cost some 200 characters.
 */
function typeOf(schema: JsonSchema, among = false): string {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return [...new Set(alternatives.map((item) => typeOf(item as JsonSchema, true)))].join("|");
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => `'${String(value)}'`).join("|");
  if ("const" in schema) return `'${String(schema.const)}'`;
  if (Array.isArray(schema.type)) return schema.type.map((type) => (type === "integer" ? "int" : String(type))).join("|");
  if (schema.type === "array") {
    const item = typeOf((schema.items ?? {}) as JsonSchema, among);
    return item.includes("|") ? `(${item})[]` : `${item}[]`;
  }
  if (schema.type === "integer") return "int";
  if (schema.type === "object" && !among) {
    const fields = requiredFields(schema);
    if (fields.length > 0) {
      const more = Object.keys(schema.properties ?? {}).length > fields.length ? ", …" : "";
      return `{${fields.join(", ")}${more}}`;
    }
  }
  return typeof schema.type === "string" ? schema.type : "any";
}

/** `name: type` for each required field of an object schema, in the schema's order. */
function requiredFields(schema: JsonSchema): string[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return required.map((name) => `${name}: ${typeOf(properties[name] ?? {})}`);
}

/**
 * A golden op's signature, from its command's input schema: every required argument with its type,
 * then, as `name?: type`, the other arguments of the command's own `example` (commands whose rules
 * JSON Schema cannot state, such as one of `target`/`task`/`plan`, name there the ones to give).
 * Other optional arguments are left out (`system schema.get` lists them): with them the listing
 * would be about 4,000 characters longer.
 */
export function signatureOf(op: string, command: Command): string {
  const schema = argsSchemaOf(command);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const shown = Object.keys(command.example ?? {}).filter((name) => !required.includes(name) && name in properties);
  const args = [...requiredFields(schema), ...shown.map((name) => `${name}?: ${typeOf(properties[name] ?? {})}`)];
  return `${op}(${args.join(", ")})`;
}

/** Where a portal's description lists its golden ops' signatures. */
export const SIGNATURES_LABEL = "Ops:";

/**
 * The portal's summary and its golden ops' signatures (the op names are in the schema's `op` enum too,
 * but only here with their arguments). `call` + `cmd` is the same on every portal but the read-only
 * ones: only the portal with a `guide` (where an agent looks commands up) says so and how to read a
 * signature; the server instructions say it once for all.
 */
function describe(portal: Portal): string {
  const signatures = Object.entries(portal.ops).map(([op, cmd]) => signatureOf(op, findCommand(cmd) as Command));
  const intro = portal.guide === undefined ? portal.summary : `${portal.summary} ${portal.guide}`;
  return `${intro} ${SIGNATURES_LABEL} ${signatures.join("; ")}`;
}

function definitionOf(portal: Portal): ToolDefinition {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(envelopeSchema(portal, "listed"), { io: "input" }) as Record<string, unknown>;
  const properties = schema.properties as Record<string, unknown>;
  return {
    name: portal.name,
    description: describe(portal),
    // `args` is any object: zod spells that with two empty members a client does not need.
    inputSchema: { ...schema, properties: { ...properties, args: { type: "object" } }, type: "object" },
    annotations: annotationsOf(portal),
  };
}

/**
 * Only the hints whose MCP default would be wrong, and each true of everything the portal can run (its
 * golden ops and `call`). No command reaches the outside world: `openWorldHint: false` everywhere. A
 * read-only portal (status, open) runs reads only, `call` included (portal-call.ts refuses a write), so
 * it is read-only, idempotent and non-destructive. Every other portal reaches any command through
 * `call`, deletes (of a branch, of a task) and appends (a note) included, so
 * MCP's defaults are the truth there: it may write (`readOnlyHint` false), destroy (`destructiveHint`
 * true) and repeat with more effect (`idempotentHint` false).
 */
function annotationsOf(portal: Portal): ToolDefinition["annotations"] {
  if (!portal.readOnly) return { openWorldHint: false };
  return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
}

let definitions: ToolDefinition[] | undefined;

/** Built on first use and kept for the isolate. */
export function portalDefinitions(): ToolDefinition[] {
  definitions ??= portals().map(definitionOf);
  return definitions;
}
