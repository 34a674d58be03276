/**
 * The peer benchmark's command line: flags, defaults, bounds and `--help`. Rejects what the run could
 * not honour (out-of-range numbers, unknown peers, more search hits than the smallest store holds, a burst too big
 * to read back in one call) before any server starts.
 */
import { parseArgs } from "node:util";
import { MAX_GRAPH_OPS_PER_CALL } from "../bench/graph-seed.ts";
import { PEER_NAMES, type PeerName } from "./side.ts";

export const USAGE =
  "npm run bench:peers -- [--peers server-memory,memory-keeper] [--sizes 1000,10000,100000] [--samples 50] [--warmup 5] [--hits 10] [--seed-batch 2000] " +
  "[--op-budget-seconds 60] [--seed-budget-minutes 5] [--api-seed-budget-minutes 30] [--call-timeout-seconds 120] [--burst 20] [--burst-rounds 3] [--timeout-minutes 90]";

const DEFAULTS = {
  sizes: [1_000, 10_000, 100_000],
  samples: 50,
  warmup: 5,
  hits: 10,
  seedBatch: 2_000,
  opBudgetSeconds: 60,
  seedBudgetMinutes: 5,
  apiSeedBudgetMinutes: 30,
  callTimeoutSeconds: 120,
  burst: 20,
  burstRounds: 3,
  // Long enough for memory-keeper's API seeding of 100,000 items (about 20 minutes on the machine of docs/peers.md).
  timeoutMinutes: 90,
};

const BOUNDS = {
  size: [100, 1_000_000],
  samples: [1, 10_000],
  warmup: [0, 1_000],
  // One search page of ours holds 50 nodes; hits beyond that still work (more pages) but stop being "a search with a few hits".
  hits: [1, 50],
  // Our import takes at most this many graph ops per call.
  seedBatch: [1, MAX_GRAPH_OPS_PER_CALL],
  opBudgetSeconds: [1, 3_600],
  seedBudgetMinutes: [1, 120],
  apiSeedBudgetMinutes: [1, 120],
  callTimeoutSeconds: [1, 600],
  // Read back with one `graph_query` by ids (at most 200 ids).
  burst: [2, 200],
  burstRounds: [1, 100],
  timeoutMinutes: [1, 240],
} as const;

export interface PeerOptions {
  sizes: number[];
  samples: number;
  warmup: number;
  /** Seeded entities whose observations hold the search term. */
  hits: number;
  /** Entities per seeding call, on every side (a peer whose batch tool takes fewer uses its own maximum). */
  seedBatch: number;
  /** Time one op of one side may spend per size (warm-up included) before it stops, once it has a few samples. */
  opBudgetSeconds: number;
  /** Time seeding through its API may take per size for a side that can then write the rest into its file directly (server-memory). */
  seedBudgetMinutes: number;
  /** The same for a side that cannot write its store directly (ours, memory-keeper): past it, it stops short (not measured at that size). */
  apiSeedBudgetMinutes: number;
  /** Longest wait for one call; a call that takes longer stops measuring its side at that size. */
  callTimeoutSeconds: number;
  /** Concurrent writes per burst. */
  burst: number;
  burstRounds: number;
  timeoutMinutes: number;
  /** The peers compared with ours, in report order. */
  peers: PeerName[];
}

function integerIn(name: string, raw: string, [min, max]: readonly [number, number]): number {
  const value = Number(raw.replaceAll("_", ""));
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** `--peers a,b`: known peer names, at least one, in report order. */
function parsePeers(raw: string): PeerName[] {
  const parts = raw
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  const unknown = parts.filter((part) => !(PEER_NAMES as readonly string[]).includes(part));
  if (parts.length === 0 || unknown.length > 0) {
    throw new Error(`--peers takes a comma-separated list of ${PEER_NAMES.join(", ")}; got "${raw}"`);
  }
  return PEER_NAMES.filter((name) => parts.includes(name));
}

/** Parses `argv` (without node and the script); prints the usage and exits 0 on `--help`, throws on bad input. */
export function parsePeerOptions(argv: string[]): PeerOptions {
  const flags = {
    sizes: { type: "string" },
    samples: { type: "string" },
    warmup: { type: "string" },
    hits: { type: "string" },
    "seed-batch": { type: "string" },
    "op-budget-seconds": { type: "string" },
    "seed-budget-minutes": { type: "string" },
    "api-seed-budget-minutes": { type: "string" },
    "call-timeout-seconds": { type: "string" },
    burst: { type: "string" },
    "burst-rounds": { type: "string" },
    "timeout-minutes": { type: "string" },
    peers: { type: "string" },
    help: { type: "boolean", short: "h" },
  } as const;
  const { values } = parseArgs({ args: argv, options: flags, strict: true, allowPositionals: false });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const number = (
    name: Exclude<keyof typeof flags, "sizes" | "peers" | "help">,
    fallback: number,
    bounds: readonly [number, number],
  ): number => {
    const raw = values[name];
    return raw === undefined ? fallback : integerIn(name, raw, bounds);
  };
  let sizes = DEFAULTS.sizes;
  if (values.sizes !== undefined) {
    const parts = values.sizes
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part.length > 0);
    if (parts.length === 0 || parts.length > 10) throw new Error("--sizes takes 1 to 10 comma-separated sizes");
    sizes = [...new Set(parts.map((part) => integerIn("sizes", part, BOUNDS.size)))].sort((a, b) => a - b);
  }
  const options: PeerOptions = {
    sizes,
    samples: number("samples", DEFAULTS.samples, BOUNDS.samples),
    warmup: number("warmup", DEFAULTS.warmup, BOUNDS.warmup),
    hits: number("hits", DEFAULTS.hits, BOUNDS.hits),
    seedBatch: number("seed-batch", DEFAULTS.seedBatch, BOUNDS.seedBatch),
    opBudgetSeconds: number("op-budget-seconds", DEFAULTS.opBudgetSeconds, BOUNDS.opBudgetSeconds),
    seedBudgetMinutes: number("seed-budget-minutes", DEFAULTS.seedBudgetMinutes, BOUNDS.seedBudgetMinutes),
    apiSeedBudgetMinutes: number("api-seed-budget-minutes", DEFAULTS.apiSeedBudgetMinutes, BOUNDS.apiSeedBudgetMinutes),
    callTimeoutSeconds: number("call-timeout-seconds", DEFAULTS.callTimeoutSeconds, BOUNDS.callTimeoutSeconds),
    burst: number("burst", DEFAULTS.burst, BOUNDS.burst),
    burstRounds: number("burst-rounds", DEFAULTS.burstRounds, BOUNDS.burstRounds),
    timeoutMinutes: number("timeout-minutes", DEFAULTS.timeoutMinutes, BOUNDS.timeoutMinutes),
    peers: values.peers === undefined ? [...PEER_NAMES] : parsePeers(values.peers),
  };
  const smallest = options.sizes[0] ?? 0;
  if (options.hits > smallest) throw new Error(`--hits ${options.hits} is more than the smallest size, ${smallest}`);
  return options;
}
