/**
 * One size of the peer benchmark, on every side (ours and each peer): a fresh store each, seeded with
 * the same entities (timed), checked (the first, last and a search-hit entity open as seeded; a
 * complete search returns exactly the planted hits), sampled (ping, write one, open one, search;
 * interleaved, bounded), then bursts of concurrent writes read back. Every sampled answer is checked too, so the numbers are for
 * correct answers. A side whose seeding runs out of its time budget is reported and not measured at
 * this size.
 */

import { fmtInt } from "../bench/report.ts";
import { type Stats, statsOf } from "../bench/stats.ts";
import { log } from "../lib/dev-server.ts";
import { burstEntities, EntitySet, SEARCH_TERM, writeEntity } from "./entities.ts";
import type { PeerOptions } from "./options.ts";
import { type OpSamples, PEER_OPS, type PeerOp, rotated, type SideOps, sampleInterleaved } from "./sampling.ts";
import { type BurstResult, check, type SeedResult, type Side, type SideName, sortedNames } from "./side.ts";

export interface OpSummary extends Stats {
  /** Median of the calls one sample took (more than 1 only for a search that pages). */
  calls_median: number;
  stopped: OpSamples["stopped"];
  samples_ms: number[];
  calls: number[];
}

export interface SideSizeResult {
  seeding: SeedResult;
  /** Null when the side was not measured (seeding incomplete). */
  ops: Partial<Record<PeerOp, OpSummary>> | null;
  /** Set when a call timed out and measuring stopped for this side at this size. */
  timeout: string | null;
  bursts: BurstResult[];
  facts: Record<string, unknown>;
}

export interface PeerSizeResult {
  size: number;
  hits: number;
  /** Keyed by side name: "ours" and each peer of the run. */
  sides: Partial<Record<SideName, SideSizeResult>>;
}

function summarize(state: OpSamples): OpSummary | undefined {
  if (state.samples_ms.length === 0) return undefined;
  const calls = statsOf(state.calls).median_ms;
  return { ...statsOf(state.samples_ms), calls_median: calls, stopped: state.stopped, samples_ms: state.samples_ms, calls: state.calls };
}

/** The checks before measuring: seeded entities open as seeded, and a complete search finds exactly the hits. */
async function verify(side: Side, entities: EntitySet): Promise<void> {
  for (const i of [0, entities.size - 1, entities.hitIndexes[0] ?? 0]) await side.open(entities.at(i));
  const found = await side.search(SEARCH_TERM);
  const want = entities.hitNames();
  check(
    sortedNames(found.names).join(" ") === sortedNames(want).join(" "),
    side.name,
    `search "${SEARCH_TERM}" found [${found.names.join(", ")}], expected [${want.join(", ")}]`,
  );
  log(`  ${side.name}: checked; a complete search took ${found.calls} call${found.calls === 1 ? "" : "s"} (${found.ms.toFixed(0)} ms)`);
}

/** The sampled calls of a side, each answer checked. */
function opsOf(side: Side, entities: EntitySet): SideOps {
  const want = sortedNames(entities.hitNames()).join(" ");
  const checkHits = (names: string[]) =>
    check(sortedNames(names).join(" ") === want, side.name, `search "${SEARCH_TERM}" found [${names.join(", ")}], expected [${want}]`);
  return {
    side: side.name,
    ops: PEER_OPS,
    call: async (op: PeerOp, round: number): Promise<{ ms: number; calls: number }> => {
      switch (op) {
        case "ping":
          return { ms: (await side.ping()).ms, calls: 1 };
        case "write":
          return { ms: (await side.write(writeEntity(round))).ms, calls: 1 };
        case "open":
          return { ms: (await side.open(entities.pick(round))).ms, calls: 1 };
        case "search": {
          const found = await side.search(SEARCH_TERM);
          checkHits(found.names);
          return { ms: found.ms, calls: found.calls };
        }
      }
    },
  };
}

export async function runSize(size: number, sides: Side[], options: PeerOptions): Promise<PeerSizeResult> {
  const entities = new EntitySet(size, options.hits);
  const seeded = new Map<SideName, SeedResult>();
  for (const side of sides) {
    await side.prepare(size);
    log(`seeding ${side.name}: ${fmtInt(size)} entities (--seed-batch ${fmtInt(options.seedBatch)})`);
    const budgetMinutes = side.seedsDirectly ? options.seedBudgetMinutes : options.apiSeedBudgetMinutes;
    const seeding = await side.seed(entities.batches(options.seedBatch), budgetMinutes * 60_000);
    seeded.set(side.name, seeding);
    const direct =
      seeding.direct_items === 0
        ? ""
        : `; past the ${budgetMinutes}-minute seeding limit, ${fmtInt(seeding.direct_items)} more written to its file directly`;
    log(
      `  ${side.name}: ${fmtInt(seeding.items)} entities in ${(seeding.ms / 1000).toFixed(1)} s, ${seeding.calls} calls of at most ${fmtInt(seeding.batch_size)}${direct}` +
        `${seeding.complete ? "" : ` (stopped at the ${budgetMinutes}-minute seeding limit: not measured at this size)`}`,
    );
  }
  const measured = sides.filter((side) => seeded.get(side.name)?.complete === true);
  for (const side of measured) await verify(side, entities);

  const sideOps = measured.map((side) => opsOf(side, entities));
  const rounds = options.warmup + options.samples;
  log(
    `measuring ${fmtInt(size)}: ${options.warmup} warmup + ${options.samples} rounds, at most ${options.opBudgetSeconds} s per op per side`,
  );
  const progressEvery = Math.max(1, Math.ceil(rounds / 5));
  const sampled = await sampleInterleaved(sideOps, options.warmup, options.samples, options.opBudgetSeconds * 1000, (round) => {
    if ((round + 1) % progressEvery === 0 || round + 1 === rounds) log(`  round ${round + 1} of ${rounds}`);
  });

  const bursts = new Map<SideName, BurstResult[]>(sides.map((side) => [side.name, []]));
  for (let round = 0; round < options.burstRounds; round++) {
    for (const side of rotated(measured, round)) {
      if (sampled[side.name]?.timeout !== null) continue;
      const burst = await side.burst(burstEntities(round, options.burst));
      bursts.get(side.name)?.push(burst);
      log(
        `  ${side.name}: burst ${round + 1}: ${burst.fired} fired, ${burst.acked} acknowledged, ${burst.kept} kept (${burst.ms.toFixed(0)} ms)`,
      );
    }
  }

  const result: PeerSizeResult = { size, hits: options.hits, sides: {} };
  for (const side of sides) {
    const entry = measured.includes(side) ? sampled[side.name] : undefined;
    let ops: Partial<Record<PeerOp, OpSummary>> | null = null;
    if (entry !== undefined) {
      ops = {};
      for (const op of PEER_OPS) {
        const state = entry[op];
        const summary = state === undefined ? undefined : summarize(state);
        if (summary !== undefined) ops[op] = summary;
      }
    }
    result.sides[side.name] = {
      seeding: seeded.get(side.name) as SeedResult,
      ops,
      timeout: entry?.timeout ?? null,
      bursts: bursts.get(side.name) ?? [],
      facts: side.facts(),
    };
    await side.finish();
  }
  return result;
}
