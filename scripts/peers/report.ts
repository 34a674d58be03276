/**
 * The peer benchmark's report: per size, both sides' seeding, the latency table (median, p95, samples,
 * each side's median above its own floor, and our median over theirs), the concurrent-write bursts;
 * then one table of the ratios across sizes; and the JSON document for `bench-results/`.
 */

import { fmtInt, fmtMs, pad, padEnd } from "../bench/report.ts";
import type { Json } from "../lib/mcp-http.ts";
import { OBSERVATIONS_PER_ENTITY, SEARCH_TERM } from "./entities.ts";
import type { PeerOptions } from "./options.ts";
import type { OpSummary, PeerSizeResult, SideSizeResult } from "./run.ts";
import { PEER_OPS, type PeerOp } from "./sampling.ts";
import type { SideName } from "./side.ts";

export const OP_LABELS: Record<PeerOp, string> = {
  ping: "ping (floor)",
  write: "write one",
  open: "open one by id",
  search: "search, all hits",
};

const SIDES: readonly SideName[] = ["ours", "theirs"];

/** Our median over theirs for `op` at one size, when both sides measured it. */
export function ratioOf(result: PeerSizeResult, op: PeerOp): number | null {
  const ours = result.sides.ours.ops?.[op];
  const theirs = result.sides.theirs.ops?.[op];
  return ours === undefined || theirs === undefined ? null : ours.median_ms / theirs.median_ms;
}

/** A side's median of `op` above its own floor's median. */
function netOf(side: SideSizeResult, op: PeerOp): number | null {
  const value = side.ops?.[op];
  const floor = side.ops?.ping;
  return value === undefined || floor === undefined ? null : value.median_ms - floor.median_ms;
}

function cell(summary: OpSummary | undefined): string {
  if (summary === undefined) return `${pad("—", 9)}${pad("—", 9)}${pad("—", 5)}`;
  const n = `${summary.n}${summary.stopped === "budget" ? "*" : summary.stopped === "timeout" ? "!" : ""}`;
  return `${pad(fmtMs(summary.median_ms), 9)}${pad(fmtMs(summary.p95_ms), 9)}${pad(n, 5)}`;
}

const maybe = (value: number | null, digits = 2): string => (value === null ? "—" : value.toFixed(digits));

function seedingLines(result: PeerSizeResult, options: PeerOptions): string[] {
  const out = [`Seeding through each server's API (batches of ${fmtInt(options.seedBatch)} entities)`];
  out.push(
    `${padEnd("side", 8)}${pad("items", 10)}${pad("calls", 7)}${pad("time s", 9)}${pad("items/s", 10)}${pad("last call s", 13)}${pad("slowest s", 11)}`,
  );
  for (const name of SIDES) {
    const s = result.sides[name].seeding;
    out.push(
      `${padEnd(name, 8)}${pad(fmtInt(s.items), 10)}${pad(String(s.calls), 7)}${pad((s.ms / 1000).toFixed(1), 9)}` +
        `${pad(fmtInt(Math.round(s.items_per_s)), 10)}${pad((s.last_call_ms / 1000).toFixed(2), 13)}${pad((s.max_call_ms / 1000).toFixed(2), 11)}` +
        `${s.complete ? "" : "  stopped at its time limit: not measured"}`,
    );
    if (s.direct_items > 0) {
      out.push(
        `${padEnd("", 8)}then ${fmtInt(s.direct_items)} written straight into its file in ${(s.direct_ms / 1000).toFixed(1)} s ` +
          `(the ${options.seedBudgetMinutes}-minute seeding limit had run out)`,
      );
    }
  }
  const bytes = result.sides.theirs.facts.memory_file_bytes;
  if (typeof bytes === "number") out.push(`their JSONL file at the end: ${(bytes / 1e6).toFixed(1)} MB`);
  return out;
}

function latencyLines(result: PeerSizeResult): string[] {
  const { ours, theirs } = result.sides;
  const out = [
    "Latency in ms (client-side, whole call); n* = stopped by the per-op time budget, n! = stopped by a call timeout;",
    "net = median minus the same side's ping median; ratio = our median / their median",
    `${padEnd("op", 20)}${pad("ours med", 9)}${pad("p95", 9)}${pad("n", 5)}  |${pad("theirs med", 11)}${pad("p95", 9)}${pad("n", 5)}  |` +
      `${pad("ours net", 10)}${pad("their net", 10)}${pad("ratio", 8)}`,
  ];
  for (const op of PEER_OPS) {
    if (ours.ops?.[op] === undefined && theirs.ops?.[op] === undefined) continue;
    out.push(
      `${padEnd(OP_LABELS[op], 20)}${cell(ours.ops?.[op])}  |  ${cell(theirs.ops?.[op])}  |` +
        `${pad(op === "ping" ? "—" : maybe(netOf(ours, op)), 10)}${pad(op === "ping" ? "—" : maybe(netOf(theirs, op)), 10)}${pad(maybe(ratioOf(result, op)), 8)}`,
    );
  }
  const search = ours.ops?.search;
  if (search !== undefined) {
    out.push(
      `our complete search took ${search.calls_median} call${search.calls_median === 1 ? "" : "s"} (median; graph_query follows next_cursor until has_more is false)`,
    );
  }
  for (const name of SIDES) {
    const timeout = result.sides[name].timeout;
    if (timeout !== null) out.push(`${name}: measuring stopped: ${timeout}`);
  }
  return out;
}

function burstLines(result: PeerSizeResult, options: PeerOptions): string[] {
  const out = [`Concurrent writes (${options.burst} distinct entities fired at once, then read back), per round: kept / acknowledged`];
  for (const name of SIDES) {
    const bursts = result.sides[name].bursts;
    if (bursts.length === 0) {
      out.push(`${padEnd(name, 8)}not measured`);
      continue;
    }
    const rounds = bursts.map((b) => `${b.kept}/${b.acked}`).join(", ");
    const kept = bursts.reduce((sum, b) => sum + b.kept, 0);
    const fired = bursts.reduce((sum, b) => sum + b.fired, 0);
    const ms = bursts.map((b) => b.ms.toFixed(0)).join(", ");
    out.push(`${padEnd(name, 8)}${rounds}  (kept ${kept} of ${fired}; burst wall time ${ms} ms)`);
    for (const error of bursts.flatMap((b) => b.errors).slice(0, 3)) out.push(`${padEnd("", 8)}error: ${error.slice(0, 200)}`);
  }
  return out;
}

/** The run's tables, for stdout. */
export function peerLines(
  machine: Json,
  options: PeerOptions,
  results: PeerSizeResult[],
  descriptions: Record<SideName, string>,
): string[] {
  const out = [
    "",
    `Peer benchmark: ${String(machine.cpus)} CPUs, ${String(machine.cpu_model)}; load average (1/5/15 min) at start ${String(machine.load_average_start)}, at end ${String(machine.load_average_end)}`,
    `ours:   ${descriptions.ours}`,
    `theirs: ${descriptions.theirs}`,
    `samples ${options.samples} per op per size per side, warmup ${options.warmup} rounds, sides interleaved; ` +
      `search term "${SEARCH_TERM}" in ${options.hits} entities`,
  ];
  for (const result of results) {
    out.push("", `== ${fmtInt(result.size)} entities ==`, "", ...seedingLines(result, options), "", ...latencyLines(result));
    out.push("", ...burstLines(result, options));
  }
  out.push("", "Our median / their median, by size");
  out.push(`${padEnd("op", 20)}${results.map((r) => pad(fmtInt(r.size), 10)).join("")}`);
  for (const op of PEER_OPS) {
    out.push(`${padEnd(OP_LABELS[op], 20)}${results.map((r) => pad(maybe(ratioOf(r, op)), 10)).join("")}`);
  }
  const keptOf = (result: PeerSizeResult, name: SideName): string => {
    const bursts = result.sides[name].bursts;
    return bursts.length === 0 ? "—" : `${bursts.reduce((sum, b) => sum + b.kept, 0)}/${bursts.reduce((sum, b) => sum + b.fired, 0)}`;
  };
  for (const name of SIDES) {
    out.push(`${padEnd(`concurrent, ${name} kept`, 20)}${results.map((r) => pad(keptOf(r, name), 10)).join("")}`);
  }
  return out;
}

export interface PeerRun {
  startedAt: Date;
  finishedAt: Date;
  machine: Json;
  options: PeerOptions;
  descriptions: Record<SideName, string>;
  serverReadyMs: number;
  /** 1-, 5- and 15-minute load averages when each size started and ended. */
  loadBySize: { size: number; start: number[]; end: number[] }[];
  results: PeerSizeResult[];
}

/** The JSON document of a run (new fields go last). */
export function peerJson(run: PeerRun): Json {
  const { options } = run;
  return {
    benchmark: "branchmind-workers/bench-peers",
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt.toISOString(),
    duration_s: Math.round((run.finishedAt.getTime() - run.startedAt.getTime()) / 100) / 10,
    machine: run.machine,
    config: {
      ...options,
      ops: OP_LABELS,
      search_term: SEARCH_TERM,
      entity: `name entity-<7 digits>, one of 6 types, ${OBSERVATIONS_PER_ENTITY} observations of 7 words; ours: a graph node (id = name, type, text = observations joined by newlines)`,
      timing: "client-side wall time around the whole call (request, server work, reply parsed)",
      server_ready_s: Math.round(run.serverReadyMs / 100) / 10,
    },
    sides: run.descriptions,
    load_by_size: run.loadBySize,
    results: run.results.map((result) => ({
      ...result,
      ratios: Object.fromEntries(PEER_OPS.map((op) => [op, ratioOf(result, op)])),
    })),
  };
}
