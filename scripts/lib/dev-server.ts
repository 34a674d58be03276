/**
 * A script's local `wrangler dev` (workerd + SQLite Durable Objects) and the script's whole life
 * around it, for the benchmarks (`npm run bench`, `npm run bench:peers`). It owns the server's
 * lifetime, so that no caller can leave it running:
 *
 * - picks a free port on 127.0.0.1;
 * - runs the server from a snapshot of the project in a fresh temp dir, with its persisted state in a
 *   fresh dir next to it (edits to the tree cannot restart it mid-run, and no run sees another's data);
 * - waits for `GET /health`;
 * - stops the server's whole process group and removes the temp dir, on `shutdown(code)`, on SIGINT,
 *   SIGTERM and SIGHUP (`installShutdownHooks`) and when the process exits; if the process dies
 *   without any of these (`kill -9`), the guard that wrangler-dev.ts runs the server under stops it.
 *
 * Usually one server per process; a comparison runs a second one from another checkout (the answers
 * suite's `--compare-root`). Knows nothing about what the caller does with them.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DEV_SERVER_ENV,
  freePort,
  OFFLINE_ENV,
  snapshotProject,
  spawnWrangler,
  type WranglerProcess,
  waitForHealth,
} from "./wrangler-dev.ts";

const HEALTH_TIMEOUT_MS = 60_000;

export interface DevServerOptions {
  /** The project to snapshot and serve (holds `wrangler.toml` and `node_modules`). */
  root: string;
  /**
   * The project whose `node_modules` the snapshot links and whose wrangler runs (default `root`): a
   * checkout of an earlier revision, compared side by side, borrows the current one's.
   */
  modules?: string;
  /** Prefix of the temp dir, e.g. `branchmind-bench-`. */
  tempPrefix: string;
  /** Passed as `--var NAME:VALUE`; by default `AUTH_MODE:dev`. */
  vars?: Readonly<Record<string, string>>;
  /**
   * Keep wrangler's local dev tools at their default (on), as `npm run dev` runs: for comparisons with
   * measurements made before the scripts turned them off.
   */
  devTools?: boolean;
  /**
   * Sees every line the server prints, at log level `log` (the Worker's own log lines included); a line
   * it answers true for is consumed, the others are echoed as usual. Without it the level is `warn`.
   */
  serverLines?: (line: string) => boolean;
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

const servers: WranglerProcess[] = [];
/** Temp dirs, one per server, holding the source snapshot it runs (`app/`) and its persisted state (`state/`). */
const workDirs: string[] = [];
let shuttingDown = false;
let shutdownDone: Promise<never> | undefined;

/** Progress and diagnostics go to stderr, so stdout holds only a script's report. */
export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

export function isShuttingDown(): boolean {
  return shuttingDown;
}

function killGroup(signal: NodeJS.Signals): void {
  for (const server of servers) server.signal(signal);
}

async function stopServer(): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
  servers.length = 0;
}

function removeWorkDir(): void {
  for (const dir of workDirs.splice(0)) {
    try {
      // Removes the node_modules symlink itself, never what it points to.
      rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      log(`warning: could not remove the temp dir: ${String(error)}`);
    }
  }
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

/**
 * Snapshots `options.root`, starts `wrangler dev` on a free port with fresh persisted state and
 * resolves once `/health` answers. Everything it creates goes away on `shutdown`; the server also
 * ends if this process dies without one (wrangler-dev.ts runs it under a guard).
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const port = await freePort();
  const workDir = mkdtempSync(join(tmpdir(), options.tempPrefix));
  workDirs.push(workDir);
  const app = join(workDir, "app");
  const state = join(workDir, "state");
  snapshotProject(options.root, app, options.modules);
  mkdirSync(state);

  const server = spawnWrangler({
    root: options.modules ?? options.root,
    app,
    state,
    port,
    vars: options.vars ?? { AUTH_MODE: "dev" },
    env: options.devTools === true ? OFFLINE_ENV : DEV_SERVER_ENV,
    logLevel: options.serverLines === undefined ? "warn" : "log",
    onLine: (line) => {
      if (options.serverLines?.(line) !== true) log(`[wrangler] ${line}`);
    },
  });
  servers.push(server);
  log(`starting wrangler dev on ${server.base}`);
  const readyMs = await waitForHealth(server, HEALTH_TIMEOUT_MS, shutdownSignal);
  log(`server ready after ${(readyMs / 1000).toFixed(1)} s`);
  return { base: server.base, port, readyMs };
}
