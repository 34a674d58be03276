/**
 * Progressive loading of a branch's graph: node pages from `graph.query` (newest first, 200 a page,
 * without edges), then every edge from `graph.edges` (1,000 a page), each page handed over as it
 * arrives so the canvas fills while the rest loads. Bounded: at most MAX_NODES nodes and MAX_EDGES
 * edges are drawn; the result says when a bound cut the graph. Reads through the reader it is given.
 */
import type { GraphReader } from "./reader";

export interface GraphNode {
  id: string;
  type: string;
  title?: string;
  text?: string;
  status?: string;
  tags: string[];
  meta?: Record<string, unknown>;
  last_seq: number;
}

export interface GraphEdge {
  from: string;
  rel: string;
  to: string;
  last_seq: number;
}

interface Pagination {
  has_more: boolean;
  next_cursor?: number;
}

/** Node and edge bounds of one view: 20k nodes stay interactive with the large-graph settings. */
export const MAX_NODES = 20_000;
export const MAX_EDGES = 60_000;
/** graph.query's largest page. */
const NODE_PAGE = 200;
/** graph.edges' largest page. */
const EDGE_PAGE = 1_000;
/** A page of 1,000 edges is ~150k characters: above the audit profile, so the budget is set per call. */
const PAGE_BUDGET_CHARS = 600_000;

export interface LoadTarget {
  branch: string;
  doc: string;
}

export interface LoadCallbacks {
  nodes(page: GraphNode[], loaded: number): void;
  edges(page: GraphEdge[], loaded: number): void;
}

export interface LoadResult {
  nodes: number;
  edges: number;
  capped: boolean;
}

export async function loadGraph(read: GraphReader, target: LoadTarget, callbacks: LoadCallbacks): Promise<LoadResult> {
  const { branch, doc } = target;
  let nodes = 0;
  let edges = 0;
  let capped = false;
  let cursor: number | undefined;
  for (;;) {
    const page: { nodes: GraphNode[]; pagination: Pagination } = await read("graph.query", {
      branch,
      doc,
      limit: NODE_PAGE,
      include_edges: false,
      max_chars: PAGE_BUDGET_CHARS,
      ...(cursor ? { cursor } : {}),
    });
    nodes += page.nodes.length;
    callbacks.nodes(page.nodes, nodes);
    cursor = page.pagination.next_cursor;
    if (!page.pagination.has_more || cursor === undefined) break;
    if (nodes >= MAX_NODES) {
      capped = true;
      break;
    }
  }
  cursor = undefined;
  for (;;) {
    const page: { edges: GraphEdge[]; pagination: Pagination } = await read("graph.edges", {
      branch,
      doc,
      limit: EDGE_PAGE,
      max_chars: PAGE_BUDGET_CHARS,
      ...(cursor ? { cursor } : {}),
    });
    edges += page.edges.length;
    callbacks.edges(page.edges, edges);
    cursor = page.pagination.next_cursor;
    if (!page.pagination.has_more || cursor === undefined) break;
    if (edges >= MAX_EDGES) {
      capped = true;
      break;
    }
  }
  return { nodes, edges, capped };
}
