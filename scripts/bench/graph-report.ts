/**
 * The graph suite's report: its seeding table (versions, keys, calls, time, throughput), the shape of
 * the checked page on the deepest branch, the shared latency and growth tables, and its section of
 * the JSON file (`graph`).
 */
import type { Json } from "../lib/mcp-http.ts";
import { APPLY_POOL, GRAPH_DOC, GRAPH_EDGES_LIMIT, GRAPH_PAGE_LIMIT, mainWritesAfterBranch, UPDATE_ROUNDS } from "./graph-layout.ts";
import type { GraphOpName } from "./graph-measure.ts";
import type { GraphSeeding, PageShape } from "./graph-seed.ts";
import { fmtInt, type Growth, growthLines, latencyLines, type Misses, pad, padEnd, type SuiteSize, targetsMetJson } from "./report.ts";
import type { OpSet } from "./sampling.ts";

export interface GraphSizeResult extends SuiteSize<GraphOpName> {
  workspace: string;
  seeding: GraphSeeding;
  /** The deepest branch's first page as checked before measuring. */
  page: PageShape;
}

export function graphLines(results: GraphSizeResult[], growth: Growth<GraphOpName> | undefined, set: OpSet<GraphOpName>): string[] {
  const out = ["", "== Graph suite ==", "", "Seeding (workspace_import with graph items, ≤ 5000 graph ops per call)"];
  out.push(
    `${padEnd("nodes", 10)}${pad("node keys", 11)}${pad("edge keys", 11)}${pad("versions", 11)}${pad("branches", 10)}` +
      `${pad("calls", 7)}${pad("time s", 9)}${pad("versions/s", 12)}${pad("max call s", 12)}`,
  );
  for (const result of results) {
    const s = result.seeding;
    out.push(
      `${padEnd(fmtInt(result.size), 10)}${pad(fmtInt(s.node_keys), 11)}${pad(fmtInt(s.edge_keys), 11)}${pad(fmtInt(s.versions), 11)}` +
        `${pad(String(s.branches), 10)}${pad(String(s.calls), 7)}${pad((s.ms / 1000).toFixed(1), 9)}` +
        `${pad(fmtInt(Math.round(s.versions_per_s)), 12)}${pad((s.max_call_ms / 1000).toFixed(2), 12)}`,
    );
  }
  out.push("", "Seeding time by phase (each call's time shared out by its ops): ops, seconds, ops/s");
  for (const result of results) {
    const phases = result.seeding.phases.map((p) => `${p.phase} ${fmtInt(p.ops)} ${p.s.toFixed(1)} s ${fmtInt(p.ops_per_s)}/s`);
    out.push(`${padEnd(fmtInt(result.size), 10)}${phases.join("; ")}`);
  }
  out.push("", "Checked page on the deepest branch before measuring (nodes per branch that wrote them)");
  for (const result of results) {
    const owners = Object.entries(result.page.nodes_by_branch)
      .map(([branch, count]) => `${branch} ${count}`)
      .join(", ");
    out.push(`${padEnd(fmtInt(result.size), 10)}${result.page.nodes} nodes, ${result.page.edges} edges; ${owners}`);
  }
  out.push("", ...latencyLines(set, results), "", ...growthLines(set, results, growth, "nodes", [10_000, 100_000]));
  return out;
}

export function graphJson(
  options: { graphSizes: number[]; chainDepth: number },
  set: OpSet<GraphOpName>,
  results: GraphSizeResult[],
  growth: Growth<GraphOpName> | undefined,
  misses: Misses,
): Json {
  return {
    config: {
      sizes: options.graphSizes,
      doc: GRAPH_DOC,
      page_limit: GRAPH_PAGE_LIMIT,
      edges_limit: GRAPH_EDGES_LIMIT,
      ops: set.labels,
      layout: {
        chain_depth: options.chainDepth,
        edges: "2 per node (next, link)",
        node_update_rounds: `${UPDATE_ROUNDS}, node i in rounds 1..(1 + hash(i) mod ${UPDATE_ROUNDS}), then a final round over all nodes`,
        edge_reupserts: "0-2 per edge, with meta",
        scratch_nodes: "max(10, size / 1000), half of them deleted",
        chain_branch_writes: "3 nodes and 2-3 edges per chain branch",
        main_writes_after_each_branch: `max(10, floor(size / 100)) (${results.map((r) => mainWritesAfterBranch(r.size)).join(", ")})`,
        late_writes: "1 node update on each chain branch but the deepest, after the whole chain exists",
        apply_pool: `${APPLY_POOL} node ids, 6 node upserts + 4 edge upserts per graph_apply call`,
      },
    },
    results,
    growth: growth ?? null,
    targets_met: targetsMetJson(misses, growth),
  };
}
