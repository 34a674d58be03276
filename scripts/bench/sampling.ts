/**
 * How every suite samples latency: a set of ops (one of them the floor, some shown for reference
 * only), rounds of one call per op with the order rotated each round so no op always follows the
 * same one, and the per-op summary (stats and ratio to the floor) of the samples. Suites supply the
 * ops and the call behind each; this module knows nothing about notes or graphs.
 */
import type { Call } from "../lib/mcp-http.ts";
import { type Stats, statsOf } from "./stats.ts";

/** The ops of a suite, in report order. */
export interface OpSet<Op extends string> {
  ops: readonly Op[];
  /** The no-op call every ratio is taken against. */
  floor: Op;
  /** Ops shown for reference, outside the targets. */
  reference: readonly Op[];
  labels: Record<Op, string>;
}

export interface OpResult extends Stats {
  ratio_to_floor: number;
  samples_ms: number[];
}

/** The calls of a sampling, in the order they were made (warm-up included). */
export type CallOrder<Op extends string> = { op: Op; round: number }[];

/**
 * Rounds of one call per op, the order rotated each round; the first `warmup` rounds are not kept.
 * Each call is appended to `order` when given (to pair the calls with the server's log lines).
 */
export async function sampleRounds<Op extends string>(
  ops: readonly Op[],
  call: (op: Op, round: number) => Promise<Call>,
  warmup: number,
  samples: number,
  order?: CallOrder<Op>,
): Promise<Record<Op, number[]>> {
  const times = Object.fromEntries(ops.map((op) => [op, [] as number[]])) as Record<Op, number[]>;
  for (let round = 0; round < warmup + samples; round++) {
    for (let k = 0; k < ops.length; k++) {
      const op = ops[(round + k) % ops.length] as Op;
      order?.push({ op, round });
      const { ms } = await call(op, round);
      if (round >= warmup) times[op].push(ms);
    }
  }
  return times;
}

/** Stats per op, each median's ratio to the floor's, and the samples rounded to microseconds. */
export function summarize<Op extends string>(set: OpSet<Op>, times: Record<Op, number[]>): Record<Op, OpResult> {
  const floor = statsOf(times[set.floor]).median_ms;
  const ops = {} as Record<Op, OpResult>;
  for (const op of set.ops) {
    const stats = statsOf(times[op]);
    ops[op] = { ...stats, ratio_to_floor: stats.median_ms / floor, samples_ms: times[op].map((ms) => Math.round(ms * 1000) / 1000) };
  }
  return ops;
}
