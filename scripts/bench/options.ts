/**
 * The benchmark's command line: flags, defaults, bounds and `--help`. Rejects what the run could not
 * honour (out-of-range numbers, a store too small for the requested chain) before any server starts.
 */
import { parseArgs } from "node:util";
import { DEFAULT_CHAIN_DEPTH, mainNotesFirst } from "./layout.ts";

export const USAGE = "npm run bench -- [--sizes 1000,10000,100000] [--samples 200] [--warmup 20] [--timeout-minutes 20] [--chain-depth 10]";

const DEFAULTS = { sizes: [1_000, 10_000, 100_000], samples: 200, warmup: 20, timeoutMinutes: 20, chainDepth: DEFAULT_CHAIN_DEPTH };
const BOUNDS = { size: [100, 1_000_000], samples: [1, 10_000], warmup: [0, 1_000], timeoutMinutes: [1, 180], chainDepth: [1, 32] } as const;

export interface Options {
  sizes: number[];
  samples: number;
  warmup: number;
  timeoutMinutes: number;
  chainDepth: number;
}

function integerIn(name: string, raw: string, [min, max]: readonly [number, number]): number {
  const value = Number(raw.replaceAll("_", ""));
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** Parses `argv` (without node and the script); prints the usage and exits 0 on `--help`, throws on bad input. */
export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: "string" },
      samples: { type: "string" },
      warmup: { type: "string" },
      "timeout-minutes": { type: "string" },
      "chain-depth": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const sizes =
    values.sizes === undefined
      ? DEFAULTS.sizes
      : values.sizes
          .split(",")
          .map((part) => part.trim())
          .filter((part) => part.length > 0)
          .map((part) => integerIn("sizes", part, BOUNDS.size));
  if (sizes.length === 0 || sizes.length > 10) throw new Error("--sizes takes 1 to 10 comma-separated store sizes");
  const unique = [...new Set(sizes)].sort((a, b) => a - b);
  const options: Options = {
    sizes: unique,
    samples: values.samples === undefined ? DEFAULTS.samples : integerIn("samples", values.samples, BOUNDS.samples),
    warmup: values.warmup === undefined ? DEFAULTS.warmup : integerIn("warmup", values.warmup, BOUNDS.warmup),
    timeoutMinutes:
      values["timeout-minutes"] === undefined
        ? DEFAULTS.timeoutMinutes
        : integerIn("timeout-minutes", values["timeout-minutes"], BOUNDS.timeoutMinutes),
    chainDepth:
      values["chain-depth"] === undefined ? DEFAULTS.chainDepth : integerIn("chain-depth", values["chain-depth"], BOUNDS.chainDepth),
  };
  for (const size of options.sizes) {
    if (mainNotesFirst(size, options.chainDepth) < 1) {
      throw new Error(`store size ${size} is too small for a chain of depth ${options.chainDepth}`);
    }
  }
  return options;
}
