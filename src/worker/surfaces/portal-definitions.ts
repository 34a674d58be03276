/**
 * The portal surface's tool definitions (seed 002): one tool per listed portal, all sharing the envelope
 * `{workspace?, op, cmd?, args, budget_profile?, view?}`. Two zod forms per portal: the listed one names
 * the golden ops as an enum (clients see the choices), the accepted one takes any op string so an
 * unknown op is answered with UNKNOWN_OP and a way out rather than a schema error. The whole listing
 * stays under MAX_PORTAL_LISTING_CHARS (a test holds it there): it is what every session pays first.
 */
import { z } from "zod";
import { CALL_OP, type Portal, portals } from "../../commands/portals";
import { BUDGET_PROFILES } from "../../shared/limits";
import type { ToolDefinition } from "./tool-definitions";

/** The default `tools/list` response stays this small (issue contract: ≤ 6,000 characters). */
export const MAX_PORTAL_LISTING_CHARS = 6_000;
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
    ...(portal.name === "open" ? { id: text(MAX_REF_CHARS).optional() } : {}),
  });
}

export type Envelope = z.output<ReturnType<typeof envelopeSchema>> & { portal_view?: string; id?: string };

/**
 * The golden ops are in the schema's `op` enum already, and `call` + `cmd` is the same on every portal:
 * only `system` (where an agent looks commands up) says so; the server instructions say it once for all.
 */
function describe(portal: Portal): string {
  return portal.name === "system" ? `${portal.summary} op call + cmd runs any command, on any portal.` : portal.summary;
}

function definitionOf(portal: Portal): ToolDefinition {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(envelopeSchema(portal, "listed"), { io: "input" }) as Record<string, unknown>;
  const properties = schema.properties as Record<string, unknown>;
  return {
    name: portal.name,
    description: describe(portal),
    // `args` is any object: zod spells that with two empty members a client does not need.
    inputSchema: { ...schema, properties: { ...properties, args: { type: "object" } }, type: "object" },
    // Only the hints whose MCP default would be wrong for a portal: it never reaches the outside world,
    // and status/open only read. (Mixed portals keep the defaults: they may write and delete.)
    annotations: { ...(portal.readOnly ? { readOnlyHint: true } : {}), openWorldHint: false },
  };
}

let definitions: ToolDefinition[] | undefined;

/** Built on first use and kept for the isolate. */
export function portalDefinitions(): ToolDefinition[] {
  definitions ??= portals().map(definitionOf);
  return definitions;
}
