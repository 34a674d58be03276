/** Command-line options of `npm run load`. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export const USAGE =
  "npm run load -- [--agents 50] [--ops 200] [--workspaces 3] [--kill-after 0.5] [--timeout-minutes 10] [--steps 6] [--ceiling-only] [--compare-root DIR]";

export interface LoadOptions {
  agents: number;
  ops: number;
  workspaces: number;
  killAfter: number;
  timeoutMinutes: number;
  steps: number;
  /** Measure the stack's ceiling and stop: no agents, no kill -9. */
  ceilingOnly: boolean;
  /** A checkout of an earlier revision (with its own wrangler.toml) whose ceiling is measured side by side. */
  compareRoot: string | undefined;
}

type NumericOption = "agents" | "ops" | "workspaces" | "killAfter" | "timeoutMinutes" | "steps";

const LIMITS: Record<NumericOption, [number, number]> = {
  agents: [1, 500],
  ops: [1, 10_000],
  workspaces: [1, 20],
  killAfter: [0, 1],
  timeoutMinutes: [1, 120],
  steps: [1, 50],
};

export function parseOptions(argv: readonly string[]): LoadOptions {
  const options: LoadOptions = {
    agents: 50,
    ops: 200,
    workspaces: 3,
    killAfter: 0.5,
    timeoutMinutes: 10,
    steps: 6,
    ceilingOnly: false,
    compareRoot: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? "";
    if (flag === "--ceiling-only") {
      options.ceilingOnly = true;
      continue;
    }
    if (flag === "--compare-root") {
      const dir = argv[++i];
      if (dir === undefined || dir.startsWith("--")) throw new Error("--compare-root needs a directory");
      options.compareRoot = resolve(dir);
      if (!existsSync(join(options.compareRoot, "wrangler.toml")))
        throw new Error(`--compare-root: no wrangler.toml in ${options.compareRoot}`);
      continue;
    }
    const name = flag.replace(/^--/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as NumericOption;
    if (!flag.startsWith("--") || !(name in LIMITS)) throw new Error(`unknown option ${flag}\nusage: ${USAGE}`);
    const value = Number(argv[++i]);
    const [min, max] = LIMITS[name];
    if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${flag} must be a number in [${min}, ${max}]`);
    options[name] = name === "killAfter" ? value : Math.floor(value);
  }
  return options;
}
