/**
 * The graph suite, size by size: build the layout, seed a fresh workspace `bench/g<size>` through the
 * bulk path, check the pages and probes against the model, sample the ops on the deepest branch, and
 * check again afterwards (the measured writes are in the model, so the pages must still match).
 */
import { log } from "../lib/dev-server.ts";
import type { McpClient } from "../lib/mcp-http.ts";
import { buildGraphLayout } from "./graph-layout.ts";
import { GRAPH_OPS, graphOpSet, measureGraph } from "./graph-measure.ts";
import type { GraphSizeResult } from "./graph-report.ts";
import { seedGraph, verifyGraph } from "./graph-seed.ts";
import { fmtInt } from "./report.ts";
import { summarize } from "./sampling.ts";

export interface GraphSuiteOptions {
  graphSizes: number[];
  chainDepth: number;
  warmup: number;
  samples: number;
}

export async function runGraphSuite(client: McpClient, options: GraphSuiteOptions): Promise<GraphSizeResult[]> {
  const results: GraphSizeResult[] = [];
  for (const size of options.graphSizes) {
    const workspace = `bench/g${size}`;
    const layout = buildGraphLayout(size, options.chainDepth);
    log(
      `seeding ${workspace}: ${fmtInt(size)} nodes, ${fmtInt(2 * size)} edges, about ${fmtInt(10 * size)} versions, ${options.chainDepth} branches`,
    );
    const seeding = await seedGraph(client, workspace, layout);
    log(`  ${(seeding.ms / 1000).toFixed(1)} s in ${seeding.calls} calls, ${fmtInt(seeding.versions)} versions`);
    const page = await verifyGraph(client, workspace, layout);
    log(`  checked: ${page.nodes} nodes and ${page.edges} edges on ${layout.deepest}; probes of the cutoffs hold`);
    log(`measuring ${workspace}: ${options.warmup} warmup + ${options.samples} sample rounds of ${GRAPH_OPS.length} ops`);
    const times = await measureGraph(client, workspace, layout, options.warmup, options.samples);
    const after = await verifyGraph(client, workspace, layout);
    const owners = Object.entries(after.nodes_by_branch).map(([branch, count]) => `${branch} ${count}`);
    log(`  checked again after measuring: ${after.nodes} nodes (${owners.join(", ")}), ${after.edges} edges`);
    results.push({ size, workspace, seeding, page, ops: summarize(graphOpSet(layout.deepest), times) });
  }
  return results;
}
