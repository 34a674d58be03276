/**
 * What the graph suite measures, all on the deepest chain branch of a seeded graph workspace: `ping`
 * (the floor, same workspace), `graph_query` (first page of 50 nodes with the edges between them),
 * `graph_apply` (10 ops: 6 node upserts and 4 edge upserts), and, as a reference outside the targets,
 * `graph_query` without edges, which splits the query's cost into the node page and the edge step.
 * Every call is checked on the fly: queries must return a full page, and each apply must end at the
 * seq the model expects (so the model, and the checks after measuring, stay exact).
 */
import type { Call, McpClient } from "../lib/mcp-http.ts";
import { applyOps, applyPool, GRAPH_PAGE_LIMIT, type GraphLayout } from "./graph-layout.ts";
import { type OpSet, sampleRounds } from "./sampling.ts";

export const GRAPH_OPS = ["ping", "graph_query", "graph_apply", "graph_query_nodes"] as const;
export type GraphOpName = (typeof GRAPH_OPS)[number];

export function graphOpSet(deepest: string): OpSet<GraphOpName> {
  return {
    ops: GRAPH_OPS,
    floor: "ping",
    reference: ["graph_query_nodes"],
    labels: {
      ping: "ping (floor)",
      graph_query: `graph_query ${deepest}`,
      graph_apply: `graph_apply ${deepest}`,
      graph_query_nodes: "graph_query, no edges",
    },
  };
}

async function checkedQuery(client: McpClient, workspace: string, branch: string, includeEdges: boolean): Promise<Call> {
  const call = await client.callTool("graph_query", { workspace, branch, limit: GRAPH_PAGE_LIMIT, include_edges: includeEdges });
  const nodes = (call.value.nodes ?? []) as unknown[];
  const edges = (call.value.edges ?? []) as unknown[];
  if (nodes.length !== GRAPH_PAGE_LIMIT || call.value.truncated === true || (includeEdges && edges.length === 0)) {
    throw new Error(`graph_query on ${branch}: ${nodes.length} nodes and ${edges.length} edges, truncated ${String(call.value.truncated)}`);
  }
  return call;
}

/** Samples the graph ops on `layout.deepest`; records every measured write in the layout's model. */
export function measureGraph(
  client: McpClient,
  workspace: string,
  layout: GraphLayout,
  warmup: number,
  samples: number,
): Promise<Record<GraphOpName, number[]>> {
  const branch = layout.deepest;
  const pool = applyPool(layout.size);
  let applies = 0;
  const call = async (op: GraphOpName): Promise<Call> => {
    switch (op) {
      case "ping":
        return client.callTool("ping", { workspace });
      case "graph_query":
        return checkedQuery(client, workspace, branch, true);
      case "graph_query_nodes":
        return checkedQuery(client, workspace, branch, false);
      case "graph_apply": {
        const ops = applyOps(pool, applies++);
        for (const graphOp of ops) layout.model.record(branch, graphOp);
        const result = await client.callTool("graph_apply", { workspace, branch, ops });
        if (result.value.last_seq !== layout.model.versions) {
          throw new Error(`graph_apply on ${branch}: last_seq ${String(result.value.last_seq)}, expected ${layout.model.versions}`);
        }
        return result;
      }
    }
  };
  return sampleRounds(GRAPH_OPS, call, warmup, samples);
}
