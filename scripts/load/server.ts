/**
 * The load test's server: like `lib/dev-server.ts` (snapshot of the project in a temp dir, `wrangler dev`
 * on 127.0.0.1 with its persisted state next to it, started by `lib/wrangler-dev.ts`), but it can
 * `kill -9` the whole process group mid-run and start `wrangler dev` again on the same port and the
 * same persisted state. `lib/dev-server.ts` keeps one server per process with fresh state, so this
 * module owns its own server. A second one (`--compare-root`) serves a checkout of an earlier revision
 * with this checkout's `node_modules` and wrangler, as `lib/dev-server.ts`'s `modules` option does.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { log } from "../lib/dev-server.ts";
import {
  DEV_SERVER_ENV,
  freePort,
  HOST,
  snapshotProject,
  spawnWrangler,
  type WranglerProcess,
  waitForHealth,
} from "../lib/wrangler-dev.ts";

const HEALTH_TIMEOUT_MS = 60_000;
/** After a `kill -9`, how long to wait for the port to stop answering (workerd may linger a moment). */
const PORT_RELEASE_TIMEOUT_MS = 10_000;
const PORT_PROBE_MS = 250;

export class LoadServer {
  readonly root: string;
  /** The project whose node_modules the snapshot links and whose wrangler runs (default `root`). */
  readonly modules: string;
  readonly workDir: string;
  readonly app: string;
  readonly state: string;
  /** Prefixes its log lines and temp dir (e.g. `before` for the server of `--compare-root`). */
  readonly label: string | undefined;
  port = 0;
  private server: WranglerProcess | undefined;

  constructor(root: string, options: { modules?: string; label?: string } = {}) {
    this.root = root;
    this.modules = options.modules ?? root;
    this.label = options.label;
    this.workDir = mkdtempSync(join(tmpdir(), options.label === undefined ? "branchmind-load-" : `branchmind-load-${options.label}-`));
    this.app = join(this.workDir, "app");
    this.state = join(this.workDir, "state");
    snapshotProject(root, this.app, this.modules);
    mkdirSync(this.state);
  }

  get base(): string {
    return `http://${HOST}:${this.port}`;
  }

  /** Starts wrangler dev on the persisted state (same port on a restart) and waits for `/health`; returns ms. */
  async start(): Promise<number> {
    if (this.port === 0) this.port = await freePort();
    this.server = spawnWrangler({
      root: this.modules,
      app: this.app,
      state: this.state,
      port: this.port,
      vars: { AUTH_MODE: "dev" },
      env: DEV_SERVER_ENV,
      onLine: (line) => log(`[wrangler${this.label === undefined ? "" : ` ${this.label}`}] ${line}`),
    });
    return waitForHealth(this.server, HEALTH_TIMEOUT_MS);
  }

  /** `kill -9` of wrangler's whole process group (guard, wrangler, workerd); waits until the port is free. */
  async kill9(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.signal("SIGKILL");
    await server.exited;
    // workerd may linger for a moment after the guard: wait until nothing answers on the port.
    const deadline = Date.now() + PORT_RELEASE_TIMEOUT_MS;
    while (Date.now() < deadline) {
      try {
        await fetch(`${this.base}/health`, { signal: AbortSignal.timeout(PORT_PROBE_MS * 2) });
      } catch {
        return;
      }
      await new Promise((done) => setTimeout(done, PORT_PROBE_MS));
    }
  }

  /** A graceful stop (SIGTERM, then SIGKILL after a grace period) and the temp dir removed: a server no longer needed. */
  async stop(): Promise<void> {
    await this.server?.stop();
    this.dispose();
  }

  /** Last resort and normal end: kill the group and remove the temp dir. Synchronous (safe in `exit`). */
  dispose(): void {
    this.server?.signal("SIGKILL");
    this.server = undefined;
    try {
      rmSync(this.workDir, { recursive: true, force: true });
    } catch (error) {
      log(`warning: could not remove ${this.workDir}: ${String(error)}`);
    }
  }
}
