/**
 * Browsing reads of the graph, for clients that draw it whole (the browser viewer) rather than ask it
 * questions: `graph_edges` pages every live edge of a branch's effective graph, so edges between nodes
 * of different `graph_query` pages are found too; `graph_node_show` gives one node with its versions
 * (its history as seen from the branch) and its live edges with the node at their other end. Both are
 * bounded pages over the same effective view as `graph_query`, and show every lane, as it does.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { sourcesOf } from "../../place/branches.store";
import { reasoningScope } from "../../place/scope";
import { fail } from "../../shared/errors";
import { MAX_NAME_CHARS } from "../../shared/limits";
import { suggest } from "../../shared/suggestion";
import { type Pagination, pagination, paginationSchema, repairPagination } from "../docs/paging";
import { DEFAULT_GRAPH_DOC, edgeSchema, GRAPH_KEEP, graphPlaceFields, nodeIdSchema, nodeSchema } from "./graph.schema";
import { isLive, lookupVersion, toEdge, toNode } from "./graph.store";
import { nodeHistory, relationWhere } from "./graph-browse.store";
import { edgesTouching } from "./graph-edges.store";
import { effectivePage, scansOf } from "./graph-pages.store";

/**
 * Edges per `graph_edges` page: an edge is ~150 characters, so 1,000 (graph_query's `edges_limit`
 * bound) load a 10,000-edge graph in ten calls while one page stays far below the RPC and memory caps.
 */
const MAX_EDGE_PAGE = 1_000;
const DEFAULT_EDGE_PAGE = 200;
/** Versions per `graph_node_show`: a node's history is short; older ones page with versions_cursor. */
const MAX_NODE_VERSIONS = 50;
const DEFAULT_NODE_VERSIONS = 20;
/** Edges per `graph_node_show` and direction: a card with more links is a hub, paged by graph_edges. */
const MAX_NODE_EDGES = 200;
const DEFAULT_NODE_EDGES = 50;

export const graphEdges = defineCommand({
  name: "graph.edges",
  tool: "graph_edges",
  title: "Page the graph's edges",
  description: `Every live edge of a branch's effective graph, newest first by last_seq, ${DEFAULT_EDGE_PAGE} per page by default (at most ${MAX_EDGE_PAGE}); rels filters by relation. Continue with cursor = next_cursor. With graph_query's node pages this draws a whole graph, edges between pages included. Aim: target (a plan's or task's graph doc on its reasoning branch) > branch (+ doc, default \`graph\`) > your focus > your checkout.`,
  kind: "read",
  input: {
    ...graphPlaceFields,
    rels: z.array(z.string().min(1).max(MAX_NAME_CHARS)).max(50).optional().describe('Only these relations, e.g. ["supports"].'),
    cursor: z.number().int().positive().optional().describe("Edges with last_seq below this (from next_cursor)."),
    limit: z.number().int().min(1).max(MAX_EDGE_PAGE).default(DEFAULT_EDGE_PAGE),
  },
  output: {
    branch: z.string(),
    doc: z.string(),
    edges: z.array(edgeSchema),
    pagination: paginationSchema,
    truncated: z.boolean(),
  },
  budget: {
    lists: ["edges"],
    keep: GRAPH_KEEP,
    trimFromEnd: true,
    repair: repairPagination("edges", { trimFromEnd: true, seqKey: "last_seq" }),
  },
  handler: (ctx, args) => {
    const scope = reasoningScope(ctx, args, "read");
    const doc = args.doc ?? scope.ref?.graph_doc ?? DEFAULT_GRAPH_DOC;
    const sources = sourcesOf(ctx.db, scope.branch);
    const page = effectivePage(ctx.db, doc, "edge", scansOf(sources), {
      before: args.cursor,
      limit: args.limit,
      order: "newest",
      where: relationWhere(args.rels),
    });
    const edges = page.rows.map(toEdge);
    return {
      branch: scope.branch.name,
      doc,
      edges,
      pagination: pagination(args.cursor, page.has_more, edges[edges.length - 1]?.last_seq, args.limit, edges.length),
      truncated: false,
    };
  },
});

const neighbourSchema = z.object({
  id: z.string(),
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.string().optional(),
  live: z.boolean().describe("false: the node at this end is deleted or missing in this view."),
});

const versionSchema = nodeSchema.extend({
  seq: z.number(),
  branch: z.string().describe("The branch that wrote this version (the branch itself or an ancestor)."),
  agent_id: z.string(),
});

/** Budget hook: when versions were dropped from the end, the versions cursor continues after the last one shown. */
function repairVersionsPage(payload: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> {
  const list = payload.versions as { seq: number }[] | undefined;
  const before = original.versions as unknown[] | undefined;
  const page = payload.versions_pagination as Pagination | undefined;
  if (!list || !before || !page || list.length === before.length) return payload;
  const last = list[list.length - 1]?.seq;
  return {
    ...payload,
    versions_pagination: { ...page, count: list.length, has_more: true, ...(last === undefined ? {} : { next_cursor: last }) },
  };
}

export const graphNodeShow = defineCommand({
  name: "graph.node.show",
  tool: "graph_node_show",
  title: "Show a graph node",
  description: `One node of a branch's effective graph: its current state (deleted: true for a tombstone), its versions newest first as the branch sees them (its own and its ancestors' up to their cutoffs; ${DEFAULT_NODE_VERSIONS} by default, older with versions_cursor), and its live edges in and out with the node at the other end (id, type, title, status). A node the view never had is UNKNOWN_ID. Aim: target > branch (+ doc, default \`graph\`) > your focus > your checkout.`,
  kind: "read",
  input: {
    ...graphPlaceFields,
    id: nodeIdSchema,
    versions_limit: z.number().int().min(1).max(MAX_NODE_VERSIONS).default(DEFAULT_NODE_VERSIONS),
    versions_cursor: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Versions with seq below this (from versions_pagination.next_cursor)."),
    edges_limit: z.number().int().min(1).max(MAX_NODE_EDGES).default(DEFAULT_NODE_EDGES).describe("Edges per direction."),
  },
  output: {
    branch: z.string(),
    doc: z.string(),
    node: nodeSchema,
    versions: z.array(versionSchema),
    versions_pagination: paginationSchema,
    edges: z.array(edgeSchema.omit({ deleted: true }).extend({ direction: z.enum(["out", "in"]), other: neighbourSchema })),
    edges_has_more: z.boolean(),
    truncated: z.boolean(),
  },
  budget: {
    lists: ["versions", "edges"],
    keep: ["seq", "branch", "from", "rel", "to", "direction", "last_seq"],
    trimFromEnd: true,
    repair: repairVersionsPage,
  },
  handler: (ctx, args) => {
    const scope = reasoningScope(ctx, args, "read");
    const doc = args.doc ?? scope.ref?.graph_doc ?? DEFAULT_GRAPH_DOC;
    const sources = sourcesOf(ctx.db, scope.branch);
    const current = lookupVersion(ctx.db, sources, doc, "node", args.id);
    if (current === undefined) {
      fail(
        "UNKNOWN_ID",
        `No node ${args.id} in ${scope.branch.name}/${doc}.`,
        "List the nodes with graph_query (same branch and doc), or check the branch.",
        { id: args.id, branch: scope.branch.name, doc },
        [suggest("graph_query", { branch: scope.branch.name, doc, text: args.id }, "Nodes whose id or title holds this text")],
      );
    }
    const branchNames = new Map(sources.map((source) => [source.branch_id, source.name]));
    const history = nodeHistory(ctx.db, sources, doc, args.id, { before: args.versions_cursor, limit: args.versions_limit });
    const versions = history.rows.map((row) => ({
      ...toNode(row),
      seq: row.seq,
      branch: branchNames.get(row.branch_id) ?? row.branch_id,
      agent_id: row.agent_id,
    }));
    const touching = isLive(current) ? edgesTouching(ctx.db, sources, doc, args.id, args.edges_limit + 1) : [];
    const outgoing = touching.filter((row) => row.from_id === args.id);
    const incoming = touching.filter((row) => row.from_id !== args.id);
    const shown = [...outgoing.slice(0, args.edges_limit), ...incoming.slice(0, args.edges_limit)].sort((a, b) => b.seq - a.seq);
    const edges = shown.map((row) => {
      const { deleted: _deleted, ...edge } = toEdge(row);
      const direction = edge.from === args.id ? ("out" as const) : ("in" as const);
      const otherId = direction === "out" ? edge.to : edge.from;
      const other = lookupVersion(ctx.db, sources, doc, "node", otherId);
      const live = isLive(other);
      return {
        ...edge,
        direction,
        other: {
          id: otherId,
          ...(live && other.node_type !== null ? { type: other.node_type } : {}),
          ...(live && other.title !== null ? { title: other.title } : {}),
          ...(live && other.status !== null ? { status: other.status } : {}),
          live,
        },
      };
    });
    const last = versions[versions.length - 1];
    return {
      branch: scope.branch.name,
      doc,
      node: toNode(current),
      versions,
      versions_pagination: pagination(args.versions_cursor, history.has_more, last?.seq, args.versions_limit, versions.length),
      edges,
      edges_has_more: outgoing.length > args.edges_limit || incoming.length > args.edges_limit,
      truncated: false,
    };
  },
});

export const GRAPH_BROWSE_COMMANDS = [graphEdges, graphNodeShow];
