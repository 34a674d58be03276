/**
 * The benchmark's verdicts and shared report pieces: the targets (ratio to the floor, growth from the
 * smallest to the largest size) for any suite's op set, the latency and growth tables, the notes
 * suite's seeding table, and the JSON file in `bench-results/`. Targets are reported, never asserted:
 * a miss changes the text, not the exit code. The other suites' own pieces are in their `*-report.ts`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Json } from "../lib/mcp-http.ts";
import { fmtInt, fmtMs, pad, padEnd } from "./format.ts";
import { CHAIN_NOTES_AFTER, CHAIN_NOTES_BEFORE, PAGE_LIMIT } from "./layout.ts";
import type { OpName } from "./measure.ts";
import type { ObjectTime } from "./object-time.ts";
import type { Options } from "./options.ts";
import type { OpResult, OpSet } from "./sampling.ts";
import type { Seeding } from "./seed.ts";

export { fmtInt, fmtMs, pad, padEnd } from "./format.ts";

export const TARGET_MAX_RATIO = 1.3;
export const TARGET_MAX_GROWTH = 1.2;

/** One size of any suite: its op results. */
export interface SuiteSize<Op extends string> {
  size: number;
  ops: Record<Op, OpResult>;
}

export interface SizeResult extends SuiteSize<OpName> {
  workspace: string;
  seeding: Seeding;
  /** Each op's Worker and object time per call, from the server's log. */
  object_time?: Record<OpName, ObjectTime>;
}

export interface Growth<Op extends string = string> {
  from_size: number;
  to_size: number;
  /** `ratio_growth`: growth of the op's ratio to the floor, i.e. its growth net of the floor's (machine drift). */
  ops: Record<Op, { from_ms: number; to_ms: number; growth: number; met: boolean | null; ratio_growth: number }>;
}

/** Targets missed, as `<op label> at <size>` (ratio) and `<op label>` (growth). */
export interface Misses {
  ratio: string[];
  growth: string[];
}

/** Growth of each op's median from the first (smallest) to the last (largest) size; none for one size. */
export function growthOf<Op extends string>(set: OpSet<Op>, results: SuiteSize<Op>[]): Growth<Op> | undefined {
  const first = results[0];
  const last = results[results.length - 1];
  if (first === undefined || last === undefined || results.length <= 1) return undefined;
  const growthOps = {} as Growth<Op>["ops"];
  for (const op of set.ops) {
    const from = first.ops[op].median_ms;
    const to = last.ops[op].median_ms;
    growthOps[op] = {
      from_ms: from,
      to_ms: to,
      growth: to / from,
      met: set.reference.includes(op) ? null : to / from <= TARGET_MAX_GROWTH,
      ratio_growth: last.ops[op].ratio_to_floor / first.ops[op].ratio_to_floor,
    };
  }
  return { from_size: first.size, to_size: last.size, ops: growthOps };
}

export function targetMisses<Op extends string>(set: OpSet<Op>, results: SuiteSize<Op>[], growth: Growth<Op> | undefined): Misses {
  const measured = set.ops.filter((op) => op !== set.floor && !set.reference.includes(op));
  const ratio = results.flatMap((result) =>
    measured.filter((op) => result.ops[op].ratio_to_floor > TARGET_MAX_RATIO).map((op) => `${set.labels[op]} at ${fmtInt(result.size)}`),
  );
  const growthMisses = growth === undefined ? [] : set.ops.filter((op) => growth.ops[op].met === false).map((op) => set.labels[op]);
  return { ratio, growth: growthMisses };
}

/** The `targets_met` block of a suite's JSON report: each target met or not, and what missed it. */
export function targetsMetJson(misses: Misses, growth: Growth | undefined) {
  return {
    ratio: misses.ratio.length === 0,
    ratio_misses: misses.ratio,
    growth: growth === undefined ? null : misses.growth.length === 0,
    growth_misses: misses.growth,
  };
}

const labelWidth = <Op extends string>(set: OpSet<Op>): number => Math.max(16, ...set.ops.map((op) => set.labels[op].length + 2));

/** Latency table: one row per size and op, with the ratio to the floor and its verdict. */
export function latencyLines<Op extends string>(set: OpSet<Op>, results: SuiteSize<Op>[]): string[] {
  const width = labelWidth(set);
  const out = [`Latency in ms; ratio = median / ping median at the same size (target ≤ ${TARGET_MAX_RATIO})`];
  out.push(`${padEnd("size", 10)}${padEnd("op", width)}${pad("median", 9)}${pad("p95", 9)}${pad("ratio", 8)}  target`);
  for (const result of results) {
    for (const op of set.ops) {
      const r = result.ops[op];
      const verdict =
        op === set.floor ? "floor" : set.reference.includes(op) ? "reference" : r.ratio_to_floor <= TARGET_MAX_RATIO ? "met" : "MISSED";
      out.push(
        `${padEnd(fmtInt(result.size), 10)}${padEnd(set.labels[op], width)}${pad(fmtMs(r.median_ms), 9)}${pad(fmtMs(r.p95_ms), 9)}` +
          `${pad(r.ratio_to_floor.toFixed(2), 8)}  ${verdict}`,
      );
    }
  }
  return out;
}

/** Growth table: each op's median per size and its growth; `defined` is the size range the target is defined for. */
export function growthLines<Op extends string>(
  set: OpSet<Op>,
  results: SuiteSize<Op>[],
  growth: Growth<Op> | undefined,
  unit: string,
  defined: [number, number],
): string[] {
  if (growth === undefined) return ["Growth: needs at least two sizes."];
  const width = labelWidth(set);
  const exact = growth.from_size === defined[0] && growth.to_size === defined[1];
  const out = [
    `Growth of medians from ${fmtInt(growth.from_size)} to ${fmtInt(growth.to_size)} ${unit} (target ≤ ${TARGET_MAX_GROWTH}×` +
      `${exact ? "" : `; the target is defined for ${fmtInt(defined[0])} → ${fmtInt(defined[1])}`})`,
  ];
  out.push("(net = growth of the ratio to the floor: the op's growth net of the floor's, e.g. of machine drift; not a target)");
  out.push(
    `${padEnd("op", width)}${results.map((result) => pad(fmtInt(result.size), 10)).join("")}${pad("growth", 9)}${pad("net", 8)}  target`,
  );
  for (const op of set.ops) {
    const cells = results.map((result) => pad(fmtMs(result.ops[op].median_ms), 10)).join("");
    const g = growth.ops[op];
    const verdict = g.met === null ? "reference" : g.met ? "met" : "MISSED";
    out.push(
      `${padEnd(set.labels[op], width)}${cells}${pad(`${g.growth.toFixed(2)}×`, 9)}${pad(`${g.ratio_growth.toFixed(2)}×`, 8)}  ${verdict}`,
    );
  }
  return out;
}

export function targetLines(suite: string, misses: Misses, growth: Growth | undefined): string[] {
  return [
    `${suite}: target ratio ≤ ${TARGET_MAX_RATIO}: ${misses.ratio.length === 0 ? "met" : `MISSED (${misses.ratio.join("; ")})`}`,
    `${suite}: target growth ≤ ${TARGET_MAX_GROWTH}×: ${growth === undefined ? "not measured (one size)" : misses.growth.length === 0 ? "met" : `MISSED (${misses.growth.join("; ")})`}`,
  ];
}

/** The run's header: machine, sampling, load. */
export function headerLines(machine: Json, options: Options): string[] {
  return [
    "",
    `BranchMind benchmark: local wrangler dev (workerd, its local dev tools ${options.wranglerDevTools ? "on" : "off"}), ${String(machine.cpus)} CPUs, ${String(machine.cpu_model)}`,
    `samples ${options.samples} per op per size, warmup ${options.warmup} rounds; latency = client fetch + body read`,
    `load average (1/5/15 min) at start ${String(machine.load_average_start)}, at end ${String(machine.load_average_end)}`,
    `code: commit ${String(machine.commit)}${Array.isArray(machine.uncommitted_files) && machine.uncommitted_files.length > 0 ? ` plus uncommitted changes to ${machine.uncommitted_files.length} files (listed in the JSON)` : ""}`,
  ];
}

/** The notes suite's tables. */
export function notesLines(results: SizeResult[], growth: Growth<OpName> | undefined, set: OpSet<OpName>): string[] {
  const out = ["", "== Notes suite ==", "", "Seeding (workspace_import, ≤ 2000 ops per call)"];
  out.push(`${padEnd("size", 10)}${pad("notes", 10)}${pad("branches", 10)}${pad("calls", 7)}${pad("time s", 10)}${pad("notes/s", 10)}`);
  for (const result of results) {
    const s = result.seeding;
    out.push(
      `${padEnd(fmtInt(result.size), 10)}${pad(fmtInt(s.notes), 10)}${pad(String(s.branches), 10)}${pad(String(s.calls), 7)}` +
        `${pad((s.ms / 1000).toFixed(1), 10)}${pad(fmtInt(Math.round(s.notes_per_s)), 10)}`,
    );
  }
  out.push("", ...latencyLines(set, results), "", ...growthLines(set, results, growth, "notes", [1_000, 100_000]));
  return out;
}

export interface RunRecord {
  startedAt: Date;
  finishedAt: Date;
  machine: Json;
  options: Options;
  labels: Record<OpName, string>;
  serverReadyMs: number;
  /** The notes suite: empty results and no growth or misses when it did not run. */
  results: SizeResult[];
  growth: Growth<OpName> | undefined;
  misses: Misses | undefined;
  /** The graph suite's section (`graphJson`), or null when it did not run. */
  graph: Json | null;
  /** The packs suite's section (`packsJson`), or null when it did not run. */
  packs: Json | null;
  /** The portals suite's section (`portalsJson`), or null when it did not run. */
  portals: Json | null;
  /** The records suite's section (`recordsJson`), or null when it did not run. */
  records: Json | null;
  /** The common suite's section (`commonJson`), or null when it did not run. */
  common: Json | null;
  /** The answers suite's section (`answersJson`), or null when it did not run. */
  answers: Json | null;
  /** The cards suite's section (`cardsJson`), or null when it did not run. */
  cards: Json | null;
  /** The ready suite's section (`readyJson`), or null when it did not run. */
  ready: Json | null;
  /** The frontier suite's section (`frontierJson`), or null when it did not run. */
  frontier: Json | null;
}

/** The JSON document of a run (its field order is the file format: keep it stable; new fields go last). */
export function jsonReport(run: RunRecord): Json {
  const { startedAt, finishedAt, options, growth, misses } = run;
  return {
    benchmark: "branchmind-workers/bench",
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_s: Math.round((finishedAt.getTime() - startedAt.getTime()) / 100) / 10,
    machine: run.machine,
    config: {
      sizes: options.sizes,
      samples: options.samples,
      warmup_rounds: options.warmup,
      page_limit: PAGE_LIMIT,
      ops: run.labels,
      layout: {
        chain_depths_measured: options.depths,
        chain_notes_before_next_branch: CHAIN_NOTES_BEFORE,
        chain_notes_after_chain: CHAIN_NOTES_AFTER,
        main_notes_after_each_branch: "floor(size / 100)",
        content_chars: "100-200",
      },
      server_ready_s: Math.round(run.serverReadyMs / 100) / 10,
      suites: options.suites,
      wrangler_dev_tools: options.wranglerDevTools,
    },
    targets: { max_ratio_to_floor: TARGET_MAX_RATIO, max_growth: TARGET_MAX_GROWTH },
    results: run.results,
    growth: growth ?? null,
    targets_met: misses === undefined ? null : targetsMetJson(misses, growth),
    graph: run.graph,
    packs: run.packs,
    portals: run.portals,
    records: run.records,
    common: run.common,
    answers: run.answers,
    cards: run.cards,
    ready: run.ready,
    frontier: run.frontier,
  };
}

/** Writes `report` to `<root>/bench-results/<prefix>-<start time>.json`; returns the path relative to `root`. */
export function writeJsonReport(root: string, startedAt: Date, report: Json, prefix = "bench"): string {
  const folder = join(root, "bench-results");
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${prefix}-${startedAt.toISOString().replaceAll(":", "-").replace(".", "-")}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return `bench-results/${file.slice(folder.length + 1)}`;
}
