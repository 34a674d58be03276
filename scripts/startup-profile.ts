/**
 * How much CPU a new isolate of the Worker spends before it can answer: `npm run startup` profiles the
 * Worker's startup with `wrangler check startup` several times and prints each run's active CPU and
 * their median (docs/benchmarks.md, "Startup"). Active CPU is the profile's sampled time less its
 * idle samples, as wrangler's own summary counts it.
 *
 * The project is copied first (lib/wrangler-dev.ts's snapshot) and built once (`wrangler deploy
 * --dry-run`, which builds locally and needs no account or network); every run then profiles that one
 * bundle, so an edit during a run changes nothing and the runs differ only by the machine's load.
 * Every wrangler runs under the process guard, so nothing outlives the script.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadAverage } from "./bench/machine.ts";
import { type CpuProfile, heaviestFunctions, summarize } from "./lib/cpu-profile.ts";
import { OFFLINE_ENV, snapshotProject } from "./lib/wrangler-dev.ts";

const USAGE = `Usage: npm run startup -- [--runs N] [--top N] [--root DIR]

  --runs N    profiles to take, 1-20 (default 5); the median is reported
  --top N     also list the N functions that took the most of the median run, 0-100 (default 0)
  --root DIR  profile the checkout in DIR (an earlier revision; it borrows this checkout's node_modules)`;

/** Five profiles: enough for a median that one disturbed run does not move, in about a minute. */
const DEFAULT_RUNS = 5;
const MAX_RUNS = 20;
const MAX_TOP = 100;
/** A build or a profile that takes longer than this has hung (a build takes about 15 s, a profile 5 s). */
const STEP_TIMEOUT_MS = 5 * 60 * 1000;

const PROJECT = resolve(import.meta.dirname, "..");
const GUARD = join(import.meta.dirname, "lib", "process-guard.ts");
const WRANGLER = join(PROJECT, "node_modules", "wrangler", "bin", "wrangler.js");

function die(message: string): never {
  process.stderr.write(`startup-profile: ${message}\n`);
  process.exit(2);
}

function integerOption(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) die(`--${name} must be an integer from ${min} to ${max}`);
  return number;
}

/**
 * Runs wrangler under the guard in `cwd` and resolves once it has exited. The guard's own exit status
 * says nothing about wrangler's (it ends its group by SIGKILL), so callers check the file wrangler
 * was to write; the output is kept for the error when it is missing.
 */
function runWrangler(cwd: string, args: string[]): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [GUARD, process.execPath, WRANGLER, ...args], {
      cwd,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: {
        ...process.env,
        // wrangler's build step (`npm run build:web`) must find this Node, not an older one on PATH.
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
        ...OFFLINE_ENV,
        NO_COLOR: "1",
      },
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const timer = setTimeout(() => {
      try {
        // The guard ends its whole group on SIGTERM.
        if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
      } catch {
        // The group is already gone.
      }
      fail(new Error(`wrangler ${args[0]} took longer than ${STEP_TIMEOUT_MS / 1000} s`));
    }, STEP_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.once("exit", () => {
      clearTimeout(timer);
      done(output);
    });
  });
}

async function produce(file: string, cwd: string, args: string[]): Promise<void> {
  const output = await runWrangler(cwd, args);
  // Thrown, not exited: the caller's `finally` removes the working directory first.
  if (!existsSync(file)) throw new Error(`wrangler ${args.slice(0, 2).join(" ")} wrote no ${file}:\n${output.trim()}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main(): Promise<void> {
  let values: { runs?: string; top?: string; root?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { runs: { type: "string" }, top: { type: "string" }, root: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
    }));
  } catch (error) {
    die(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const runs = integerOption(values.runs, "runs", DEFAULT_RUNS, 1, MAX_RUNS);
  const top = integerOption(values.top, "top", 0, 0, MAX_TOP);
  const root = resolve(values.root ?? PROJECT);
  if (!existsSync(join(root, "wrangler.toml"))) die(`${root} holds no wrangler.toml`);

  const work = mkdtempSync(join(tmpdir(), "branchmind-startup-"));
  try {
    const app = join(work, "app");
    snapshotProject(root, app, PROJECT);
    const loadBefore = loadAverage();
    process.stderr.write(`building the Worker (load ${loadBefore.join(", ")})\n`);
    const bundle = join(work, "worker.bundle");
    await produce(bundle, app, ["deploy", "--dry-run", "--outfile", bundle]);
    const results: { activeMs: number; garbageCollectionMs: number; profile: CpuProfile }[] = [];
    for (let run = 1; run <= runs; run++) {
      const file = join(work, `startup-${run}.cpuprofile`);
      await produce(file, app, ["check", "startup", "--worker", bundle, "--outfile", file]);
      const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
      const summary = summarize(profile);
      results.push({ ...summary, profile });
      process.stdout.write(`run ${run}: active ${ms(summary.activeMs)} (garbage collection ${ms(summary.garbageCollectionMs)})\n`);
    }
    const middle = median(results.map((result) => result.activeMs));
    process.stdout.write(
      `median active CPU at startup: ${ms(middle)} of ${runs} run${runs === 1 ? "" : "s"} (load before ${loadBefore.join(", ")}, after ${loadAverage().join(", ")})\n`,
    );
    if (top > 0) {
      const nearest = results.reduce((best, result) =>
        Math.abs(result.activeMs - middle) < Math.abs(best.activeMs - middle) ? result : best,
      );
      process.stdout.write(`heaviest functions of the run nearest the median (total / self):\n`);
      for (const fn of heaviestFunctions(nearest.profile, top)) {
        process.stdout.write(`${ms(fn.totalMs).padStart(10)} ${ms(fn.selfMs).padStart(10)}  ${fn.name}\n`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  die((error as Error).message);
}
