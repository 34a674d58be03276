/**
 * The cards suite's report: its seeding table, per size each op's median, p95, ratio to the floor and
 * milliseconds above the floor against the suite's target (at most 1.5 ms above `ping`), the growth
 * table (at most 1.2×), the Worker/object split, and its section of the JSON file (`cards`).
 */
import type { Json } from "../lib/mcp-http.ts";
import { CHAIN_DEPTH, LANE_AGENTS, OPEN_SET, SCOPE_NOTES, SCOPE_TRACE } from "./cards-layout.ts";
import { type CardsOpName, QUERY_LIMIT, QUERY_TYPE } from "./cards-measure.ts";
import type { CardsSizeResult } from "./cards-suite.ts";
import { objectTimeLines } from "./object-time.ts";
import { fmtInt, fmtMs, type Growth, growthLines, pad, padEnd, TARGET_MAX_GROWTH } from "./report.ts";
import type { OpSet } from "./sampling.ts";

/** The suite's target: every op's median at most this many ms above the floor's. */
export const TARGET_MAX_ABOVE_FLOOR_MS = 1.5;
const DEFINED_GROWTH: [number, number] = [1_000, 100_000];

export const CARDS_LAYOUT_TEXT =
  `per size, two card docs of that many cards each (main's graph, the checkout's; task/TASK-001's TASK-001-graph, the focused task's): ` +
  `the oldest ${OPEN_SET.length} open (${OPEN_SET.join(", ")}; 3 step-tagged in the task's doc), then mixed types, ` +
  `every shared one closed; 10% open drafts of ${LANE_AGENTS.map((agent) => `agent/${agent}`).join(" and ")}; evidence supports a hypothesis; ` +
  `a chain of ${CHAIN_DEPTH} branches off main with size/100 cards per run; ${SCOPE_NOTES} notes and ${SCOPE_TRACE} trace entries per scope`;

export interface CardsMisses {
  above_floor: string[];
  growth: string[];
}

export function cardsMisses(set: OpSet<CardsOpName>, results: CardsSizeResult[], growth: Growth<CardsOpName> | undefined): CardsMisses {
  const measured = set.ops.filter((op) => op !== set.floor);
  return {
    above_floor: results.flatMap((result) =>
      measured
        .filter((op) => result.above_floor_ms[op] > TARGET_MAX_ABOVE_FLOOR_MS)
        .map((op) => `${set.labels[op]} at ${fmtInt(result.size)}`),
    ),
    growth: growth === undefined ? [] : measured.filter((op) => growth.ops[op].met === false).map((op) => set.labels[op]),
  };
}

export function cardsLines(results: CardsSizeResult[], growth: Growth<CardsOpName> | undefined, set: OpSet<CardsOpName>): string[] {
  const out = ["", "== Cards suite ==", "", `Layout: ${CARDS_LAYOUT_TEXT}`, ""];
  out.push(
    `${padEnd("cards/doc", 11)}${pad("all cards", 11)}${pad("drafts", 9)}${pad("edges", 9)}${pad("calls", 7)}${pad("import s", 10)}${pad("ops/s", 8)}${pad("setup s", 9)}`,
  );
  for (const r of results) {
    const s = r.seeding;
    out.push(
      `${padEnd(fmtInt(r.size), 11)}${pad(fmtInt(r.layout.cards), 11)}${pad(fmtInt(r.layout.drafts), 9)}${pad(fmtInt(r.layout.edges), 9)}` +
        `${pad(String(s.calls), 7)}${pad((s.ms / 1000).toFixed(1), 10)}${pad(fmtInt(Math.round(s.graph_ops_per_s)), 8)}${pad((s.setup_ms / 1000).toFixed(1), 9)}`,
    );
  }
  const width = Math.max(...set.ops.map((op) => set.labels[op].length)) + 2;
  out.push(
    "",
    `Latency in ms; ratio = median / ping median; +ms = median − ping median (target ≤ ${TARGET_MAX_ABOVE_FLOOR_MS} ms above the floor)`,
    `${padEnd("size", 10)}${padEnd("op", width)}${pad("median", 9)}${pad("p95", 9)}${pad("ratio", 8)}${pad("+ms", 8)}  target`,
  );
  for (const r of results) {
    for (const op of set.ops) {
      const stats = r.ops[op];
      const above = r.above_floor_ms[op];
      const verdict = op === set.floor ? "floor" : above <= TARGET_MAX_ABOVE_FLOOR_MS ? "met" : "MISSED";
      out.push(
        `${padEnd(fmtInt(r.size), 10)}${padEnd(set.labels[op], width)}${pad(fmtMs(stats.median_ms), 9)}${pad(fmtMs(stats.p95_ms), 9)}` +
          `${pad(stats.ratio_to_floor.toFixed(2), 8)}${pad(op === set.floor ? "—" : above.toFixed(2), 8)}  ${verdict}`,
      );
    }
  }
  out.push("", ...growthLines(set, results, growth, "cards per doc", DEFINED_GROWTH), "", ...objectTimeLines(set, results, "cards"));
  out.push(
    "",
    `(graph_query: ${QUERY_LIMIT} newest ${QUERY_TYPE} cards; "main" names main's graph, "focus" gives no place, so the focused task's graph is read;`,
    ` "target" reads are given target TASK-001: the task's graph, step-aware; the others read the checkout, main's graph)`,
  );
  return out;
}

export function cardsTargetLines(misses: CardsMisses, growth: Growth<CardsOpName> | undefined): string[] {
  const growthText =
    growth === undefined ? "not measured (one size)" : misses.growth.length === 0 ? "met" : `MISSED (${misses.growth.join("; ")})`;
  return [
    `Cards: target ≤ ${TARGET_MAX_ABOVE_FLOOR_MS} ms above the floor: ${misses.above_floor.length === 0 ? "met" : `MISSED (${misses.above_floor.join("; ")})`}`,
    `Cards: target growth ≤ ${TARGET_MAX_GROWTH}×: ${growthText}`,
  ];
}

export function cardsJson(
  options: { cardSizes: number[] },
  set: OpSet<CardsOpName>,
  results: CardsSizeResult[],
  growth: Growth<CardsOpName> | undefined,
  misses: CardsMisses,
): Json {
  return {
    config: {
      card_sizes: options.cardSizes,
      ops: set.labels,
      layout: CARDS_LAYOUT_TEXT,
      targets: { max_above_floor_ms: TARGET_MAX_ABOVE_FLOOR_MS, max_growth: TARGET_MAX_GROWTH },
    },
    results,
    growth: growth ?? null,
    targets_met: {
      above_floor: misses.above_floor.length === 0,
      above_floor_misses: misses.above_floor,
      growth: growth === undefined ? null : misses.growth.length === 0,
      growth_misses: misses.growth,
    },
  };
}
