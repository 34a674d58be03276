/**
 * One `wrangler dev` process, the way every script and test here starts it: from a snapshot of the
 * project, on 127.0.0.1, with its outbound traffic off, under `process-guard.ts` so that it ends with
 * whoever started it. The three callers (lib/dev-server.ts for the benchmarks, load/server.ts for
 * the crash test, test/e2e/helpers/server.ts for the viewer's tests) own what they do with it: how
 * long it lives, whether it restarts, where its output goes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { basename, dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { stripVTControlCharacters } from "node:util";

export const HOST = "127.0.0.1";

const HEALTH_POLL_MS = 250;
const HEALTH_REQUEST_TIMEOUT_MS = 2_000;
/** How long a stop waits for the group to exit after SIGTERM before it kills it. */
const STOP_GRACE_MS = 5_000;
/** Lines of wrangler's output kept for the error that says why it did not start. */
const OUTPUT_TAIL_LINES = 60;
const GUARD = join(import.meta.dirname, "process-guard.ts");

/** Keeps wrangler's traffic on loopback: no telemetry, no update check (it runs with the banner), no Request.cf download. */
export const OFFLINE_ENV: Readonly<Record<string, string>> = {
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

/**
 * Top-level entries left out of a snapshot: dependencies (linked instead), VCS, local state, secrets,
 * run artifacts, and the viewer's build (the snapshot's wrangler builds its own).
 */
const SNAPSHOT_SKIP = new Set(["node_modules", ".git", ".wrangler", "bench-results", "test-artifacts", ".dev.vars", ".env", ".env.local"]);

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
export function snapshotProject(root: string, into: string, modules: string = root): void {
  const viewerBuild = join(root, "web", "dist");
  cpSync(root, into, {
    recursive: true,
    filter: (source) => source !== viewerBuild && (dirname(source) !== root || !SNAPSHOT_SKIP.has(basename(source))),
  });
  symlinkSync(join(modules, "node_modules"), join(into, "node_modules"), "junction");
}

export interface WranglerOptions {
  /** The project whose node_modules holds wrangler. */
  root: string;
  /** The snapshot to serve (see snapshotProject). */
  app: string;
  state: string;
  port: number;
  /** Passed as `--var NAME:VALUE`. */
  vars: Readonly<Record<string, string>>;
  /** Written to the snapshot's `.dev.vars` (as a deployment's secrets), never on a command line where `ps` shows them. */
  secrets?: Readonly<Record<string, string>>;
  /** Environment on top of the caller's (for example DEV_SERVER_ENV). */
  env: Readonly<Record<string, string>>;
  /** Each non-empty line of wrangler's output, without terminal escapes. */
  onLine?: (line: string) => void;
  /** wrangler's `--log-level` (default `warn`); at `log` the Worker's own log lines are printed too. */
  logLevel?: "warn" | "log";
}

export interface WranglerProcess {
  readonly base: string;
  /** The process group: the guard's pid (wrangler and workerd run in it). */
  readonly groupId: number;
  /** False once the guard (and so the server's group) has exited. */
  running(): boolean;
  readonly exited: Promise<void>;
  /** The last lines wrangler printed. */
  tail(): string;
  /** Sends `signal` to the whole group: the guard, wrangler, workerd. */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, up to STOP_GRACE_MS for the group to exit, then SIGKILL. */
  stop(): Promise<void>;
}

/** Starts `wrangler dev` under the guard; resolves nothing about its health (see waitForHealth). */
export function spawnWrangler(options: WranglerOptions): WranglerProcess {
  const wrangler = join(options.root, "node_modules", ".bin", "wrangler");
  if (options.secrets !== undefined) {
    const lines = Object.entries(options.secrets).map(([name, value]) => `${name}=${JSON.stringify(value)}\n`);
    writeFileSync(join(options.app, ".dev.vars"), lines.join(""), { mode: 0o600 });
  }
  const varArgs = Object.entries(options.vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const args = [
    "dev",
    "--ip",
    HOST,
    "--port",
    String(options.port),
    ...varArgs,
    "--persist-to",
    options.state,
    "--log-level",
    options.logLevel ?? "warn",
  ];
  const child: ChildProcess = spawn(process.execPath, [GUARD, wrangler, ...args], {
    cwd: options.app,
    // Its own process group, led by the guard; the stdin pipe is the guard's line to this process.
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
    env: {
      ...process.env,
      // wrangler's `#!/usr/bin/env node` must find this Node (wrangler needs ≥ 22), not an older one on PATH.
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
      ...options.env,
      NO_COLOR: "1",
    },
  });
  let running = true;
  const exited = new Promise<void>((done) => {
    child.once("exit", () => {
      running = false;
      done();
    });
    child.once("error", (error) => {
      options.onLine?.(`could not start the guard: ${error.message}`);
      running = false;
      done();
    });
  });
  const lines: string[] = [];
  const remember = (chunk: Buffer) => {
    for (const line of stripVTControlCharacters(chunk.toString("utf8")).split("\n")) {
      if (line.trim().length === 0) continue;
      lines.push(line);
      if (lines.length > OUTPUT_TAIL_LINES) lines.shift();
      options.onLine?.(line);
    }
  };
  child.stdout?.on("data", remember);
  child.stderr?.on("data", remember);
  const signal = (name: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      // The group is already gone.
    }
  };
  return {
    base: `http://${HOST}:${options.port}`,
    groupId: child.pid ?? -1,
    running: () => running,
    exited,
    tail: () => lines.join("\n") || "(none)",
    signal,
    async stop() {
      if (running) {
        signal("SIGTERM");
        const grace = new Promise<void>((done) => setTimeout(done, STOP_GRACE_MS).unref());
        await Promise.race([exited, grace]);
      }
      // Whatever outlived the guard goes too.
      signal("SIGKILL");
    },
  };
}

/**
 * Waits until `GET /health` answers as this server (the body proves it is not whatever might have
 * taken the probed port meanwhile); returns the wait in ms. Throws with wrangler's last output if the
 * server exits first or `timeoutMs` passes, and as soon as `abort` fires.
 */
export async function waitForHealth(server: WranglerProcess, timeoutMs: number, abort?: AbortSignal): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    abort?.throwIfAborted();
    if (!server.running()) throw new Error(`wrangler dev exited before /health answered. Last output:\n${server.tail()}`);
    try {
      const timeout = AbortSignal.timeout(HEALTH_REQUEST_TIMEOUT_MS);
      const response = await fetch(`${server.base}/health`, { signal: abort ? AbortSignal.any([abort, timeout]) : timeout });
      const text = await response.text();
      if (response.status === 200 && text.includes('"branchmind"')) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, HEALTH_POLL_MS));
  }
  throw new Error(`GET ${server.base}/health did not answer 200 within ${timeoutMs / 1000} s. Last output:\n${server.tail()}`);
}
