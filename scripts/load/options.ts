/** Command-line options of `npm run load`. */
export interface LoadOptions {
  agents: number;
  ops: number;
  workspaces: number;
  killAfter: number;
  timeoutMinutes: number;
  steps: number;
}

const LIMITS: Record<keyof LoadOptions, [number, number]> = {
  agents: [1, 500],
  ops: [1, 10_000],
  workspaces: [1, 20],
  killAfter: [0, 1],
  timeoutMinutes: [1, 120],
  steps: [1, 50],
};

export function parseOptions(argv: readonly string[]): LoadOptions {
  const options: LoadOptions = { agents: 50, ops: 200, workspaces: 3, killAfter: 0.5, timeoutMinutes: 10, steps: 6 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? "";
    const name = flag.replace(/^--/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof LoadOptions;
    if (!flag.startsWith("--") || !(name in LIMITS)) throw new Error(`unknown option ${flag}`);
    const value = Number(argv[++i]);
    const [min, max] = LIMITS[name];
    if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${flag} must be a number in [${min}, ${max}]`);
    options[name] = name === "killAfter" ? value : Math.floor(value);
  }
  return options;
}
