/**
 * The load test's server: like `lib/dev-server.ts` (snapshot of the project in a temp dir, `wrangler dev`
 * on 127.0.0.1 with its persisted state next to it, wrangler's outbound traffic off), but it can
 * `kill -9` the whole process group mid-run and start `wrangler dev` again on the same port and the
 * same persisted state. `lib/dev-server.ts` keeps one server per process with fresh state, so this
 * module owns its own child; it reuses that module's helpers only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { stripVTControlCharacters } from "node:util";
import { DEV_SERVER_ENV, freePort, HOST, log } from "../lib/dev-server.ts";

const SNAPSHOT_SKIP = new Set(["node_modules", ".git", ".wrangler", "bench-results", ".dev.vars", ".env", ".env.local"]);
const HEALTH_TIMEOUT_MS = 60_000;

export class LoadServer {
  readonly root: string;
  readonly workDir: string;
  readonly app: string;
  readonly state: string;
  port = 0;
  private child: ChildProcess | undefined;
  private running = false;
  private readonly tail: string[] = [];

  constructor(root: string) {
    this.root = root;
    this.workDir = mkdtempSync(join(tmpdir(), "branchmind-load-"));
    this.app = join(this.workDir, "app");
    this.state = join(this.workDir, "state");
    cpSync(root, this.app, {
      recursive: true,
      filter: (source) => dirname(source) !== root || !SNAPSHOT_SKIP.has(basename(source)),
    });
    symlinkSync(join(root, "node_modules"), join(this.app, "node_modules"), "junction");
    mkdirSync(this.state);
  }

  get base(): string {
    return `http://${HOST}:${this.port}`;
  }

  /** Starts wrangler dev on the persisted state (same port on a restart) and waits for `/health`; returns ms. */
  async start(): Promise<number> {
    if (this.port === 0) this.port = await freePort();
    const wrangler = join(this.root, "node_modules", ".bin", "wrangler");
    const args = [
      "dev",
      "--ip",
      HOST,
      "--port",
      String(this.port),
      "--var",
      "AUTH_MODE:dev",
      "--persist-to",
      this.state,
      "--log-level",
      "warn",
    ];
    const child = spawn(wrangler, args, {
      cwd: this.app,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`, ...DEV_SERVER_ENV, NO_COLOR: "1" },
    });
    this.child = child;
    this.running = true;
    child.once("exit", () => {
      if (this.child === child) this.running = false;
    });
    const remember = (chunk: Buffer) => {
      for (const line of stripVTControlCharacters(chunk.toString("utf8")).split("\n")) {
        if (line.trim().length === 0) continue;
        this.tail.push(line);
        if (this.tail.length > 40) this.tail.shift();
        log(`[wrangler] ${line}`);
      }
    };
    child.stdout?.on("data", remember);
    child.stderr?.on("data", remember);
    const started = performance.now();
    while (performance.now() - started < HEALTH_TIMEOUT_MS) {
      if (!this.running) throw new Error(`wrangler dev exited before /health answered:\n${this.tail.join("\n")}`);
      try {
        const response = await fetch(`${this.base}/health`, { signal: AbortSignal.timeout(2_000) });
        const text = await response.text();
        if (response.status === 200 && text.includes('"branchmind"')) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((done) => setTimeout(done, 250));
    }
    throw new Error(`/health did not answer within ${HEALTH_TIMEOUT_MS / 1000} s:\n${this.tail.join("\n")}`);
  }

  /** `kill -9` of wrangler's whole process group (wrangler, workerd, esbuild); waits until the port is free. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (child?.pid === undefined) return;
    const exited = new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) done();
      else child.once("exit", () => done());
    });
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
    await Promise.race([exited, new Promise((done) => setTimeout(done, 5_000))]);
    this.running = false;
    // workerd may linger for a moment after the wrapper: wait until nothing answers on the port.
    for (let i = 0; i < 40; i++) {
      try {
        await fetch(`${this.base}/health`, { signal: AbortSignal.timeout(500) });
      } catch {
        return;
      }
      await new Promise((done) => setTimeout(done, 250));
    }
  }

  /** Last resort and normal end: kill the group and remove the temp dir. Synchronous (safe in `exit`). */
  dispose(): void {
    if (this.child?.pid !== undefined) {
      try {
        process.kill(-this.child.pid, "SIGKILL");
      } catch {
        // already gone
      }
      this.child = undefined;
    }
    try {
      rmSync(this.workDir, { recursive: true, force: true });
    } catch (error) {
      log(`warning: could not remove ${this.workDir}: ${String(error)}`);
    }
  }
}
