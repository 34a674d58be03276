/**
 * Graph commands (seed 001 Milestone 4): apply a batch of ops atomically, query the effective view
 * recent-first with filters and edges, validate endpoints, and diff two branches patch-style.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { sourcesOf } from "../../place/branches.store";
import { reasoningScope } from "../../place/scope";
import { MAX_LIST_LIMIT } from "../../shared/limits";
import { topPageRepair } from "../../shared/top-page";
import { branchArg } from "../docs/docs.schema";
import { pagination, paginationSchema, repairPagination } from "../docs/paging";
import {
  DEFAULT_GRAPH_DOC,
  edgeSchema,
  GRAPH_KEEP,
  graphDocSchema,
  graphOpSchema,
  graphPlaceFields,
  MAX_GRAPH_OPS,
  nodeIdSchema,
  nodeSchema,
} from "./graph.schema";
import { isLive, lookupVersion, toEdge, toNode, type VersionRow } from "./graph.store";
import { type AppliedCounts, applyOps } from "./graph-apply";
import { diffChanges, graphChangeSchema } from "./graph-diff";
import { countLive, edgesBetween } from "./graph-edges.store";
import { filterWhere, queryFilter } from "./graph-filters.store";
import { effectivePage, keysPage, scansOf } from "./graph-pages.store";
import { MAX_EXAMINED_PER_RANGE, queryPage } from "./graph-terms.store";
import { MAX_TEXT_CANDIDATES, TEXT_INDEX_MIN_CHARS, textSearchPage, usesTextIndex } from "./graph-text-search.store";
import { visibleLanes } from "./lanes";

export const graphApply = defineCommand({
  name: "graph.apply",
  tool: "graph_apply",
  title: "Apply graph ops",
  description:
    "Apply node_upsert / node_delete / edge_upsert / edge_delete ops in order, atomically (all or none), to a graph doc. Each op writes a new version; node_upsert replaces the node's fields; deleting a node tombstones its edges; an edge needs both endpoints live. Aim: target (a plan's or task's graph doc on its reasoning branch) > branch (+ doc, default `graph`) > your focus > your checkout.",
  kind: "write",
  input: {
    ...graphPlaceFields,
    ops: z.array(graphOpSchema).min(1).max(MAX_GRAPH_OPS),
  },
  output: {
    branch: z.string(),
    doc: z.string(),
    applied: z.object({ nodes_upserted: z.number(), nodes_deleted: z.number(), edges_upserted: z.number(), edges_deleted: z.number() }),
    last_seq: z.number(),
    last_ts_ms: z.number(),
  },
  handler: (ctx, args) => {
    const scope = reasoningScope(ctx, args, "write");
    const branch = scope.branch;
    const target = { ctx, branch, sources: sourcesOf(ctx.db, branch), doc: args.doc ?? scope.ref?.graph_doc ?? DEFAULT_GRAPH_DOC };
    const applied: AppliedCounts = { nodes_upserted: 0, nodes_deleted: 0, edges_upserted: 0, edges_deleted: 0 };
    const written = applyOps(target, args.ops, applied);
    const final = written[written.length - 1] as VersionRow;
    ctx.journal({ target: `${branch.name}/${target.doc}`, summary: `graph ops ${args.ops.length}` });
    return { branch: branch.name, doc: target.doc, applied, last_seq: final.seq, last_ts_ms: final.ts_ms };
  },
});

const stringOrList = z.union([z.string().min(1).max(128), z.array(z.string().min(1).max(128)).max(50)]);

export const graphQuery = defineCommand({
  name: "graph.query",
  tool: "graph_query",
  title: "Query the graph",
  description: `Bounded slice of a branch's effective graph (latest version per key over its base snapshot), recent-first by last_seq. Filters: ids, types, status, tags_any, tags_all, text (case-insensitive substring of id, title, text). Edges only between returned nodes. A text of ${TEXT_INDEX_MIN_CHARS}+ characters is looked up in an index: at most ${MAX_TEXT_CANDIDATES} matching versions are examined per call. Otherwise one filter (types, status or tags_any, in your lanes) finds every match, whatever its age; combined filters examine at most ${MAX_EXAMINED_PER_RANGE} index entries per source and type/status/tag. A page cut by a bound is short with has_more: continue with cursor = next_cursor. Aim: target (a plan's or task's graph doc on its reasoning branch) > branch (+ doc, default \`graph\`) > your focus > your checkout.`,
  kind: "read",
  input: {
    ...graphPlaceFields,
    ids: z.array(nodeIdSchema).max(MAX_LIST_LIMIT).optional(),
    types: stringOrList.optional(),
    status: stringOrList.optional(),
    tags_any: z.array(z.string().min(1).max(64)).max(32).optional(),
    tags_all: z.array(z.string().min(1).max(64)).max(32).optional(),
    text: z.string().min(1).max(200).optional(),
    cursor: z.number().int().positive().optional().describe("Nodes with last_seq below this (from next_cursor)."),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(50),
    include_edges: z.boolean().default(true),
    edges_limit: z.number().int().min(0).max(1000).default(200),
    all_lanes: z.boolean().default(false).describe("Every agent's drafts too, not only the shared lane and yours."),
  },
  output: {
    branch: z.string(),
    doc: z.string(),
    nodes: z.array(nodeSchema),
    edges: z.array(edgeSchema),
    pagination: paginationSchema,
    truncated: z.boolean(),
  },
  budget: {
    lists: ["edges", "nodes"],
    keep: GRAPH_KEEP,
    trimFromEnd: true,
    repair: repairPagination("nodes", { trimFromEnd: true, seqKey: "last_seq" }),
  },
  handler: (ctx, args) => {
    const scope = reasoningScope(ctx, args, "read");
    const branch = scope.branch;
    const doc = args.doc ?? scope.ref?.graph_doc ?? DEFAULT_GRAPH_DOC;
    const sources = sourcesOf(ctx.db, branch);
    const window = { before: args.cursor, limit: args.limit, order: "newest" as const };
    // Other agents' drafts stay out unless every lane is asked for (docs/think.md "Lanes").
    const lanes = visibleLanes(ctx, args.all_lanes);
    const filter = queryFilter({ ...args, ids: undefined });
    // With ids, each id is resolved through the key index; a text of 3+ characters is looked up in the
    // trigram index; otherwise the term index serves the filters (graph-terms.store.ts).
    const page: { rows: VersionRow[]; has_more: boolean; next_before?: number } =
      args.ids === undefined
        ? usesTextIndex(args.text)
          ? textSearchPage(ctx.db, doc, sources, { text: args.text, before: args.cursor, limit: args.limit, filter, lanes })
          : queryPage(ctx.db, doc, sources, { filter, lanes, before: args.cursor, limit: args.limit, bounded: true })
        : keysPage(ctx.db, sources, doc, "node", args.ids, { ...window, where: filterWhere(filter, lanes) });
    const nodes = page.rows.map(toNode);
    const edges =
      args.include_edges && nodes.length > 0 && args.edges_limit > 0
        ? edgesBetween(
            ctx.db,
            sources,
            doc,
            nodes.map((node) => node.id),
            args.edges_limit,
          ).rows.map(toEdge)
        : [];
    const last = nodes[nodes.length - 1];
    return {
      branch: branch.name,
      doc,
      nodes,
      edges,
      pagination: pagination(args.cursor, page.has_more, page.next_before ?? last?.last_seq, args.limit, nodes.length),
      truncated: false,
    };
  },
});

const validationErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  edge: z.object({ from: z.string(), rel: z.string(), to: z.string() }),
  missing: z.array(z.string()),
  seq: z.number().describe("The seq of the edge's version: cursor = seq continues with the edges checked after it."),
});

/** Edges checked per validate call: enough for large graphs, bounded so one call stays short. */
const MAX_VALIDATE_EDGES = 20_000;
const VALIDATE_ROUND = 500;

export const graphValidate = defineCommand({
  name: "graph.validate",
  tool: "graph_validate",
  title: "Validate the graph",
  description: `Check that every live edge of a branch's effective graph has both endpoints live. Errors are bounded by max_errors (default 50); at most ${MAX_VALIDATE_EDGES} edges are checked per call (continue with cursor = next_cursor). Aim: target (a plan's or task's graph doc on its reasoning branch) > branch (+ doc, default \`graph\`) > your focus > your checkout.`,
  kind: "read",
  input: {
    ...graphPlaceFields,
    max_errors: z.number().int().min(1).max(500).default(50),
    cursor: z.number().int().positive().optional().describe("Continue with edges whose last_seq is below this."),
  },
  output: {
    branch: z.string(),
    doc: z.string(),
    ok: z.boolean(),
    stats: z.object({ nodes: z.number(), edges: z.number() }),
    checked_edges: z.number(),
    errors: z.array(validationErrorSchema),
    next_cursor: z.number().optional(),
    truncated: z.boolean(),
  },
  // Errors are found newest edge first: a cut keeps the first ones and continues after the last shown.
  budget: {
    lists: ["errors"],
    keep: ["code", "edge", "seq"],
    trimFromEnd: true,
    repair: topPageRepair("errors", "seq", { hasMore: false }),
  },
  handler: (ctx, args) => {
    const scope = reasoningScope(ctx, args, "read");
    const branch = scope.branch;
    const doc = args.doc ?? scope.ref?.graph_doc ?? DEFAULT_GRAPH_DOC;
    const sources = sourcesOf(ctx.db, branch);
    const live = new Map<string, boolean>();
    const isLiveNode = (id: string) => {
      let known = live.get(id);
      if (known === undefined) {
        known = isLive(lookupVersion(ctx.db, sources, doc, "node", id));
        live.set(id, known);
      }
      return known;
    };
    const errors: z.infer<typeof validationErrorSchema>[] = [];
    let checked = 0;
    let before = args.cursor;
    let more = true;
    while (more && checked < MAX_VALIDATE_EDGES && errors.length < args.max_errors) {
      const page = effectivePage(ctx.db, doc, "edge", scansOf(sources), { before, limit: VALIDATE_ROUND, order: "newest" });
      for (const edge of page.rows) {
        checked++;
        before = edge.seq;
        const missing = [edge.from_id ?? "", edge.to_id ?? ""].filter((id) => !isLiveNode(id));
        if (missing.length > 0) {
          errors.push({
            code: "EDGE_ENDPOINT_MISSING",
            message: `edge ${edge.from_id} -${edge.rel}-> ${edge.to_id} points at ${missing.join(" and ")}, which is not live`,
            edge: { from: edge.from_id ?? "", rel: edge.rel ?? "", to: edge.to_id ?? "" },
            missing,
            seq: edge.seq,
          });
          if (errors.length >= args.max_errors) break;
        }
      }
      more = page.has_more;
    }
    const unfinished = more || (errors.length >= args.max_errors && before !== undefined);
    return {
      branch: branch.name,
      doc,
      ok: errors.length === 0 && !unfinished,
      stats: { nodes: countLive(ctx.db, sources, doc, "node"), edges: countLive(ctx.db, sources, doc, "edge") },
      checked_edges: checked,
      errors,
      ...(unfinished && before !== undefined ? { next_cursor: before } : {}),
      truncated: unfinished,
    };
  },
});

export const graphDiff = defineCommand({
  name: "graph.diff",
  tool: "graph_diff",
  title: "Diff two graphs",
  description:
    "Patch-style directional diff: node and edge states in `to` that differ from `from` (tombstones included), newest first by to.last_seq. Page with cursor = next_cursor.",
  kind: "read",
  input: {
    from: branchArg.describe("Branch compared against."),
    to: branchArg.describe("Branch whose differing states are listed."),
    doc: graphDocSchema,
    cursor: z.number().int().positive().optional(),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(50),
  },
  output: {
    from: z.string(),
    to: z.string(),
    doc: z.string(),
    changes: z.array(graphChangeSchema),
    pagination: paginationSchema,
    truncated: z.boolean(),
  },
  budget: {
    lists: ["changes"],
    keep: ["kind", "id", "key", "change", "last_seq"],
    trimFromEnd: true,
    repair: repairPagination("changes", { trimFromEnd: true, seqKey: "last_seq" }),
  },
  handler: (ctx, args) => {
    const doc = args.doc ?? DEFAULT_GRAPH_DOC;
    const result = diffChanges(ctx, args.from, args.to, doc, args.cursor, args.limit);
    return { ...result, doc, truncated: false };
  },
});
