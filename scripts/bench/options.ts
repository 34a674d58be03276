/**
 * The benchmark's command line: flags, defaults, bounds and `--help`. Rejects what the run could not
 * honour (out-of-range numbers, a store too small for the requested chain) before any server starts.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { CARD_SIZE_STEP, MIN_CARD_SIZE } from "./cards-layout.ts";
import { MIN_GRAPH_SIZE } from "./graph-layout.ts";
import { DEFAULT_DEPTHS, mainNotesFirst } from "./layout.ts";
import { CARD_EVERY, MIN_PACK_SIZE } from "./packs-layout.ts";
import { MIN_RECORD_SIZE } from "./records-layout.ts";

export const USAGE =
  "npm run bench -- [--suites notes,common,graph,packs,portals,records,answers,cards,ready,frontier] [--sizes 1000,10000,100000] [--depths 1,10,30] " +
  "[--graph-sizes 10000,100000] [--pack-sizes 100000] [--record-sizes 50000] [--card-sizes 1000,100000] " +
  "[--samples 200] [--warmup 20] [--timeout-minutes 30] [--chain-depth 10] [--wrangler-dev-tools] [--compare-root DIR]";

export const SUITES = ["notes", "common", "graph", "packs", "portals", "records", "answers", "cards", "ready", "frontier"] as const;
/** The graph suite's chain `gchain/1` … `gchain/<n>` (`--chain-depth`). */
const DEFAULT_GRAPH_CHAIN_DEPTH = 10;
export type Suite = (typeof SUITES)[number];

const DEFAULTS = {
  suites: [...SUITES],
  sizes: [1_000, 10_000, 100_000],
  depths: DEFAULT_DEPTHS,
  graphSizes: [10_000, 100_000],
  packSizes: [100_000],
  recordSizes: [50_000],
  cardSizes: [1_000, 100_000],
  samples: 200,
  warmup: 20,
  timeoutMinutes: 30,
  chainDepth: DEFAULT_GRAPH_CHAIN_DEPTH,
};
const BOUNDS = {
  size: [100, 1_000_000],
  graphSize: [MIN_GRAPH_SIZE, 1_000_000],
  packSize: [MIN_PACK_SIZE, 1_000_000],
  recordSize: [MIN_RECORD_SIZE, 500_000],
  cardSize: [MIN_CARD_SIZE, 1_000_000],
  samples: [1, 10_000],
  warmup: [0, 1_000],
  timeoutMinutes: [1, 180],
  chainDepth: [1, 32],
} as const;

export interface Options {
  suites: Suite[];
  /** Notes and common suites: notes per workspace. */
  sizes: number[];
  /** Notes suite: the chain depths whose `show` is measured (the chain is built to the deepest). */
  depths: number[];
  /** Graph suite sizes, in nodes (edges 2×, versions about 10×). */
  graphSizes: number[];
  /** Packs suite sizes, in trace entries (cards a fifth of that, plus 2,000 notes). */
  packSizes: number[];
  /** Records suite sizes, in records of the measured project. */
  recordSizes: number[];
  /** Cards suite sizes, in cards per card doc (two docs, plus a chain's few). */
  cardSizes: number[];
  samples: number;
  warmup: number;
  timeoutMinutes: number;
  /** Graph suite: depth of its branch chain. */
  chainDepth: number;
  /** Keep wrangler's local dev tools on, as `npm run dev` runs (see DEV_SERVER_ENV); off by default. */
  wranglerDevTools: boolean;
  /**
   * Answers and common suites: a checkout of an earlier revision (its own `node_modules` not needed:
   * this one's is linked) served side by side with this one, measured in the same rounds.
   */
  compareRoot: string | undefined;
}

function integerIn(name: string, raw: string, [min, max]: readonly [number, number]): number {
  const value = Number(raw.replaceAll("_", ""));
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function suiteIn(part: string): Suite {
  const suite = SUITES.find((name) => name === part);
  if (suite === undefined) throw new Error(`--suites: unknown suite "${part}" (known: ${SUITES.join(", ")})`);
  return suite;
}

/** A comma-separated list, each part trimmed and parsed; empty parts are skipped. */
function listOf<T>(name: string, raw: string, parse: (part: string) => T): T[] {
  const parts = raw
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length === 0) throw new Error(`--${name} is empty`);
  return parts.map(parse);
}

/** Parses `argv` (without node and the script); prints the usage and exits 0 on `--help`, throws on bad input. */
export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      suites: { type: "string" },
      sizes: { type: "string" },
      depths: { type: "string" },
      "graph-sizes": { type: "string" },
      "pack-sizes": { type: "string" },
      "record-sizes": { type: "string" },
      "card-sizes": { type: "string" },
      samples: { type: "string" },
      warmup: { type: "string" },
      "timeout-minutes": { type: "string" },
      "chain-depth": { type: "string" },
      "wrangler-dev-tools": { type: "boolean" },
      "compare-root": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const suites = values.suites === undefined ? DEFAULTS.suites : listOf("suites", values.suites, suiteIn);
  if (suites.length === 0) throw new Error(`--suites takes a comma-separated list of ${SUITES.join(", ")}`);
  const sizes =
    values.sizes === undefined ? DEFAULTS.sizes : listOf("sizes", values.sizes, (part) => integerIn("sizes", part, BOUNDS.size));
  const depths =
    values.depths === undefined ? DEFAULTS.depths : listOf("depths", values.depths, (part) => integerIn("depths", part, BOUNDS.chainDepth));
  if (depths.length > 10) throw new Error("--depths takes 1 to 10 comma-separated depths");
  const graphSizes =
    values["graph-sizes"] === undefined
      ? DEFAULTS.graphSizes
      : listOf("graph-sizes", values["graph-sizes"], (part) => integerIn("graph-sizes", part, BOUNDS.graphSize));
  const packSizes =
    values["pack-sizes"] === undefined
      ? DEFAULTS.packSizes
      : listOf("pack-sizes", values["pack-sizes"], (part) => integerIn("pack-sizes", part, BOUNDS.packSize));
  const recordSizes =
    values["record-sizes"] === undefined
      ? DEFAULTS.recordSizes
      : listOf("record-sizes", values["record-sizes"], (part) => integerIn("record-sizes", part, BOUNDS.recordSize));
  const cardSizes =
    values["card-sizes"] === undefined
      ? DEFAULTS.cardSizes
      : listOf("card-sizes", values["card-sizes"], (part) => integerIn("card-sizes", part, BOUNDS.cardSize));
  for (const size of cardSizes) {
    if (size % CARD_SIZE_STEP !== 0) throw new Error(`--card-sizes: ${size} is not a multiple of ${CARD_SIZE_STEP}`);
  }
  for (const size of packSizes) {
    if (size % CARD_EVERY !== 0)
      throw new Error(`--pack-sizes: ${size} is not a multiple of ${CARD_EVERY} (one trace entry in ${CARD_EVERY} is a card's)`);
  }
  for (const [name, list] of [
    ["sizes", sizes],
    ["graph-sizes", graphSizes],
    ["pack-sizes", packSizes],
    ["record-sizes", recordSizes],
    ["card-sizes", cardSizes],
  ] as const) {
    if (list.length === 0 || list.length > 10) throw new Error(`--${name} takes 1 to 10 comma-separated sizes`);
  }
  const options: Options = {
    suites: SUITES.filter((suite) => suites.includes(suite)),
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    depths: [...new Set(depths)].sort((a, b) => a - b),
    graphSizes: [...new Set(graphSizes)].sort((a, b) => a - b),
    packSizes: [...new Set(packSizes)].sort((a, b) => a - b),
    recordSizes: [...new Set(recordSizes)].sort((a, b) => a - b),
    cardSizes: [...new Set(cardSizes)].sort((a, b) => a - b),
    samples: values.samples === undefined ? DEFAULTS.samples : integerIn("samples", values.samples, BOUNDS.samples),
    warmup: values.warmup === undefined ? DEFAULTS.warmup : integerIn("warmup", values.warmup, BOUNDS.warmup),
    timeoutMinutes:
      values["timeout-minutes"] === undefined
        ? DEFAULTS.timeoutMinutes
        : integerIn("timeout-minutes", values["timeout-minutes"], BOUNDS.timeoutMinutes),
    chainDepth:
      values["chain-depth"] === undefined ? DEFAULTS.chainDepth : integerIn("chain-depth", values["chain-depth"], BOUNDS.chainDepth),
    wranglerDevTools: values["wrangler-dev-tools"] === true,
    compareRoot: values["compare-root"] === undefined ? undefined : resolve(values["compare-root"]),
  };
  if (options.compareRoot !== undefined) {
    if (!options.suites.includes("answers") && !options.suites.includes("common"))
      throw new Error("--compare-root is for the answers and common suites: add one of them to --suites");
    if (!existsSync(join(options.compareRoot, "wrangler.toml")))
      throw new Error(`--compare-root: no wrangler.toml in ${options.compareRoot}`);
  }
  const deepest = Math.max(...options.depths);
  for (const size of options.suites.includes("notes") ? options.sizes : []) {
    if (mainNotesFirst(size, deepest) < 1) throw new Error(`store size ${size} is too small for a chain of depth ${deepest}`);
  }
  return options;
}
