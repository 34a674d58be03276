/**
 * `npm run bench`: latency of the MCP endpoint against a local `wrangler dev` (workerd + SQLite
 * Durable Objects), at several store sizes.
 *
 * For each size it seeds a fresh workspace through the bulk path (`workspace_import`): most notes on
 * `main`, a branch chain `chain/1` … `chain/10` (`--chain-depth`), notes on each chain branch, notes on `main` after
 * each branch was created, and late notes on the chain after the whole chain exists (so the cutoffs
 * of the effective views matter). It checks that `show` returns exactly the page the layout implies,
 * then samples client latency (fetch + body read) of `ping` (the floor: a no-op call through the same
 * Worker → Durable Object stack), `notes_commit`, `show` on `main` and `show` on the deepest branch,
 * plus `GET /health` (Worker only, no MCP, no Durable Object) as a reference outside the targets.
 *
 * It prints medians, p95s, each median's ratio to the floor and each op's growth from the smallest to
 * the largest size, and writes the results as JSON to `bench-results/`. Targets are reported, not
 * asserted. The server runs a snapshot of the project copied at start (so edits during a run cannot
 * restart it) with its state in a fresh temp dir; both are removed at the end. Network traffic goes
 * only to 127.0.0.1.
 *
 *   npm run bench -- [--sizes 1000,10000,100000] [--samples 200] [--warmup 20] [--timeout-minutes 20] [--chain-depth 10]
 *
 * This file only wires the pieces: `lib/dev-server.ts` (the server's lifetime), `lib/mcp-http.ts`
 * (the client), and `bench/` (options, layout, seeding, measurement, statistics, report).
 */
import { cpus } from "node:os";
import { resolve } from "node:path";
import { buildLayout } from "./bench/layout.ts";
import { loadAverage, machineInfo } from "./bench/machine.ts";
import { measure, OPS, opLabels, summarize, type Target } from "./bench/measure.ts";
import { type Options, parseOptions } from "./bench/options.ts";
import { fmtInt, growthOf, jsonReport, printReport, printTargets, type SizeResult, targetMisses, writeJsonReport } from "./bench/report.ts";
import { seed, verifyPage } from "./bench/seed.ts";
import { installShutdownHooks, isShuttingDown, log, shutdown, shutdownSignal, startDevServer } from "./lib/dev-server.ts";
import { createMcpClient } from "./lib/mcp-http.ts";

const ROOT = resolve(import.meta.dirname, "..");
const AGENT = "bench";

async function main(options: Options): Promise<number> {
  const startedAt = new Date();
  const machine = machineInfo(ROOT);
  const loadAtStart = loadAverage();
  if ((loadAtStart[0] ?? 0) > cpus().length * 0.5) {
    log(`warning: the machine is busy (1-min load average ${loadAtStart[0]} on ${cpus().length} CPUs); latencies will be noisy`);
  }
  const server = await startDevServer({ root: ROOT, tempPrefix: "branchmind-bench-" });
  const client = createMcpClient({
    endpoint: `${server.base}/mcp?toolset=full`,
    agentId: AGENT,
    clientName: "bench",
    signal: shutdownSignal,
  });
  const target: Target = { client, healthUrl: `${server.base}/health` };

  const deepest = `chain/${options.chainDepth}`;
  const labels = opLabels(deepest);
  const results: SizeResult[] = [];
  for (const size of options.sizes) {
    const workspace = `bench/n${size}`;
    const layout = buildLayout(size, options.chainDepth);
    log(`seeding ${workspace}: ${fmtInt(layout.notes)} notes, ${layout.branches} branches`);
    const seeding = await seed(client, workspace, layout);
    log(`  ${(seeding.ms / 1000).toFixed(1)} s in ${seeding.calls} calls`);
    await verifyPage(client, workspace, layout, "main");
    await verifyPage(client, workspace, layout, deepest);
    log(`measuring ${workspace}: ${options.warmup} warmup + ${options.samples} sample rounds of ${OPS.length} ops`);
    const times = await measure(target, workspace, deepest, options.warmup, options.samples);
    results.push({ size, workspace, seeding, ops: summarize(times) });
  }

  const growth = growthOf(results);
  machine.load_average_start = loadAtStart;
  machine.load_average_end = loadAverage();
  printReport(results, growth, machine, options, labels);
  const misses = targetMisses(results, growth, labels);
  printTargets(misses, growth);

  const finishedAt = new Date();
  const report = jsonReport({ startedAt, finishedAt, machine, options, labels, serverReadyMs: server.readyMs, results, growth, misses });
  console.log(`Results written to ${writeJsonReport(ROOT, startedAt, report)}`);
  return 0;
}

installShutdownHooks();

let options: Options;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}

const deadline = setTimeout(() => {
  console.error(`bench: overall timeout of ${options.timeoutMinutes} minutes reached; stopping the server`);
  void shutdown(1);
}, options.timeoutMinutes * 60_000);
deadline.unref();

main(options).then(
  (code) => shutdown(code),
  (error: unknown) => {
    if (!isShuttingDown()) console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    return shutdown(1);
  },
);
