/**
 * A local `wrangler dev` (workerd + SQLite Durable Objects) for scripts that need a real server: the
 * benchmark today, a load test and a fuzzer later. It owns the server's whole lifetime, so that no
 * caller can leave it running:
 *
 * - picks a free port on 127.0.0.1;
 * - copies a snapshot of the project into a fresh temp dir and runs the server from there, with its
 *   persisted state in a fresh dir next to it (edits to the tree cannot restart it mid-run, and no run
 *   sees another's data);
 * - waits for `GET /health`;
 * - stops the server's whole process group and removes the temp dir, on `shutdown(code)`, on SIGINT,
 *   SIGTERM and SIGHUP (`installShutdownHooks`) and, as a last resort, when the process exits;
 * - turns off wrangler's outbound traffic (telemetry, update check, `Request.cf` download), so network
 *   traffic goes only to 127.0.0.1.
 *
 * One server per process. Knows nothing about what the caller does with it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { stripVTControlCharacters } from "node:util";

export const HOST = "127.0.0.1";

const HEALTH_POLL_MS = 250;
const HEALTH_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
const OUTPUT_TAIL_LINES = 40;

/** Keeps wrangler's traffic on loopback: no telemetry, no update check (it runs with the banner), no Request.cf download. */
const OFFLINE_ENV: Readonly<Record<string, string>> = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

/**
 * Turns wrangler's local dev tools off: its trace collector (X_LOCAL_OBSERVABILITY) streams an event for
 * every request and every SQL statement to a worker that stores them for its local dashboard, and its
 * data explorer (X_LOCAL_EXPLORER) wraps every Durable Object class. A deployment has neither; on by
 * default, they cost about a third of what the local stack can carry (docs/load.md).
 */
const DEV_TOOLS_OFF_ENV: Readonly<Record<string, string>> = {
  X_LOCAL_OBSERVABILITY: "false",
  X_LOCAL_EXPLORER: "false",
};

/** How scripts run `wrangler dev`: offline, and without wrangler's local dev tools (measurements and tests leave them out). */
export const DEV_SERVER_ENV: Readonly<Record<string, string>> = { ...OFFLINE_ENV, ...DEV_TOOLS_OFF_ENV };

/** Top-level entries not copied into the snapshot: dependencies (linked instead), VCS, local state, secrets. */
const SNAPSHOT_SKIP = new Set(["node_modules", ".git", ".wrangler", "bench-results", ".dev.vars", ".env", ".env.local"]);

export interface DevServerOptions {
  /** The project to snapshot and serve (holds `wrangler.jsonc` and `node_modules`). */
  root: string;
  /** Prefix of the temp dir, e.g. `branchmind-bench-`. */
  tempPrefix: string;
  /** Passed as `--var NAME:VALUE`; by default `AUTH_MODE:dev`. */
  vars?: Readonly<Record<string, string>>;
  /**
   * Keep wrangler's local dev tools at their default (on), as `npm run dev` runs: for comparisons with
   * measurements made before the scripts turned them off.
   */
  devTools?: boolean;
}

export interface DevServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  base: string;
  port: number;
  /** Time from spawning wrangler to the first healthy `/health`. */
  readyMs: number;
}

// ---------------------------------------------------------------------------------------------
// Process lifetime: the server child, its temp dir, signals

const shutdownController = new AbortController();
/** Aborted when shutdown starts: give it to every request so that none outlives the server. */
export const shutdownSignal: AbortSignal = shutdownController.signal;

let child: ChildProcess | undefined;
let childExited: Promise<void> = Promise.resolve();
let childRunning = false;
/** Temp dir holding the source snapshot the server runs (`app/`) and its persisted state (`state/`). */
let workDir: string | undefined;
let shuttingDown = false;
let shutdownDone: Promise<never> | undefined;
const outputTail: string[] = [];

/** Progress and diagnostics go to stderr, so stdout holds only a script's report. */
export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

export function isShuttingDown(): boolean {
  return shuttingDown;
}

function killGroup(signal: NodeJS.Signals): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

async function stopServer(): Promise<void> {
  if (child === undefined) return;
  if (childRunning) {
    killGroup("SIGTERM");
    const timer = new Promise<void>((done) => setTimeout(done, STOP_GRACE_MS).unref());
    await Promise.race([childExited, timer]);
  }
  // Whatever outlived the wrapper (workerd, esbuild) goes too.
  killGroup("SIGKILL");
  child = undefined;
}

function removeWorkDir(): void {
  if (workDir === undefined) return;
  try {
    // Removes the node_modules symlink itself, never what it points to.
    rmSync(workDir, { recursive: true, force: true });
  } catch (error) {
    log(`warning: could not remove the temp dir: ${String(error)}`);
  }
  workDir = undefined;
}

/** Stops the server, removes the temp dir and exits with `code`; later callers wait for the first one. */
export function shutdown(code: number): Promise<never> {
  shutdownDone ??= (async () => {
    shuttingDown = true;
    shutdownController.abort();
    await stopServer();
    removeWorkDir();
    process.exit(code);
  })();
  return shutdownDone;
}

/**
 * Call once, first thing: on SIGINT, SIGTERM or SIGHUP stop the server and exit with 128 + the signal
 * number (a second signal during shutdown kills at once); on any exit, never leave the server running.
 */
export function installShutdownHooks(): void {
  process.on("exit", () => {
    // Last resort (uncaught errors): never leave the server running.
    killGroup("SIGKILL");
    removeWorkDir();
  });
  for (const [signal, number] of [
    ["SIGINT", 2],
    ["SIGTERM", 15],
    ["SIGHUP", 1],
  ] as const) {
    process.on(signal, () => {
      log(`\n${signal}: stopping the server`);
      if (shuttingDown) {
        killGroup("SIGKILL");
        process.exit(128 + number);
      }
      void shutdown(128 + number);
    });
  }
}

/**
 * A script's whole life around the server: parse its options (a bad one prints why and exits 2), arm
 * an overall deadline (the server is stopped and the run exits 1 when it runs out), run `main`, and shut
 * down with its exit code (1 and the error's message if it threw). `name` prefixes the messages.
 */
export function runScript<O extends { timeoutMinutes: number }>(
  name: string,
  parse: (argv: string[]) => O,
  main: (options: O) => Promise<number>,
): void {
  installShutdownHooks();
  let options: O;
  try {
    options = parse(process.argv.slice(2));
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  const deadline = setTimeout(() => {
    console.error(`${name}: overall timeout of ${options.timeoutMinutes} minutes reached; stopping the server`);
    void shutdown(1);
  }, options.timeoutMinutes * 60_000);
  deadline.unref();
  main(options).then(
    (code) => shutdown(code),
    (error: unknown) => {
      if (!isShuttingDown()) console.error(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      return shutdown(1);
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Starting the server

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

export function freePort(host: string = HOST): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, host, () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        fail(new Error("could not read the port of a probe socket"));
        return;
      }
      server.close(() => done(address.port));
    });
  });
}

/**
 * Copies the project (without the skipped entries) so the server runs a fixed version of the code:
 * `wrangler dev` watches its sources and restarts the Worker on every edit, which would break or skew
 * a run while someone edits the tree.
 */
function snapshotProject(root: string, into: string): void {
  cpSync(root, into, {
    recursive: true,
    filter: (source) => dirname(source) !== root || !SNAPSHOT_SKIP.has(basename(source)),
  });
  symlinkSync(join(root, "node_modules"), join(into, "node_modules"), "junction");
}

function rememberOutput(chunk: Buffer): void {
  for (const line of stripVTControlCharacters(chunk.toString("utf8")).split("\n")) {
    if (line.trim().length === 0) continue;
    outputTail.push(line);
    if (outputTail.length > OUTPUT_TAIL_LINES) outputTail.shift();
    log(`[wrangler] ${line}`);
  }
}

function spawnWrangler(
  root: string,
  port: number,
  app: string,
  state: string,
  vars: Readonly<Record<string, string>>,
  devTools: boolean,
): void {
  const wrangler = join(root, "node_modules", ".bin", "wrangler");
  const varArgs = Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const args = ["dev", "--ip", HOST, "--port", String(port), ...varArgs, "--persist-to", state, "--log-level", "warn"];
  child = spawn(wrangler, args, {
    cwd: app,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      // wrangler's `#!/usr/bin/env node` must find this Node (wrangler needs ≥ 22), not an older one on PATH.
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
      ...(devTools ? OFFLINE_ENV : DEV_SERVER_ENV),
      NO_COLOR: "1",
    },
  });
  childRunning = true;
  const started = child;
  childExited = new Promise((done) => {
    started.once("exit", () => {
      childRunning = false;
      done();
    });
    started.once("error", (error) => {
      log(`could not start wrangler: ${error.message}`);
      childRunning = false;
      done();
    });
  });
  started.stdout?.on("data", rememberOutput);
  started.stderr?.on("data", rememberOutput);
}

async function waitForHealth(base: string): Promise<number> {
  const started = performance.now();
  const attempts = Math.ceil(HEALTH_TIMEOUT_MS / HEALTH_POLL_MS);
  for (let attempt = 0; attempt < attempts && performance.now() - started < HEALTH_TIMEOUT_MS; attempt++) {
    if (!childRunning) {
      throw new Error(`wrangler dev exited before /health answered. Last output:\n${outputTail.join("\n")}`);
    }
    try {
      const response = await fetch(`${base}/health`, {
        signal: AbortSignal.any([shutdownSignal, AbortSignal.timeout(2_000)]),
      });
      const text = await response.text();
      // The body proves it is this server, not whatever might have taken the probed port meanwhile.
      if (response.status === 200 && text.includes('"branchmind"')) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await sleep(HEALTH_POLL_MS);
  }
  throw new Error(
    `GET ${base}/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s. Last output:\n${outputTail.join("\n") || "(none)"}`,
  );
}

/**
 * Snapshots `options.root`, starts `wrangler dev` on a free port with fresh persisted state and
 * resolves once `/health` answers. Everything it creates goes away on `shutdown`.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  if (child !== undefined || workDir !== undefined) throw new Error("a dev server is already running in this process");
  const port = await freePort();
  workDir = mkdtempSync(join(tmpdir(), options.tempPrefix));
  const app = join(workDir, "app");
  const state = join(workDir, "state");
  snapshotProject(options.root, app);
  mkdirSync(state);
  const base = `http://${HOST}:${port}`;

  log(`starting wrangler dev on ${base}`);
  spawnWrangler(options.root, port, app, state, options.vars ?? { AUTH_MODE: "dev" }, options.devTools === true);
  const readyMs = await waitForHealth(base);
  log(`server ready after ${(readyMs / 1000).toFixed(1)} s`);
  return { base, port, readyMs };
}
