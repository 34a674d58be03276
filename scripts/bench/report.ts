/**
 * The benchmark's verdicts and outputs: the targets (ratio to the floor, growth from the smallest to
 * the largest size), the human-readable tables on stdout, and the JSON file in `bench-results/`.
 * Targets are reported, never asserted: a miss changes the text, not the exit code.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Json } from "../lib/mcp-http.ts";
import { CHAIN_NOTES_AFTER, CHAIN_NOTES_BEFORE, PAGE_LIMIT } from "./layout.ts";
import { FLOOR, OPS, type OpName, type OpResult, REFERENCE } from "./measure.ts";
import type { Options } from "./options.ts";
import type { Seeding } from "./seed.ts";

export const TARGET_MAX_RATIO = 1.3;
export const TARGET_MAX_GROWTH = 1.2;

export interface SizeResult {
  size: number;
  workspace: string;
  seeding: Seeding;
  ops: Record<OpName, OpResult>;
}

export interface Growth {
  from_size: number;
  to_size: number;
  ops: Record<OpName, { from_ms: number; to_ms: number; growth: number; met: boolean | null }>;
}

/** Targets missed, as `<op label> at <size>` (ratio) and `<op label>` (growth). */
export interface Misses {
  ratio: string[];
  growth: string[];
}

export const fmtInt = (value: number): string => value.toLocaleString("en-US");
const fmtMs = (value: number): string => value.toFixed(2);
const pad = (text: string, width: number): string => text.padStart(width);
const padEnd = (text: string, width: number): string => text.padEnd(width);

/** Growth of each op's median from the first (smallest) to the last (largest) size; none for one size. */
export function growthOf(results: SizeResult[]): Growth | undefined {
  const first = results[0];
  const last = results[results.length - 1];
  if (first === undefined || last === undefined || results.length <= 1) return undefined;
  const growthOps = {} as Growth["ops"];
  for (const op of OPS) {
    const from = first.ops[op].median_ms;
    const to = last.ops[op].median_ms;
    growthOps[op] = { from_ms: from, to_ms: to, growth: to / from, met: op === REFERENCE ? null : to / from <= TARGET_MAX_GROWTH };
  }
  return { from_size: first.size, to_size: last.size, ops: growthOps };
}

export function targetMisses(results: SizeResult[], growth: Growth | undefined, labels: Record<OpName, string>): Misses {
  const ratio = results.flatMap((result) =>
    OPS.filter((op) => op !== FLOOR && op !== REFERENCE && result.ops[op].ratio_to_floor > TARGET_MAX_RATIO).map(
      (op) => `${labels[op]} at ${fmtInt(result.size)}`,
    ),
  );
  const growthMisses = growth === undefined ? [] : OPS.filter((op) => growth.ops[op].met === false).map((op) => labels[op]);
  return { ratio, growth: growthMisses };
}

export function printReport(
  results: SizeResult[],
  growth: Growth | undefined,
  machine: Json,
  options: Options,
  labels: Record<OpName, string>,
): void {
  const out: string[] = [];
  out.push("");
  out.push(`BranchMind benchmark: local wrangler dev (workerd), ${String(machine.cpus)} CPUs, ${String(machine.cpu_model)}`);
  out.push(`samples ${options.samples} per op per size, warmup ${options.warmup} rounds; latency = client fetch + body read`);
  out.push(`load average (1/5/15 min) at start ${String(machine.load_average_start)}, at end ${String(machine.load_average_end)}`);
  out.push("");
  out.push("Seeding (workspace_import, ≤ 2000 ops per call)");
  out.push(`${padEnd("size", 10)}${pad("notes", 10)}${pad("branches", 10)}${pad("calls", 7)}${pad("time s", 10)}${pad("notes/s", 10)}`);
  for (const result of results) {
    const s = result.seeding;
    out.push(
      `${padEnd(fmtInt(result.size), 10)}${pad(fmtInt(s.notes), 10)}${pad(String(s.branches), 10)}${pad(String(s.calls), 7)}` +
        `${pad((s.ms / 1000).toFixed(1), 10)}${pad(fmtInt(Math.round(s.notes_per_s)), 10)}`,
    );
  }
  out.push("");
  out.push(`Latency in ms; ratio = median / ping median at the same size (target ≤ ${TARGET_MAX_RATIO})`);
  out.push(`${padEnd("size", 10)}${padEnd("op", 16)}${pad("median", 9)}${pad("p95", 9)}${pad("ratio", 8)}  target`);
  for (const result of results) {
    for (const op of OPS) {
      const r = result.ops[op];
      const verdict = op === FLOOR ? "floor" : op === REFERENCE ? "reference" : r.ratio_to_floor <= TARGET_MAX_RATIO ? "met" : "MISSED";
      out.push(
        `${padEnd(fmtInt(result.size), 10)}${padEnd(labels[op], 16)}${pad(fmtMs(r.median_ms), 9)}${pad(fmtMs(r.p95_ms), 9)}` +
          `${pad(r.ratio_to_floor.toFixed(2), 8)}  ${verdict}`,
      );
    }
  }
  out.push("");
  if (growth === undefined) {
    out.push("Growth: needs at least two sizes.");
  } else {
    out.push(
      `Growth of medians from ${fmtInt(growth.from_size)} to ${fmtInt(growth.to_size)} notes (target ≤ ${TARGET_MAX_GROWTH}×` +
        `${growth.from_size === 1_000 && growth.to_size === 100_000 ? "" : "; the target is defined for 1,000 → 100,000"})`,
    );
    const header = results.map((result) => pad(fmtInt(result.size), 10)).join("");
    out.push(`${padEnd("op", 16)}${header}${pad("growth", 9)}  target`);
    for (const op of OPS) {
      const cells = results.map((result) => pad(fmtMs(result.ops[op].median_ms), 10)).join("");
      const g = growth.ops[op];
      const verdict = g.met === null ? "reference" : g.met ? "met" : "MISSED";
      out.push(`${padEnd(labels[op], 16)}${cells}${pad(`${g.growth.toFixed(2)}×`, 9)}  ${verdict}`);
    }
  }
  out.push("");
  console.log(out.join("\n"));
}

export function printTargets(misses: Misses, growth: Growth | undefined): void {
  console.log(
    `Target ratio ≤ ${TARGET_MAX_RATIO}: ${misses.ratio.length === 0 ? "met" : `MISSED (${misses.ratio.join("; ")})`}\n` +
      `Target growth ≤ ${TARGET_MAX_GROWTH}×: ${growth === undefined ? "not measured (one size)" : misses.growth.length === 0 ? "met" : `MISSED (${misses.growth.join("; ")})`}`,
  );
}

export interface RunRecord {
  startedAt: Date;
  finishedAt: Date;
  machine: Json;
  options: Options;
  labels: Record<OpName, string>;
  serverReadyMs: number;
  results: SizeResult[];
  growth: Growth | undefined;
  misses: Misses;
}

/** The JSON document of a run (its field order is the file format: keep it stable). */
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
      ops: Object.fromEntries(OPS.map((op) => [op, run.labels[op]])),
      layout: {
        chain_depth: options.chainDepth,
        chain_notes_before_next_branch: CHAIN_NOTES_BEFORE,
        chain_notes_after_chain: CHAIN_NOTES_AFTER,
        main_notes_after_each_branch: "floor(size / 100)",
        content_chars: "100-200",
      },
      server_ready_s: Math.round(run.serverReadyMs / 100) / 10,
    },
    targets: { max_ratio_to_floor: TARGET_MAX_RATIO, max_growth: TARGET_MAX_GROWTH },
    results: run.results,
    growth: growth ?? null,
    targets_met: {
      ratio: misses.ratio.length === 0,
      ratio_misses: misses.ratio,
      growth: growth === undefined ? null : misses.growth.length === 0,
      growth_misses: misses.growth,
    },
  };
}

/** Writes `report` to `<root>/bench-results/bench-<start time>.json`; returns the path relative to `root`. */
export function writeJsonReport(root: string, startedAt: Date, report: Json): string {
  const folder = join(root, "bench-results");
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `bench-${startedAt.toISOString().replaceAll(":", "-").replace(".", "-")}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return `bench-results/${file.slice(folder.length + 1)}`;
}
