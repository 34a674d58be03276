/**
 * The common suite's report: its seeding table, the shared latency and growth tables, and its section
 * of the JSON file (`common`), with what the working set holds so a reader knows what was measured.
 */
import type { Json } from "../lib/mcp-http.ts";
import type { CommonOpName } from "./common-measure.ts";
import {
  COMMON_CARDS,
  COMMON_CHAIN_DEPTH,
  COMMON_JOBS,
  COMMON_KNOWLEDGE_CARDS,
  COMMON_RECORDS,
  COMMON_STEPS,
  SEARCH_HITS,
  SEARCH_WORD,
} from "./common-seed.ts";
import type { CommonSizeResult } from "./common-suite.ts";
import { fmtInt, type Growth, growthLines, latencyLines, type Misses, pad, padEnd, targetsMetJson } from "./report.ts";
import type { OpSet } from "./sampling.ts";

export const WORKING_SET_TEXT =
  `1 plan, 1 focused task with ${COMMON_STEPS} steps, ${COMMON_CARDS} thinking cards, ${COMMON_KNOWLEDGE_CARDS} knowledge cards, ` +
  `${COMMON_JOBS} queued jobs, ${COMMON_RECORDS} records (${SEARCH_HITS} with "${SEARCH_WORD}")`;

export function commonLines(results: CommonSizeResult[], growth: Growth<CommonOpName> | undefined, set: OpSet<CommonOpName>): string[] {
  const out = ["", "== Common suite ==", "", `Working set at every size: ${WORKING_SET_TEXT}`, ""];
  out.push(`${padEnd("notes", 10)}${pad("calls", 7)}${pad("notes s", 9)}${pad("working set calls", 19)}${pad("working set s", 15)}`);
  for (const result of results) {
    const s = result.seeding;
    out.push(
      `${padEnd(fmtInt(s.notes), 10)}${pad(String(s.calls), 7)}${pad((s.ms / 1000).toFixed(1), 9)}` +
        `${pad(String(s.working_set_calls), 19)}${pad((s.working_set_ms / 1000).toFixed(1), 15)}`,
    );
  }
  out.push("", ...latencyLines(set, results), "", ...growthLines(set, results, growth, "notes", [1_000, 100_000]));
  return out;
}

export function commonJson(
  options: { sizes: number[] },
  set: OpSet<CommonOpName>,
  results: CommonSizeResult[],
  growth: Growth<CommonOpName> | undefined,
  misses: Misses,
): Json {
  return {
    config: { sizes: options.sizes, ops: set.labels, chain_depth: COMMON_CHAIN_DEPTH, working_set: WORKING_SET_TEXT },
    results,
    growth: growth ?? null,
    targets_met: targetsMetJson(misses, growth),
  };
}
