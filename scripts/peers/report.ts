/**
 * The peer benchmark's report: per size, every side's seeding, the latency table (median, p95,
 * samples), each side's median above its own floor with our median over each peer's, the
 * concurrent-write bursts; then, per peer, one table of the ratios across sizes; and the JSON
 * document for `bench-results/`. Sides are "ours" and the run's peers, in that order.
 */

import { fmtInt, fmtMs, pad, padEnd } from "../bench/report.ts";
import type { Json } from "../lib/mcp-http.ts";
import { OBSERVATIONS_PER_ENTITY, SEARCH_TERM } from "./entities.ts";
import type { PeerOptions } from "./options.ts";
import type { OpSummary, PeerSizeResult, SideSizeResult } from "./run.ts";
import { PEER_OPS, type PeerOp } from "./sampling.ts";
import type { PeerName, SideName } from "./side.ts";

export const OP_LABELS: Record<PeerOp, string> = {
  ping: "ping (floor)",
  write: "write one",
  open: "open one by id",
  search: "search, all hits",
};

/** Width of the first column (operation labels). */
const OP_WIDTH = 20;
/** Width of the side-name column of the seeding and burst lines. */
const NAME_WIDTH = 15;

/** The sides of a run, in report order: ours, then the peers. */
export function sidesOf(options: PeerOptions): SideName[] {
  return ["ours", ...options.peers];
}

/** Our median over `peer`'s for `op` at one size, when both measured it. */
export function ratioOf(result: PeerSizeResult, op: PeerOp, peer: PeerName): number | null {
  const ours = result.sides.ours?.ops?.[op];
  const theirs = result.sides[peer]?.ops?.[op];
  return ours === undefined || theirs === undefined ? null : ours.median_ms / theirs.median_ms;
}

/** A side's median of `op` above its own floor's median. */
function netOf(side: SideSizeResult | undefined, op: PeerOp): number | null {
  const value = side?.ops?.[op];
  const floor = side?.ops?.ping;
  return value === undefined || floor === undefined ? null : value.median_ms - floor.median_ms;
}

function cell(summary: OpSummary | undefined, medWidth: number): string {
  if (summary === undefined) return `${pad("—", medWidth)}${pad("—", 9)}${pad("—", 5)}`;
  const n = `${summary.n}${summary.stopped === "budget" ? "*" : summary.stopped === "timeout" ? "!" : ""}`;
  return `${pad(fmtMs(summary.median_ms), medWidth)}${pad(fmtMs(summary.p95_ms), 9)}${pad(n, 5)}`;
}

const maybe = (value: number | null, digits = 2): string => (value === null ? "—" : value.toFixed(digits));
const mb = (bytes: unknown): string | null => (typeof bytes === "number" ? `${(bytes / 1e6).toFixed(1)} MB` : null);

function seedingLines(result: PeerSizeResult, options: PeerOptions): string[] {
  const out = [`Seeding through each server's API (--seed-batch ${fmtInt(options.seedBatch)}; "batch" is what each side used)`];
  out.push(
    `${padEnd("side", NAME_WIDTH)}${pad("batch", 7)}${pad("items", 10)}${pad("calls", 7)}${pad("time s", 9)}${pad("items/s", 10)}` +
      `${pad("last call s", 13)}${pad("slowest s", 11)}`,
  );
  for (const name of sidesOf(options)) {
    const s = result.sides[name]?.seeding;
    if (s === undefined) continue;
    out.push(
      `${padEnd(name, NAME_WIDTH)}${pad(fmtInt(s.batch_size), 7)}${pad(fmtInt(s.items), 10)}${pad(String(s.calls), 7)}${pad((s.ms / 1000).toFixed(1), 9)}` +
        `${pad(fmtInt(Math.round(s.items_per_s)), 10)}${pad((s.last_call_ms / 1000).toFixed(2), 13)}${pad((s.max_call_ms / 1000).toFixed(2), 11)}` +
        `${s.complete ? "" : "  stopped at its time limit: not measured"}`,
    );
    if (s.direct_items > 0) {
      out.push(
        `${padEnd("", NAME_WIDTH)}then ${fmtInt(s.direct_items)} written straight into its file in ${(s.direct_ms / 1000).toFixed(1)} s ` +
          `(the ${options.seedBudgetMinutes}-minute seeding limit had run out)`,
      );
    }
  }
  const jsonl = mb(result.sides["server-memory"]?.facts.memory_file_bytes);
  if (jsonl !== null) out.push(`server-memory's JSONL file at the end: ${jsonl}`);
  const sqlite = mb(result.sides["memory-keeper"]?.facts.database_bytes);
  if (sqlite !== null) out.push(`memory-keeper's SQLite database (with its write-ahead log) at the end: ${sqlite}`);
  return out;
}

function latencyLines(result: PeerSizeResult, options: PeerOptions): string[] {
  const names = sidesOf(options);
  const medWidth = (name: string) => Math.max(9, name.length + 5);
  const out = [
    "Latency in ms (client-side, whole call); n* = stopped by the per-op time budget, n! = stopped by a call timeout",
    `${padEnd("op", OP_WIDTH)}${names.map((name) => `  |${pad(`${name} med`, medWidth(name))}${pad("p95", 9)}${pad("n", 5)}`).join("")}`,
  ];
  const measured = (op: PeerOp) => names.some((name) => result.sides[name]?.ops?.[op] !== undefined);
  for (const op of PEER_OPS) {
    if (!measured(op)) continue;
    out.push(
      `${padEnd(OP_LABELS[op], OP_WIDTH)}${names.map((name) => `  |${cell(result.sides[name]?.ops?.[op], medWidth(name))}`).join("")}`,
    );
  }
  const netWidth = (name: string) => Math.max(10, name.length + 6);
  const ratioWidth = (peer: string) => peer.length + 10;
  out.push(
    "",
    "net = median minus the same side's ping median; ours / <peer> = our median / that peer's median (below 1: we are faster)",
    `${padEnd("op", OP_WIDTH)}${names.map((name) => pad(`${name} net`, netWidth(name))).join("")}  |` +
      `${options.peers.map((peer) => pad(`ours / ${peer}`, ratioWidth(peer))).join("")}`,
  );
  for (const op of PEER_OPS) {
    if (!measured(op)) continue;
    const nets = names.map((name) => pad(op === "ping" ? "—" : maybe(netOf(result.sides[name], op)), netWidth(name))).join("");
    const ratios = options.peers.map((peer) => pad(maybe(ratioOf(result, op, peer)), ratioWidth(peer))).join("");
    out.push(`${padEnd(OP_LABELS[op], OP_WIDTH)}${nets}  |${ratios}`);
  }
  const calls = names.flatMap((name) => {
    const search = result.sides[name]?.ops?.search;
    return search === undefined ? [] : [`${name} ${search.calls_median}`];
  });
  if (calls.length > 0) {
    out.push(`calls per complete search (median; each side follows its pagination until the answer is complete): ${calls.join(", ")}`);
  }
  for (const name of names) {
    const timeout = result.sides[name]?.timeout ?? null;
    if (timeout !== null) out.push(`${name}: measuring stopped: ${timeout}`);
  }
  return out;
}

function burstLines(result: PeerSizeResult, options: PeerOptions): string[] {
  const out = [`Concurrent writes (${options.burst} distinct entities fired at once, then read back), per round: kept / acknowledged`];
  for (const name of sidesOf(options)) {
    const bursts = result.sides[name]?.bursts ?? [];
    if (bursts.length === 0) {
      out.push(`${padEnd(name, NAME_WIDTH)}not measured`);
      continue;
    }
    const rounds = bursts.map((b) => `${b.kept}/${b.acked}`).join(", ");
    const kept = bursts.reduce((sum, b) => sum + b.kept, 0);
    const fired = bursts.reduce((sum, b) => sum + b.fired, 0);
    const ms = bursts.map((b) => b.ms.toFixed(0)).join(", ");
    out.push(`${padEnd(name, NAME_WIDTH)}${rounds}  (kept ${kept} of ${fired}; burst wall time ${ms} ms)`);
    for (const error of bursts.flatMap((b) => b.errors).slice(0, 3)) out.push(`${padEnd("", NAME_WIDTH)}error: ${error.slice(0, 200)}`);
  }
  return out;
}

/** The run's tables, for stdout. */
export function peerLines(
  machine: Json,
  options: PeerOptions,
  results: PeerSizeResult[],
  descriptions: Partial<Record<SideName, string>>,
): string[] {
  const out = [
    "",
    `Peer benchmark: ${String(machine.cpus)} CPUs, ${String(machine.cpu_model)}; load average (1/5/15 min) at start ${String(machine.load_average_start)}, at end ${String(machine.load_average_end)}`,
    ...sidesOf(options).map((name) => `${padEnd(`${name}:`, NAME_WIDTH)}${descriptions[name] ?? ""}`),
    `samples ${options.samples} per op per size per side, warmup ${options.warmup} rounds, sides interleaved; ` +
      `search term "${SEARCH_TERM}" in ${options.hits} entities`,
  ];
  for (const result of results) {
    out.push("", `== ${fmtInt(result.size)} entities ==`, "", ...seedingLines(result, options), "", ...latencyLines(result, options));
    out.push("", ...burstLines(result, options));
  }
  for (const peer of options.peers) {
    out.push("", `Our median / ${peer} median, by size`);
    out.push(`${padEnd("op", OP_WIDTH)}${results.map((r) => pad(fmtInt(r.size), 10)).join("")}`);
    for (const op of PEER_OPS) {
      out.push(`${padEnd(OP_LABELS[op], OP_WIDTH)}${results.map((r) => pad(maybe(ratioOf(r, op, peer)), 10)).join("")}`);
    }
  }
  const keptOf = (result: PeerSizeResult, name: SideName): string => {
    const bursts = result.sides[name]?.bursts ?? [];
    return bursts.length === 0 ? "—" : `${bursts.reduce((sum, b) => sum + b.kept, 0)}/${bursts.reduce((sum, b) => sum + b.fired, 0)}`;
  };
  out.push("", `Concurrent writes kept, by size`);
  out.push(`${padEnd("side", OP_WIDTH)}${results.map((r) => pad(fmtInt(r.size), 10)).join("")}`);
  for (const name of sidesOf(options)) {
    out.push(`${padEnd(name, OP_WIDTH)}${results.map((r) => pad(keptOf(r, name), 10)).join("")}`);
  }
  return out;
}

export interface PeerRun {
  startedAt: Date;
  finishedAt: Date;
  machine: Json;
  options: PeerOptions;
  /** One line per side of the run: "ours" and each peer. */
  descriptions: Partial<Record<SideName, string>>;
  serverReadyMs: number;
  /** 1-, 5- and 15-minute load averages when each size started and ended. */
  loadBySize: { size: number; start: number[]; end: number[] }[];
  results: PeerSizeResult[];
}

/**
 * The JSON document of a run (new fields go last). `sides` and each result's `sides` are keyed by side
 * name ("ours", "server-memory", "memory-keeper"); `ratios` keeps its meaning from the one-peer runs
 * (our median over server-memory's, null where it did not run), and `ratios_by_peer` has ours over
 * each peer's.
 */
export function peerJson(run: PeerRun): Json {
  const { peers, ...options } = run.options;
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
      entity:
        `name entity-<7 digits>, one of 6 types, ${OBSERVATIONS_PER_ENTITY} observations of 7 words; ` +
        "ours: a graph node (id = name, type, text = observations joined by newlines); " +
        "memory-keeper: a context item (key = name, value = observations joined by newlines, channel = type, category note)",
      timing: "client-side wall time around the whole call (request, server work, reply parsed)",
      server_ready_s: Math.round(run.serverReadyMs / 100) / 10,
      peers,
    },
    sides: run.descriptions,
    load_by_size: run.loadBySize,
    results: run.results.map((result) => ({
      ...result,
      ratios: Object.fromEntries(PEER_OPS.map((op) => [op, ratioOf(result, op, "server-memory")])),
      ratios_by_peer: Object.fromEntries(
        peers.map((peer) => [peer, Object.fromEntries(PEER_OPS.map((op) => [op, ratioOf(result, op, peer)]))]),
      ),
    })),
  };
}
