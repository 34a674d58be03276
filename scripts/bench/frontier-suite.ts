/**
 * The frontier suite: the heavy case of `think_frontier_graph`, a graph doc with hundreds of open cards
 * each with edges (frontier-layout.ts), so the view's 200 nodes fill with seeds and their neighbours.
 * It writes the layout into the fresh workspace `bench/frontier` through `graph_apply`, in calls of one
 * agent's ops in write order (bench's cards, then alice's drafts), each call's applied counts checked;
 * checks every op's answer and the graph at every limit and lane against the model (frontier-measure.ts);
 * then samples `ping`, `think_frontier_graph`, `think_frontier_graph {around}` and `think_frontier` in
 * the same rotated rounds, every answer checked, with the Worker/object split from the server's call lines.
 */
import { performance } from "node:perf_hooks";
import { log } from "../lib/dev-server.ts";
import type { McpClient } from "../lib/mcp-http.ts";
import { buildFrontierLayout, type FrontierLayout, frontierLayoutCounts } from "./frontier-layout.ts";
import { checkFrontier, FRONTIER_OPS, type FrontierOpName, frontierOpSet, measureFrontier } from "./frontier-measure.ts";
import { FrontierModel } from "./frontier-model.ts";
import { type CallLines, type ObjectTime, objectTimesOf } from "./object-time.ts";
import { fmtInt } from "./report.ts";
import { type CallOrder, type OpResult, summarize } from "./sampling.ts";

export const FRONTIER_WORKSPACE = "bench/frontier";

export interface FrontierSuiteOptions {
  warmup: number;
  samples: number;
}

export interface FrontierSeeding {
  calls: number;
  ops: number;
  ms: number;
  max_call_ms: number;
}

/** What the default and `around` answers hold (from the model, which every answer matched). */
export interface FrontierShape {
  nodes: number;
  seeds: number;
  closed: number;
  untested: number;
  edges: number;
  left_out: number;
}

export interface FrontierResult {
  workspace: string;
  layout: ReturnType<typeof frontierLayoutCounts>;
  seeding: FrontierSeeding;
  /** Checked calls before measuring (every op, every limit 1-200, every lane). */
  checked_calls: number;
  shape: { graph: FrontierShape; graph_around: FrontierShape };
  ops: Record<FrontierOpName, OpResult>;
  /** Each op's median minus the floor's, ms. */
  above_floor_ms: Record<FrontierOpName, number>;
  object_time?: Record<FrontierOpName, ObjectTime>;
}

/** Writes the layout through graph_apply, each batch by its agent; fails unless the workspace starts empty. */
async function seedFrontier(clientOf: (agent: string) => McpClient, layout: FrontierLayout): Promise<FrontierSeeding> {
  const first = layout.batches[0]?.agent ?? "bench";
  const { value: before } = await clientOf(first).callTool("graph_query", { workspace: FRONTIER_WORKSPACE, limit: 1, all_lanes: true });
  if (!Array.isArray(before.nodes) || before.nodes.length > 0) throw new Error(`${FRONTIER_WORKSPACE} is not fresh: it has graph nodes`);
  const started = performance.now();
  const totals = { calls: 0, ops: 0, max_call_ms: 0 };
  for (const batch of layout.batches) {
    const { ms, value } = await clientOf(batch.agent).callTool("graph_apply", { workspace: FRONTIER_WORKSPACE, ops: batch.ops });
    const want = { nodes_upserted: batch.nodes, nodes_deleted: 0, edges_upserted: batch.edges, edges_deleted: 0 };
    if (JSON.stringify(value.applied) !== JSON.stringify(want) || value.branch !== "main" || value.doc !== "graph") {
      throw new Error(
        `seeding ${FRONTIER_WORKSPACE}, call ${totals.calls + 1} (${batch.agent}): expected main/graph ${JSON.stringify(want)}, ` +
          `got ${String(value.branch)}/${String(value.doc)} ${JSON.stringify(value.applied)}`,
      );
    }
    totals.calls++;
    totals.ops += batch.ops.length;
    totals.max_call_ms = Math.max(totals.max_call_ms, ms);
  }
  return { ...totals, ms: performance.now() - started };
}

function shapeOf(graph: ReturnType<FrontierModel["graph"]>): FrontierShape {
  return {
    nodes: graph.nodes.length,
    seeds: graph.nodes.filter((node) => node.seed).length,
    closed: graph.nodes.filter((node) => !node.open).length,
    untested: graph.nodes.filter((node) => node.untested).length,
    edges: graph.edges.length,
    left_out: graph.left_out,
  };
}

export async function runFrontierSuite(
  clientOf: (agent: string) => McpClient,
  options: FrontierSuiteOptions,
  lines?: CallLines,
): Promise<FrontierResult> {
  const layout = buildFrontierLayout();
  const counts = frontierLayoutCounts(layout);
  const model = new FrontierModel(layout);
  const client = clientOf("bench");
  log(
    `seeding the frontier suite: ${fmtInt(counts.cards)} cards (${Object.values(counts.open).join(" + ")} open, ` +
      `${fmtInt(counts.closed)} closed, ${counts.drafts} drafts), ${fmtInt(counts.edges)} edges, in ${counts.calls} graph_apply calls`,
  );
  const seeding = await seedFrontier(clientOf, layout);
  log(`  ${fmtInt(seeding.ops)} ops in ${(seeding.ms / 1000).toFixed(1)} s`);
  const checked = await checkFrontier(client, model, FRONTIER_WORKSPACE);
  log(`  checked: ${checked} answers (every op, think_frontier_graph at limits 1-200 and with every lane) against the model`);
  const set = frontierOpSet();
  log(`measuring the frontier suite: ${options.warmup} warmup + ${options.samples} sample rounds of ${FRONTIER_OPS.length} ops`);
  await lines?.drain(client);
  const order: CallOrder<FrontierOpName> = [];
  const times = await measureFrontier(client, model, FRONTIER_WORKSPACE, options.warmup, options.samples, order);
  const objectTime = lines === undefined ? undefined : objectTimesOf(FRONTIER_OPS, order, await lines.drain(client), options.warmup);
  const ops = summarize(set, times);
  const above = {} as Record<FrontierOpName, number>;
  for (const op of FRONTIER_OPS) above[op] = Math.round((ops[op].median_ms - ops.ping.median_ms) * 1000) / 1000;
  return {
    workspace: FRONTIER_WORKSPACE,
    layout: counts,
    seeding,
    checked_calls: checked,
    shape: { graph: shapeOf(model.graph()), graph_around: shapeOf(model.graph({ around: [layout.hub] })) },
    ops,
    above_floor_ms: above,
    ...(objectTime === undefined ? {} : { object_time: objectTime }),
  };
}
