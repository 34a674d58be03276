/**
 * The common suite's report: its seeding table, the shared latency and growth tables, and its section
 * of the JSON file (`common`), with what the working set holds so a reader knows what was measured;
 * with `--compare-root`, the side-by-side table of each size (common-compare.ts).
 */
import type { Json } from "../lib/mcp-http.ts";
import { COMMON_WRITES, type CommonComparison, TARGET_MAX_RATIO_DIFF } from "./common-compare.ts";
import { type CommonOpName, commonOpSet } from "./common-measure.ts";
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
import type { ObjectTime } from "./object-time.ts";
import { fmtInt, fmtMs, type Growth, growthLines, latencyLines, type Misses, pad, padEnd, targetsMetJson } from "./report.ts";
import type { OpResult, OpSet } from "./sampling.ts";

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
  for (const result of results) {
    if (result.compare !== undefined) out.push(...compareLines(result.size, result.ops, result.compare, result.object_time));
  }
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

const objectCell = (time: ObjectTime | undefined): string =>
  typeof time?.object_mean_ms === "number" ? time.object_mean_ms.toFixed(2) : "—";

/** `--compare-root`: one size's side-by-side table (`nowTimes`: this checkout's object times). */
function compareLines(
  size: number,
  nowOps: Record<CommonOpName, OpResult>,
  comparison: CommonComparison,
  nowTimes: Record<CommonOpName, ObjectTime> | undefined,
): string[] {
  const set = commonOpSet();
  const width = Math.max(...set.ops.map((op) => set.labels[op].length)) + 2;
  const where = comparison.label === comparison.root ? comparison.root : `${comparison.label} (${comparison.root})`;
  const out = [
    "",
    `Common suite at ${fmtInt(size)} notes, now vs ${where}, in the same rounds`,
    "ratio = median / its own server's ping median; object = mean ms per call inside the workspace object, on each server",
    `${padEnd("op", width)}${pad("now ms", 9)}${pad("ratio", 7)}${pad("before ms", 11)}${pad("ratio", 7)}${pad("diff", 8)}` +
      `${pad("object", 8)}${pad("before", 8)}  target (writes: diff ≤ +${TARGET_MAX_RATIO_DIFF})`,
  ];
  for (const op of set.ops) {
    const c = comparison.ops[op];
    const before = comparison.before_ops[op];
    const verdict =
      before === undefined ? "absent there" : c.met === null ? (op === set.floor ? "floor" : "read") : c.met ? "met" : "MISSED";
    const diff = c.ratio_diff === null ? "—" : `${c.ratio_diff >= 0 ? "+" : ""}${c.ratio_diff.toFixed(2)}`;
    out.push(
      `${padEnd(set.labels[op], width)}${pad(fmtMs(nowOps[op].median_ms), 9)}${pad(c.ratio_now.toFixed(2), 7)}` +
        `${pad(before === undefined ? "—" : fmtMs(before.median_ms), 11)}${pad(c.ratio_before === null ? "—" : c.ratio_before.toFixed(2), 7)}` +
        `${pad(diff, 8)}${pad(objectCell(nowTimes?.[op]), 8)}${pad(objectCell(comparison.before_object_time?.[op]), 8)}  ${verdict}`,
    );
  }
  return out;
}

/** `--compare-root`: the writes' target over every size, and the ops the earlier revision lacks. */
export function compareTargetLines(results: readonly CommonSizeResult[]): string[] {
  const compared = results.filter((result) => result.compare !== undefined);
  const first = compared[0]?.compare;
  if (first === undefined) return [];
  const misses = compared.flatMap((result) =>
    COMMON_WRITES.filter((op) => result.compare?.ops[op].met === false).map((op) => `${op} at ${fmtInt(result.size)}`),
  );
  const absent = [...new Set(compared.flatMap((result) => result.compare?.absent ?? []))];
  const verdict = misses.length === 0 ? "met" : `MISSED (${misses.join("; ")})`;
  return [
    `Common vs ${first.label}: every write within +${TARGET_MAX_RATIO_DIFF} of its ratio there: ${verdict}` +
      (absent.length > 0 ? `; absent there: ${absent.join(", ")}` : ""),
  ];
}
