/**
 * The frontier suite's report: the layout and its seeding, what the measured graph answers hold, then
 * each op's median, p95, ratio to the floor, ms above the floor, and the Worker's and the object's mean
 * time per call; and the suite's section of the JSON file (`frontier`). No target: this is the heavy
 * case beside the cards suite's small frontier, reported to be watched, not judged.
 */
import type { Json } from "../lib/mcp-http.ts";
import { fmtInt, fmtMs, pad, padEnd } from "./format.ts";
import {
  CITING_EVERY,
  CLOSED_DECISION_EVERY,
  CLOSED_NOTES,
  DRAFT_AGENT,
  DRAFT_EVERY,
  HUB_CITES,
  OPEN_PER_TYPE,
  OPS_PER_CALL,
  UNTESTED_EVERY,
} from "./frontier-layout.ts";
import { FRONTIER_LABELS, type FrontierOpName, LIST_PER_TYPE } from "./frontier-measure.ts";
import { GRAPH_LIMIT, PER_NODE_EDGES } from "./frontier-model.ts";
import type { FrontierResult, FrontierShape } from "./frontier-suite.ts";
import type { OpSet } from "./sampling.ts";

export const FRONTIER_LAYOUT_TEXT =
  `main/graph: ${OPEN_PER_TYPE} questions, hypotheses, tests and decisions (open, but one decision in ${CLOSED_DECISION_EVERY} superseded), each hypothesis ` +
  `supporting its question, each test its hypothesis (one in ${UNTESTED_EVERY} probing the question instead: an untested hypothesis), each decision ` +
  `the next question; ${fmtInt(CLOSED_NOTES)} closed notes, the newest ${HUB_CITES} citing one question (the hub, over the ${PER_NODE_EDGES} ` +
  `edges a seed's read takes), and one hypothesis in ${CITING_EVERY} citing one; ${DRAFT_AGENT}'s open draft hypotheses on one question in ${DRAFT_EVERY} and on the hub, written last; ` +
  `written through graph_apply, ${OPS_PER_CALL} ops a call`;

const cell = (value: number | null | undefined): string => (value === null || value === undefined ? "—" : value.toFixed(2));

function shapeLine(label: string, shape: FrontierShape): string {
  return (
    `${label}: ${shape.nodes} nodes (${shape.seeds} seeds, ${shape.nodes - shape.seeds} neighbours only; ${shape.closed} closed; ` +
    `${shape.untested} untested), ${shape.edges} edges, ${shape.left_out} left out`
  );
}

export function frontierLines(result: FrontierResult, set: OpSet<FrontierOpName>): string[] {
  const c = result.layout;
  const s = result.seeding;
  const width = Math.max(...set.ops.map((op) => set.labels[op].length)) + 2;
  const out = [
    "",
    "== Frontier suite ==",
    "",
    `Layout: ${FRONTIER_LAYOUT_TEXT}`,
    `${fmtInt(c.cards)} cards, ${fmtInt(c.edges)} edges; open: ${Object.entries(c.open)
      .map(([type, n]) => `${n} ${type}`)
      .join(", ")}; ${fmtInt(s.ops)} ops in ${s.calls} calls, ${(s.ms / 1000).toFixed(1)} s (slowest call ${fmtMs(s.max_call_ms)} ms)`,
    shapeLine(`think_frontier_graph (limit ${GRAPH_LIMIT})`, result.shape.graph),
    shapeLine(`think_frontier_graph {around: [${c.hub}]}`, result.shape.graph_around),
    "",
    "Latency in ms: client median and p95; ratio = median / ping's; +ms = median − ping's; Worker and object: mean per call",
    `${padEnd("op", width)}${pad("median", 9)}${pad("p95", 9)}${pad("ratio", 8)}${pad("+ms", 8)}${pad("worker", 9)}${pad("object", 9)}`,
  ];
  for (const op of set.ops) {
    const stats = result.ops[op];
    const time = result.object_time?.[op];
    out.push(
      `${padEnd(set.labels[op], width)}${pad(fmtMs(stats.median_ms), 9)}${pad(fmtMs(stats.p95_ms), 9)}${pad(stats.ratio_to_floor.toFixed(2), 8)}` +
        `${pad(op === set.floor ? "—" : result.above_floor_ms[op].toFixed(2), 8)}${pad(cell(time?.worker_mean_ms), 9)}${pad(cell(time?.object_mean_ms), 9)}`,
    );
  }
  out.push(
    "",
    `(budget_profile audit on the three reads; every answer checked against the model, and before measuring ${result.checked_calls} checked ` +
      `calls: every op, think_frontier_graph at every limit 1-${GRAPH_LIMIT}, and with all_lanes)`,
  );
  return out;
}

export function frontierJson(set: OpSet<FrontierOpName>, result: FrontierResult): Json {
  return {
    config: {
      ops: FRONTIER_LABELS,
      layout: FRONTIER_LAYOUT_TEXT,
      graph_limit: GRAPH_LIMIT,
      list_per_type: LIST_PER_TYPE,
      floor: set.floor,
    },
    result,
  };
}
