/**
 * The server of the end-to-end viewer tests: a real `wrangler dev` (workerd, SQLite Durable Objects,
 * the static assets of the viewer) on a free 127.0.0.1 port, in token mode with a secret made for the
 * run, serving a snapshot of the project with its state in a fresh temp dir. wrangler's `[build]`
 * step builds the viewer into the snapshot's web/dist first, as `npm run dev` does. `stop()` ends the
 * whole process group and removes the temp dir; nothing survives a run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { DEV_SERVER_ENV, freePort, HOST } from "../../../scripts/lib/dev-server";

/** wrangler's start (with the viewer's build) on a busy 2-CPU machine takes 10-30 s. */
const READY_TIMEOUT_MS = 90_000;
const HEALTH_POLL_MS = 250;
const STOP_GRACE_MS = 5_000;
const OUTPUT_TAIL_LINES = 60;
/** Top-level entries left out of the snapshot: dependencies (linked), VCS, local state, build output, artifacts. */
const SNAPSHOT_SKIP = new Set(["node_modules", ".git", ".wrangler", "bench-results", "test-artifacts", ".dev.vars", ".env", ".env.local"]);

export interface E2eServer {
  base: string;
  /** The deployment secret of this run: tokens minted with it are valid. */
  secret: string;
  startMs: number;
  stop(): Promise<void>;
}

function snapshot(root: string, into: string): void {
  cpSync(root, into, {
    recursive: true,
    filter: (source) => {
      if (dirname(source) === root && SNAPSHOT_SKIP.has(basename(source))) return false;
      // The snapshot builds its own viewer.
      return source !== join(root, "web", "dist");
    },
  });
  symlinkSync(join(root, "node_modules"), join(into, "node_modules"), "junction");
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

export async function startServer(root: string): Promise<E2eServer> {
  const started = Date.now();
  const port = await freePort();
  const work = mkdtempSync(join(tmpdir(), "branchmind-e2e-"));
  const app = join(work, "app");
  const state = join(work, "state");
  snapshot(root, app);
  mkdirSync(state);
  const secret = randomBytes(32).toString("base64url");
  const tail: string[] = [];
  const child: ChildProcess = spawn(
    join(root, "node_modules", ".bin", "wrangler"),
    ["dev", "--ip", HOST, "--port", String(port), "--var", `AUTH_SECRET:${secret}`, "--persist-to", state, "--log-level", "warn"],
    {
      cwd: app,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`, ...DEV_SERVER_ENV, NO_COLOR: "1" },
    },
  );
  let running = true;
  const exited = new Promise<void>((done) => {
    child.once("exit", () => {
      running = false;
      done();
    });
    child.once("error", () => {
      running = false;
      done();
    });
  });
  const remember = (chunk: Buffer) => {
    for (const line of stripVTControlCharacters(chunk.toString("utf8")).split("\n")) {
      if (line.trim() === "") continue;
      tail.push(line);
      if (tail.length > OUTPUT_TAIL_LINES) tail.shift();
    }
  };
  child.stdout?.on("data", remember);
  child.stderr?.on("data", remember);

  const killGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  // If the test process ends without stop() (a crash, process.exit), the server must not outlive it.
  const killOnExit = () => killGroup("SIGKILL");
  process.once("exit", killOnExit);
  const stop = async () => {
    process.off("exit", killOnExit);
    if (running) {
      killGroup("SIGTERM");
      await Promise.race([exited, sleep(STOP_GRACE_MS)]);
    }
    killGroup("SIGKILL");
    rmSync(work, { recursive: true, force: true });
  };

  const base = `http://${HOST}:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!running) break;
    try {
      const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) });
      const text = await response.text();
      if (response.status === 200 && text.includes('"branchmind"')) return { base, secret, startMs: Date.now() - started, stop };
    } catch {
      // Not listening yet.
    }
    await sleep(HEALTH_POLL_MS);
  }
  await stop();
  throw new Error(`wrangler dev did not become healthy on ${base}. Last output:\n${tail.join("\n")}`);
}
