/**
 * `npm run load`: load and crash test against a local `wrangler dev` (workerd + SQLite Durable Objects)
 * with persisted state. N agents (`--agents`, default 50; in dev auth mode each is its own agent through
 * the `X-Agent-Id` header, the local equivalent of one token each) run `--ops` operations each (default
 * 200) over `--workspaces` workspaces (default 3, half the load on the first). After `--kill-after` of
 * all operations (default 0.5) the server's process group gets `kill -9`, calls in flight count as
 * unknown, wrangler restarts on the same state and the agents go on (replaying their unknown writes
 * with the same idempotency key). Then it reads everything back (`load/verify.ts`), prints a summary and
 * exits 1 on any lost or duplicated write, partial write, clock or lease violation. Before the agents
 * start, it measures what the local stack can carry at all (`load/ceiling.ts`: /health, ping,
 * notes_commit and think_card per second at the agents' concurrency), so writes per second can be read
 * against it. `--ceiling-only` stops after the ceiling (no agents, no kill -9); `--compare-root DIR` runs
 * the ceiling's phases on a second server too, from a checkout of an earlier revision, side by side.
 * The summary goes to stdout, and as JSON to `bench-results/load-<time>.json`. Loopback only.
 *
 *   npm run load -- [--agents 50] [--ops 200] [--workspaces 3] [--kill-after 0.5] [--timeout-minutes 10] [--steps 6]
 *                   [--ceiling-only] [--compare-root DIR]
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { loadAverage, machineInfo } from "./bench/machine.ts";
import { writeJsonReport } from "./bench/report.ts";
import { log } from "./lib/dev-server.ts";
import { createMcpClient, type Json, type McpClient } from "./lib/mcp-http.ts";
import { runAgent, type Shared, setupWorkspace, type WorkspaceSetup } from "./load/agents.ts";
import {
  CEILING_DOC,
  CEILING_GRAPH_DOC,
  CEILING_ROUNDS,
  CEILING_SECONDS,
  CEILING_TRACE_DOC,
  type Ceiling,
  type CeilingTarget,
  ceilingFailures,
  ceilingLines,
  measureCeiling,
} from "./load/ceiling.ts";
import { type LoadOptions, parseOptions } from "./load/options.ts";
import { LoadServer } from "./load/server.ts";
import { verify } from "./load/verify.ts";

const ROOT = resolve(import.meta.dirname, "..");
/** The workspace the agents load most, and the ceiling's. */
const HOT = "load/w0";

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function client(base: string, signal: AbortSignal): McpClient {
  return createMcpClient({ endpoint: `${base}/mcp?toolset=full`, agentId: "load-admin", clientName: "load", signal });
}

/** The ceiling on this checkout's server, and on the earlier revision's when compared (stopped afterwards). */
async function ceilingOf(options: LoadOptions, admin: McpClient, server: LoadServer, before: LoadServer | undefined, signal: AbortSignal) {
  const targets: CeilingTarget[] = [{ label: "now", base: server.base, client: admin }];
  if (before !== undefined) {
    const other = client(before.base, signal);
    await other.callTool("init", { workspace: HOT });
    targets.push({ label: "before", base: before.base, client: other });
  }
  log(
    `load: measuring the stack's ceiling, ${options.agents} at a time: ${CEILING_SECONDS} s of GET /health, then ${CEILING_ROUNDS} rounds of ${CEILING_SECONDS} s each of ping, notes_commit and think_card on ${HOT}` +
      (before === undefined ? "" : `, on this checkout and on ${options.compareRoot} in turn`),
  );
  const ceiling = await measureCeiling(targets, HOT, options.agents, signal);
  if (before !== undefined) await before.stop();
  return ceiling;
}

/** A busy machine moves every rate: the summary says how busy it was. */
function machineLine(loadAtStart: readonly number[]): string {
  return `1-minute load average ${loadAtStart[0]} at the start, ${loadAverage()[0]} at the end, on ${availableParallelism()} CPUs`;
}

function writeReport(
  startedAt: Date,
  loadAtStart: number[],
  options: LoadOptions,
  ceiling: Ceiling,
  run: Json | null,
  pass: boolean,
): void {
  const report: Json = {
    kind: "load",
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    machine: machineInfo(ROOT),
    load_average: { at_start: loadAtStart, at_end: loadAverage() },
    options,
    ceiling: { ...ceiling, notes_doc: CEILING_DOC, graph_doc: CEILING_GRAPH_DOC, trace_doc: CEILING_TRACE_DOC },
    run,
    pass,
  };
  log(`load: report written to ${writeJsonReport(ROOT, startedAt, report, "load")}`);
}

async function main(options: LoadOptions, server: LoadServer, before: LoadServer | undefined): Promise<number> {
  const startedAt = new Date();
  const loadAtStart = loadAverage();
  log(
    options.ceilingOnly
      ? `load: the stack's ceiling only, ${options.agents} at a time${before === undefined ? "" : `, against ${options.compareRoot}`}`
      : `load: ${options.agents} agents × ${options.ops} ops over ${options.workspaces} workspaces, kill -9 after ${options.killAfter * 100}%`,
  );
  await server.start();
  if (before !== undefined) await before.start();
  const ending = new AbortController();
  const endpoint = `${server.base}/mcp?toolset=full`;
  const admin = client(server.base, ending.signal);
  const setups: WorkspaceSetup[] = [];
  if (options.ceilingOnly) await admin.callTool("init", { workspace: HOT });
  else for (let i = 0; i < options.workspaces; i++) setups.push(await setupWorkspace(admin, `load/w${i}`, options.steps));
  const ceiling = await ceilingOf(options, admin, server, before, ending.signal);
  const ceilingBad = ceilingFailures(ceiling);

  if (options.ceilingOnly) {
    console.log(
      [
        `load --ceiling-only: ${options.agents} concurrent on ${HOT} (local workerd)`,
        ...ceilingLines(ceiling, options.compareRoot),
        machineLine(loadAtStart),
        `lost ${ceiling.revisions.reduce((n, r) => n + r.notes.lost + r.cards.lost, 0)}, duplicated ${ceiling.revisions.reduce((n, r) => n + r.notes.duplicated + r.cards.duplicated, 0)}`,
      ].join("\n"),
    );
    ending.abort();
    writeReport(startedAt, loadAtStart, options, ceiling, null, ceilingBad === 0);
    console.log(ceilingBad === 0 ? "load: PASS" : "load: FAIL");
    return ceilingBad === 0 ? 0 : 1;
  }

  const total = options.agents * options.ops;
  const killAt = Math.floor(total * options.killAfter);
  let restartMs = 0;
  let downMs = 0;
  let killPromise: Promise<void> | null = null;
  const shared: Shared = {
    endpoint,
    signal: ending.signal,
    gate: null,
    killed: false,
    opsDone: 0,
    writesAcked: 0,
    errors: 0,
    latencies: [],
    ledger: [],
    onOp: () => {
      if (killPromise !== null || options.killAfter >= 1 || shared.opsDone < killAt) return;
      let open = () => {};
      shared.gate = new Promise<void>((done) => {
        open = done;
      });
      killPromise = (async () => {
        const down = performance.now();
        log(`load: kill -9 at ${shared.opsDone} ops`);
        shared.killed = true;
        await server.kill9();
        restartMs = await server.start();
        downMs = performance.now() - down;
        log(`load: restarted on the same state in ${(restartMs / 1000).toFixed(1)} s`);
        shared.gate = null;
        open();
      })();
    },
  };
  const started = performance.now();
  const progress = setInterval(() => {
    const s = (performance.now() - started) / 1000;
    log(
      `  ${s.toFixed(0)} s: ops ${shared.opsDone}/${total}, writes acked ${shared.writesAcked}, errors ${shared.errors}, ${(shared.writesAcked / s).toFixed(0)} writes/s`,
    );
  }, 3_000);
  await Promise.all(Array.from({ length: options.agents }, (_, i) => runAgent(i, options.ops, setups, shared)));
  if (killPromise !== null) await killPromise;
  clearInterval(progress);
  const runMs = performance.now() - started;

  log("load: verifying");
  const verdict = await verify(admin, setups, shared.ledger);
  const ledger = shared.ledger;
  const writes = ledger.filter((e) => !e.replayed);
  const count = (outcome: string) => writes.filter((e) => e.outcome === outcome).length;
  const replays = ledger.filter((e) => e.replayed);
  const unexpected = writes.filter((e) => e.outcome === "unknown" && e.error?.startsWith("(no kill)"));
  const sorted = [...shared.latencies].sort((a, b) => a - b);
  const liveSeconds = (runMs - downMs) / 1000;
  const hot = ledger.filter((e) => e.ws === "load/w0" && e.outcome === "acked").length;
  const rejected = new Map<string, number>();
  for (const e of writes.filter((w) => w.outcome === "rejected"))
    rejected.set(`${e.kind}:${e.error}`, (rejected.get(`${e.kind}:${e.error}`) ?? 0) + 1);
  const lines = [
    `load: ${options.agents} agents × ${options.ops} ops, ${options.workspaces} workspaces, kill -9 after ${killPromise === null ? "never" : `${killAt} ops`} (local workerd)`,
    `ops ${shared.opsDone}, writes ${writes.length}: acked ${count("acked")}, rejected ${count("rejected")} (${[...rejected].map(([k, v]) => `${k} ${v}`).join(", ") || "none"}), unknown ${count("unknown")} (replayed ${replays.length}, replay acked ${replays.filter((e) => e.outcome === "acked").length}), network errors outside the kill ${unexpected.length}`,
    `lost ${verdict.lost}, duplicated ${verdict.duplicated}, partial ${verdict.partial}, seq/tick violations ${verdict.seqViolations}, lease violations ${verdict.leaseViolations}`,
    `latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms over ${sorted.length} answered calls`,
    `writes/s ${(count("acked") / liveSeconds).toFixed(0)} overall, ${(hot / liveSeconds).toFixed(0)} on the hot workspace load/w0 (${liveSeconds.toFixed(1)} s with the server up; down ${(downMs / 1000).toFixed(1)} s, restart ${(restartMs / 1000).toFixed(1)} s)`,
    ...ceilingLines(ceiling, options.compareRoot),
    machineLine(loadAtStart),
    `read back: ${verdict.found.notes} notes, ${verdict.found.cards} cards (${verdict.found.trace} trace entries), ${verdict.found.records} records, ${verdict.found.leaseEvents} lease events`,
    ...verdict.problems.map((p) => `  problem: ${p}`),
  ];
  console.log(lines.join("\n"));
  ending.abort();
  const bad =
    verdict.lost + verdict.duplicated + verdict.partial + verdict.seqViolations + verdict.leaseViolations + unexpected.length + ceilingBad;
  const run: Json = {
    ops: shared.opsDone,
    writes: writes.length,
    acked: count("acked"),
    rejected: count("rejected"),
    rejected_by: Object.fromEntries(rejected),
    unknown: count("unknown"),
    replayed: replays.length,
    replay_acked: replays.filter((e) => e.outcome === "acked").length,
    network_errors_outside_kill: unexpected.length,
    killed_at_ops: killPromise === null ? null : killAt,
    lost: verdict.lost,
    duplicated: verdict.duplicated,
    partial: verdict.partial,
    seq_violations: verdict.seqViolations,
    lease_violations: verdict.leaseViolations,
    latency_ms: { p50: percentile(sorted, 50), p99: percentile(sorted, 99), answered: sorted.length },
    writes_per_s: count("acked") / liveSeconds,
    hot_writes_per_s: hot / liveSeconds,
    live_s: liveSeconds,
    down_s: downMs / 1000,
    restart_s: restartMs / 1000,
    read_back: verdict.found,
    problems: verdict.problems,
  };
  writeReport(startedAt, loadAtStart, options, ceiling, run, bad === 0);
  console.log(bad === 0 ? "load: PASS" : "load: FAIL");
  return bad === 0 ? 0 : 1;
}

let options: LoadOptions;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  console.error(`load: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
const server = new LoadServer(ROOT);
const before = options.compareRoot === undefined ? undefined : new LoadServer(options.compareRoot, { modules: ROOT, label: "before" });
process.on("exit", () => {
  server.dispose();
  before?.dispose();
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => process.exit(130));
setTimeout(() => {
  console.error(`load: overall timeout of ${options.timeoutMinutes} minutes reached`);
  process.exit(1);
}, options.timeoutMinutes * 60_000).unref();
main(options, server, before).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`load failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  },
);
