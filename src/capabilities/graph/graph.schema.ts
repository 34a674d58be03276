/**
 * Zod shapes of the graph (seed 001 Milestone 4): node ids, types and relations validated as typed
 * domain values (bounded, no control characters, `|` reserved for edge keys), tags normalized, the four
 * batch operations, and the node/edge shapes the commands return.
 */
import { z } from "zod";
import { targetSchema } from "../../place/target.schema";
import { MAX_META_BYTES, MAX_NAME_CHARS, MAX_TITLE_CHARS } from "../../shared/limits";
import { nameSchema } from "../../shared/names";
import { branchArg } from "../docs/docs.schema";

/** Node ids: generous enough for paths and URLs used as ids, short enough to key indexes. */
export const MAX_NODE_ID_CHARS = 256;
/** Node text: a card, not a document (documents hold long text). */
export const MAX_NODE_TEXT_CHARS = 16 * 1024;
export const MAX_TAGS = 32;
export const MAX_TAG_CHARS = 64;
/** Ops in one graph_apply batch: one transaction, bounded so a call stays well under a second. */
export const MAX_GRAPH_OPS = 500;
/** Prefixes owned by the task projection: agents may link to such nodes but not write them. */
export const RESERVED_NODE_PREFIXES = ["task:", "step:"] as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to reject control characters.
const NO_CONTROL_NO_PIPE = /^[^|\x00-\x1f\x7f]+$/;

export const nodeIdSchema = z
  .string()
  .min(1)
  .max(MAX_NODE_ID_CHARS)
  .regex(NO_CONTROL_NO_PIPE, "node ids may not contain control characters or '|'")
  .describe("Node id, e.g. `H-cache` or `a:storage`.");

const typeSchema = nameSchema("Node type, e.g. `hypothesis`, `test`, `evidence`, `decision`.");
const relSchema = nameSchema("Edge relation, e.g. `supports`, `blocks`.");
const tagSchema = z.string().min(1).max(MAX_TAG_CHARS).regex(NO_CONTROL_NO_PIPE, "tags may not contain control characters or '|'");
const metaSchema = z.record(z.string(), z.unknown()).describe(`Small JSON object (at most ${MAX_META_BYTES} bytes).`);

export const graphOpSchema = z.discriminatedUnion("op", [
  z.strictObject({
    op: z.literal("node_upsert"),
    id: nodeIdSchema,
    type: typeSchema,
    title: z.string().max(MAX_TITLE_CHARS).optional(),
    text: z.string().max(MAX_NODE_TEXT_CHARS).optional(),
    status: z.string().min(1).max(MAX_NAME_CHARS).optional(),
    tags: z.array(tagSchema).max(MAX_TAGS).optional().describe("Lowercased, de-duplicated and sorted on write."),
    meta: metaSchema.optional(),
  }),
  z.strictObject({ op: z.literal("node_delete"), id: nodeIdSchema }),
  z.strictObject({ op: z.literal("edge_upsert"), from: nodeIdSchema, rel: relSchema, to: nodeIdSchema, meta: metaSchema.optional() }),
  z.strictObject({ op: z.literal("edge_delete"), from: nodeIdSchema, rel: relSchema, to: nodeIdSchema }),
]);
export type GraphOp = z.infer<typeof graphOpSchema>;

export const nodeSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string().optional(),
  text: z.string().optional(),
  status: z.string().optional(),
  tags: z.array(z.string()),
  meta: z.record(z.string(), z.unknown()).optional(),
  deleted: z.boolean(),
  last_seq: z.number(),
  last_ts_ms: z.number(),
});
export type GraphNode = z.infer<typeof nodeSchema>;

export const edgeSchema = z.object({
  from: z.string(),
  rel: z.string(),
  to: z.string(),
  meta: z.record(z.string(), z.unknown()).optional(),
  deleted: z.boolean(),
  last_seq: z.number(),
  last_ts_ms: z.number(),
});
export type GraphEdge = z.infer<typeof edgeSchema>;

/** The graph document used when a call names none (seed 001). */
export const DEFAULT_GRAPH_DOC = "graph";
export const graphDocSchema = nameSchema("Graph document; default `graph`.").optional();

/** Where a graph command acts (see src/place/scope.ts): a plan's or task's graph, or a branch and graph doc. */
export const graphPlaceFields = {
  target: targetSchema.optional(),
  branch: branchArg.optional(),
  doc: graphDocSchema,
};

export const GRAPH_KEEP = ["id", "type", "status", "from", "rel", "to", "deleted", "last_seq"];

export function normalizeTags(tags: string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((tag) => tag.toLowerCase()))].sort();
}

export function edgeKey(from: string, rel: string, to: string): string {
  return `${from}|${rel}|${to}`;
}

export function isReservedNodeId(id: string): boolean {
  return RESERVED_NODE_PREFIXES.some((prefix) => id.startsWith(prefix));
}

/** A merge conflict as lists name it. */
export const conflictSummarySchema = z.object({ conflict_id: z.string(), kind: z.string(), key: z.string(), status: z.string() });

/** What one page of a graph merge did (graph_merge, idea_branch_merge); `pagination` is the caller's to add. */
export const graphMergeFields = {
  merged: z.number(),
  skipped: z.number(),
  conflicts_created: z.number(),
  conflict_ids: z.array(z.string()),
  conflicts: z.array(conflictSummarySchema),
};
