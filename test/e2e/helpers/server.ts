/**
 * The server of the end-to-end tests: a real `wrangler dev` (workerd, SQLite Durable Objects, the
 * static assets of the viewer) on a free 127.0.0.1 port, in token mode with a secret made for the
 * run, serving a snapshot of the project with its state in a fresh temp dir (or in the caller's
 * `state` dir, which outlives the server). wrangler's `[build]` step builds the viewer into the
 * snapshot's web/dist first, as `npm run dev` does.
 *
 * Nothing survives a run: `stop()` ends the whole process group and removes the temp dir, and if the
 * test process ends without calling it (a failed setup, a crash, the runner killing its worker), the
 * guard the server runs under (scripts/lib/process-guard.ts) ends the group when this process's end
 * of its pipe closes. `groupId` names the group, so a test can check that nothing of it is left.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEV_SERVER_ENV, freePort, snapshotProject, spawnWrangler, waitForHealth } from "../../../scripts/lib/wrangler-dev.ts";

/** wrangler's start (with the viewer's build) on a busy 2-CPU machine takes 10-30 s. */
const READY_TIMEOUT_MS = 90_000;

export interface E2eServer {
  base: string;
  /** The deployment secret of this run: tokens minted with it are valid. */
  secret: string;
  startMs: number;
  /** The process group of the server (the guard's pid): wrangler, workerd and the guard. */
  groupId: number;
  stop(): Promise<void>;
}

/** A deployment that offers OAuth binds its KV namespace (docs/oauth.md); locally wrangler simulates it. */
const OAUTH_KV_BINDING = '\n[[kv_namespaces]]\nbinding = "OAUTH_KV"\nid = "e2e-oauth-kv"\n';

export interface ServerOptions {
  /** Bind OAUTH_KV in the snapshot's wrangler.toml, which switches OAuth on. */
  oauth?: boolean;
  /**
   * Persist to this dir instead of a fresh one: the caller owns it (`stop()` leaves it), so another
   * server can start on the same state (the upgrade test).
   */
  state?: string;
  /** Each non-empty line wrangler prints (at level `warn`), without terminal escapes. */
  onLine?: (line: string) => void;
  /**
   * The deployment's secrets instead of a fresh `AUTH_SECRET` (a key rotation: `AUTH_KEY_ID`,
   * `AUTH_SECRETS`); `secret` is then their `AUTH_SECRET`.
   */
  secrets?: Readonly<Record<string, string>>;
  /** Serve on this port rather than a free one: a restart that clients must find at the same origin. */
  port?: number;
}

export async function startServer(root: string, options: ServerOptions = {}): Promise<E2eServer> {
  const started = Date.now();
  const port = options.port ?? (await freePort());
  const work = mkdtempSync(join(tmpdir(), "branchmind-e2e-"));
  const app = join(work, "app");
  const state = options.state ?? join(work, "state");
  let server: ReturnType<typeof spawnWrangler> | undefined;
  const stop = async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    snapshotProject(root, app);
    if (options.oauth === true) appendFileSync(join(app, "wrangler.toml"), OAUTH_KV_BINDING);
    if (options.state === undefined) mkdirSync(state);
    const secret = options.secrets?.AUTH_SECRET ?? randomBytes(32).toString("base64url");
    server = spawnWrangler({
      root,
      app,
      state,
      port,
      vars: {},
      secrets: { ...options.secrets, AUTH_SECRET: secret },
      env: DEV_SERVER_ENV,
      ...(options.onLine === undefined ? {} : { onLine: options.onLine }),
    });
    await waitForHealth(server, READY_TIMEOUT_MS);
    return { base: server.base, secret, startMs: Date.now() - started, groupId: server.groupId, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
