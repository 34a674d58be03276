/**
 * The ready suite's report: the layout and its restore, then per layout each op's median, p95, ratio
 * to that layout's floor (its own workspace's `ping`) against the target (≤ 1.3, issue 43), and ms
 * above the floor; the Worker/object split; and the suite's section of the JSON file (`ready`).
 */
import type { Json } from "../lib/mcp-http.ts";
import { objectTimeLines } from "./object-time.ts";
import { DEPENDENCIES, LAYOUTS, MEASURED_PLAN, OTHER_AGENTS, PLANS, TASKS_PER_PLAN, TICK } from "./ready-layout.ts";
import { CALL_LABELS, FLOOR_OF, LAYOUT_LABELS, LAYOUT_OF, PAGE, type ReadyOpName } from "./ready-measure.ts";
import type { ReadyResult } from "./ready-suite.ts";
import { fmtInt, fmtMs, pad, padEnd, TARGET_MAX_RATIO } from "./report.ts";
import type { OpSet } from "./sampling.ts";

export const READY_LAYOUT_TEXT =
  `${PLANS} plans of ${fmtInt(TASKS_PER_PLAN)} tasks, ${fmtInt(DEPENDENCIES)} dependencies (each task waits on 2 lower ids: one of the 300 before it ` +
  `in its plan, one of its plan's first 400 or, for a quarter of the tasks after the first plan, of an earlier plan), older tasks mostly DONE; ` +
  `restored through workspace_import {jsonl}; "queue": 5 % of the ready tasks taken by ${OTHER_AGENTS.join(", ")} (two on the first page, ` +
  `one on ${MEASURED_PLAN}'s), two by bench itself; "all taken": every TODO or ACTIVE task taken by another agent, claims expiring far above tick ${TICK}`;

/** Ops over the target, as `<layout>: <call>`. */
export function readyMisses(set: OpSet<ReadyOpName>, result: ReadyResult): string[] {
  return set.ops
    .filter((op) => op !== FLOOR_OF[LAYOUT_OF[op]] && result.ops[op].ratio_to_floor > TARGET_MAX_RATIO)
    .map((op) => `${set.labels[op]} ${result.ops[op].ratio_to_floor.toFixed(2)}`);
}

export function readyLines(result: ReadyResult, set: OpSet<ReadyOpName>): string[] {
  const c = result.layout;
  const out = ["", "== Ready suite ==", "", `Layout: ${READY_LAYOUT_TEXT}`, ""];
  out.push(
    `${fmtInt(c.tasks)} tasks: ${Object.entries(c.statuses)
      .map(([status, n]) => `${fmtInt(n)} ${status}`)
      .join(", ")}; ${fmtInt(c.cross_plan_dependencies)} dependencies across plans; ` +
      `${fmtInt(c.ready_for_nobody)} ready before claims, ${fmtInt(c.waiting)} waiting`,
    "",
    `${padEnd("layout", 12)}${pad("claims", 8)}${pad("ready for bench", 17)}${pad("lines", 8)}${pad("calls", 7)}${pad("restore s", 11)}${pad("walk pages", 12)}`,
  );
  for (const name of LAYOUTS) {
    const s = result.seeding[name];
    const walk = result.walk_pages[name];
    out.push(
      `${padEnd(LAYOUT_LABELS[name], 12)}${pad(fmtInt(c.claims[name]), 8)}${pad(fmtInt(c.ready_for_bench[name]), 17)}${pad(fmtInt(s.lines), 8)}` +
        `${pad(String(s.calls), 7)}${pad((s.ms / 1000).toFixed(1), 11)}${pad(`${walk.all} + ${walk.plan}`, 12)}`,
    );
  }
  const width = Math.max(...set.ops.map((op) => CALL_LABELS[op].length)) + 2;
  out.push(
    "",
    `Latency in ms; ratio = median / the ping median of the same layout's workspace (target ≤ ${TARGET_MAX_RATIO}); +ms = median − that ping's`,
    `${padEnd("layout", 12)}${padEnd("op", width)}${pad("median", 9)}${pad("p95", 9)}${pad("ratio", 8)}${pad("+ms", 8)}  target`,
  );
  for (const op of set.ops) {
    const stats = result.ops[op];
    const floor = op === FLOOR_OF[LAYOUT_OF[op]];
    const verdict = floor ? "floor" : stats.ratio_to_floor <= TARGET_MAX_RATIO ? "met" : "MISSED";
    out.push(
      `${padEnd(LAYOUT_LABELS[LAYOUT_OF[op]], 12)}${padEnd(CALL_LABELS[op], width)}${pad(fmtMs(stats.median_ms), 9)}${pad(fmtMs(stats.p95_ms), 9)}` +
        `${pad(stats.ratio_to_floor.toFixed(2), 8)}${pad(floor ? "—" : result.above_floor_ms[op].toFixed(2), 8)}  ${verdict}`,
    );
  }
  out.push("", ...objectTimeLines(set, [result], "tasks"));
  out.push("", `(first pages of ${PAGE}, the default limit; {plan} is ${MEASURED_PLAN}; every answer checked against the model)`);
  return out;
}

export function readyTargetLines(misses: string[]): string[] {
  return [`Ready: target ratio ≤ ${TARGET_MAX_RATIO} in both layouts: ${misses.length === 0 ? "met" : `MISSED (${misses.join("; ")})`}`];
}

export function readyJson(set: OpSet<ReadyOpName>, result: ReadyResult, misses: string[]): Json {
  return {
    config: {
      ops: set.labels,
      floors: FLOOR_OF,
      layout: READY_LAYOUT_TEXT,
      page_limit: PAGE,
      plan: MEASURED_PLAN,
      targets: { max_ratio_to_floor: TARGET_MAX_RATIO },
    },
    result,
    targets_met: { ratio: misses.length === 0, ratio_misses: misses },
  };
}
