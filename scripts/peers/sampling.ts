/**
 * How the peer benchmark samples: rounds in which each side makes one call per op, the sides
 * interleaved (the order of the sides rotates each round, so each goes first in turn; with two sides
 * that alternates) so that the machine's drift during a run falls on all alike, and the order of the
 * ops rotated each round. Bounded per op: once an op
 * of a side has spent `budgetMs` (warm-up included) and kept at least `MIN_CAPPED_SAMPLES` samples,
 * that op stops and is reported as capped. A call that times out stops the whole side for the size.
 * Any other failure (an error answer, a wrong answer) stops the run.
 */
import { CallTimeoutError, type SideName } from "./side.ts";

export const PEER_OPS = ["ping", "write", "open", "search"] as const;
export type PeerOp = (typeof PEER_OPS)[number];

/** Samples an op keeps at least before the time budget may stop it. */
export const MIN_CAPPED_SAMPLES = 5;

export type StopReason = "budget" | "timeout";

export interface OpSamples {
  samples_ms: number[];
  /** Calls each sample took (a complete search may take several). */
  calls: number[];
  /** Time spent on the op, warm-up included. */
  spent_ms: number;
  /** Why sampling stopped before the requested count, if it did. */
  stopped: StopReason | null;
}

export interface SideOps {
  side: SideName;
  ops: readonly PeerOp[];
  /** One call of `op` in `round`: its time and how many requests it took. */
  call(op: PeerOp, round: number): Promise<{ ms: number; calls: number }>;
}

export type SideSamples = Partial<Record<PeerOp, OpSamples>> & { timeout: string | null };
/** The samples of each side that was sampled. */
export type Sampled = Partial<Record<SideName, SideSamples>>;

/** The sides in the order of `round`: rotated by one each round. */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const k = items.length === 0 ? 0 : round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

export async function sampleInterleaved(
  sides: SideOps[],
  warmup: number,
  samples: number,
  budgetMs: number,
  onRound?: (round: number) => void,
): Promise<Sampled> {
  const result: Sampled = {};
  for (const side of sides) {
    const entry: SideSamples = { timeout: null };
    for (const op of side.ops) entry[op] = { samples_ms: [], calls: [], spent_ms: 0, stopped: null };
    result[side.side] = entry;
  }
  for (let round = 0; round < warmup + samples; round++) {
    let active = false;
    for (const side of rotated(sides, round)) {
      const entry = result[side.side];
      if (entry === undefined || entry.timeout !== null) continue;
      for (let k = 0; k < side.ops.length; k++) {
        const op = side.ops[(round + k) % side.ops.length] as PeerOp;
        const state = entry[op];
        if (state === undefined || state.stopped !== null) continue;
        active = true;
        let call: { ms: number; calls: number };
        try {
          call = await side.call(op, round);
        } catch (error) {
          if (!(error instanceof CallTimeoutError)) throw error;
          entry.timeout = error.message;
          for (const other of side.ops) {
            const otherState = entry[other];
            if (otherState !== undefined && otherState.stopped === null) otherState.stopped = "timeout";
          }
          break;
        }
        state.spent_ms += call.ms;
        if (round >= warmup) {
          state.samples_ms.push(Math.round(call.ms * 1000) / 1000);
          state.calls.push(call.calls);
        }
        if (state.spent_ms > budgetMs && state.samples_ms.length >= MIN_CAPPED_SAMPLES && round < warmup + samples - 1) {
          state.stopped = "budget";
        }
      }
    }
    onRound?.(round);
    if (!active) break;
  }
  return result;
}
