/**
 * What the peer benchmark asks of each server, so one driver runs the same workload against ours and
 * every peer: a fresh store per size, seeding in batches, the measured operations (each checked
 * against the expected answer and timed on the client around the whole call, reply parsed), and a
 * burst of concurrent writes read back afterwards. `ours.ts`, `server-memory.ts` and
 * `memory-keeper.ts` implement it; the side names are the keys of the report and the JSON.
 */
import { performance } from "node:perf_hooks";
import type { Entity } from "./entities.ts";

/** The peers a run can compare with, in report order (`--peers` picks among them). */
export const PEER_NAMES = ["server-memory", "memory-keeper"] as const;
export type PeerName = (typeof PEER_NAMES)[number];
export type SideName = "ours" | PeerName;

/** A measured call: client-side milliseconds around the whole call (request, server work, reply parsed). */
export interface Timed {
  ms: number;
}

/** A search as a client completes it: every page it took to be sure no hit is missing. */
export interface SearchResult extends Timed {
  calls: number;
  names: string[];
}

export interface SeedResult {
  /** Items seeded through the server's own API, in `calls` calls taking `ms` in all. */
  items: number;
  calls: number;
  ms: number;
  items_per_s: number;
  max_call_ms: number;
  /** The last seeding call's time (the calls slow down as the store grows on one side). */
  last_call_ms: number;
  /** Items written straight into the side's store after the seeding time limit ran out (0 when the API seeded all). */
  direct_items: number;
  direct_ms: number;
  /** False when seeding stopped at its time limit short of the size; the side is then not measured at this size. */
  complete: boolean;
  /** Items per seeding call this side used (`--seed-batch`, or the server's own maximum when smaller). */
  batch_size: number;
}

export interface BurstResult {
  /** Writes fired at once. */
  fired: number;
  /** Writes whose call answered with success. */
  acked: number;
  /** Writes whose call failed (error answer or transport failure). */
  failed: number;
  /** Fired entities found when read back afterwards. */
  kept: number;
  /** Wall time from firing the first write to the last answer. */
  ms: number;
  /** First failure messages, if any (at most a few). */
  errors: string[];
}

/**
 * What a side's seeding adds up as it goes, the same on every side: calls through its API (items, each
 * call's time, the largest batch), then, for a side that can, items written straight into its store
 * once the API's time ran out. `result` turns it into the side's `SeedResult` for a store of `size`.
 */
export class SeedTally {
  private readonly started = performance.now();
  private items = 0;
  private calls = 0;
  private maxCall = 0;
  private lastCall = 0;
  private batchSize = 0;
  private directItems = 0;
  private directMs = 0;
  /** When writing straight into the store began: the API's seeding time ends there. */
  private apiEndedMs: number | undefined;

  /** One seeding call through the API: `items` in `ms`. */
  call(items: number, ms: number): void {
    this.items += items;
    this.calls++;
    this.batchSize = Math.max(this.batchSize, items);
    this.maxCall = Math.max(this.maxCall, ms);
    this.lastCall = ms;
  }

  /** `items` written straight into the store in `ms`, after the API's time ran out. */
  direct(items: number, ms: number): void {
    this.apiEndedMs ??= performance.now() - this.started;
    this.batchSize = Math.max(this.batchSize, items);
    this.directItems += items;
    this.directMs += ms;
  }

  /** Time since seeding started. */
  elapsedMs(): number {
    return performance.now() - this.started;
  }

  /** True once the items written (both ways) fill a store of `size`. */
  result(size: number): SeedResult {
    const ms = this.apiEndedMs ?? this.elapsedMs();
    return {
      items: this.items,
      calls: this.calls,
      ms,
      items_per_s: this.items / (ms / 1000),
      max_call_ms: this.maxCall,
      last_call_ms: this.lastCall,
      direct_items: this.directItems,
      direct_ms: this.directMs,
      complete: this.items + this.directItems === size,
      batch_size: this.batchSize,
    };
  }
}

/** Failure messages a burst result keeps (all are counted). */
const MAX_BURST_ERRORS = 3;

/**
 * Fires one write per entity at once, then reads back which of them the store holds (`readBack`
 * answers the names found): how many were acknowledged, failed and kept. Every side bursts this way.
 */
export async function fireBurst(
  entities: Entity[],
  write: (entity: Entity) => Promise<unknown>,
  readBack: (names: string[]) => Promise<Set<string>>,
): Promise<BurstResult> {
  const started = performance.now();
  const settled = await Promise.allSettled(entities.map(write));
  const ms = performance.now() - started;
  const failures = settled.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
  const found = await readBack(entities.map((entity) => entity.name));
  return {
    fired: entities.length,
    acked: entities.length - failures.length,
    failed: failures.length,
    kept: entities.filter((entity) => found.has(entity.name)).length,
    ms,
    errors: failures.slice(0, MAX_BURST_ERRORS),
  };
}

export interface Side {
  readonly name: SideName;
  /** One line on what this side is (shown in the report). */
  readonly description: string;
  /**
   * True for a side that can write the rest of its store straight into its file once its API seeding
   * has run out of time (`--seed-budget-minutes`); a side that cannot gets the longer
   * `--api-seed-budget-minutes` and stops short after it.
   */
  readonly seedsDirectly: boolean;
  /** Makes an empty store for `size` items (a fresh workspace, or a fresh file and server process). */
  prepare(size: number): Promise<void>;
  /**
   * Seeds the store in the given batches through the server's API until `budgetMs` has passed; a side
   * that can write its store directly writes the rest that way (reported), the other stops short.
   */
  seed(batches: Iterable<Entity[]>, budgetMs: number): Promise<SeedResult>;
  /** The transport floor: the cheapest round trip the server answers. */
  ping(): Promise<Timed>;
  /** Writes one new entity and checks the answer. */
  write(entity: Entity): Promise<Timed>;
  /** Reads one entity by name and checks it is `entity`. */
  open(entity: Entity): Promise<Timed>;
  /** Searches for `term` until the answer is complete, and returns the names found. */
  search(term: string): Promise<SearchResult>;
  /** Fires one write per entity at once, then reads them back. */
  burst(entities: Entity[]): Promise<BurstResult>;
  /** Releases what `prepare` made for the current size. */
  finish(): Promise<void>;
  /** Side facts for the report (e.g. the store's file size). */
  facts(): Record<string, unknown>;
}

/** A call that did not answer within `--call-timeout-seconds`: the driver stops measuring that side at that size. */
export class CallTimeoutError extends Error {
  constructor(side: SideName, what: string, timeoutMs: number) {
    super(`${side}: ${what} did not answer within ${Math.round(timeoutMs / 1000)} s`);
    this.name = "CallTimeoutError";
  }
}

/** Throws a labelled error when `condition` is false: a wrong answer stops the run, like a failed call. */
export function check(condition: boolean, side: SideName, what: string): void {
  if (!condition) throw new Error(`${side}: ${what}`);
}

/** Sorted copy, for comparing name lists regardless of order. */
export function sortedNames(names: Iterable<string>): string[] {
  return [...names].sort();
}
