/**
 * `npm run bench:peers`: the same workload, in one run, against our server and against the official
 * MCP knowledge-graph memory server (`@modelcontextprotocol/server-memory`), at several store sizes
 * (1,000 / 10,000 / 100,000 entities by default).
 *
 * Ours runs as `npm run bench` runs it: a snapshot of the project under `wrangler dev` on a free
 * loopback port with fresh state (`lib/dev-server.ts`), spoken to over MCP HTTP on `?toolset=full`
 * (`lib/mcp-http.ts`). Theirs runs as a child process on stdio, driven by the MCP SDK's client, with a
 * fresh JSONL file per size in a temporary directory.
 *
 * For each size, both sides are seeded with the same entities (ours: graph nodes through
 * `workspace_import`; theirs: `create_entities`, in the same batches) and checked; then rounds of
 * ping, write one entity, open one by id, and a search whose term is planted in `--hits` entities are
 * sampled on both sides, interleaved, every answer checked, each op bounded in time; then bursts of
 * concurrent writes are fired and read back (how many are kept). It prints both sides, each side's
 * cost above its own floor, and our/their ratios, and writes everything (samples, machine, load
 * averages) to `bench-results/peers-<timestamp>.json`. See docs/peers.md.
 *
 *   npm run bench:peers -- [--sizes 1000,10000,100000] [--samples 50] [--warmup 5] [--hits 10] [--seed-batch 2000]
 *                          [--op-budget-seconds 60] [--seed-budget-minutes 5] [--call-timeout-seconds 120]
 *                          [--burst 20] [--burst-rounds 3] [--timeout-minutes 40]
 */
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import { loadAverage, machineInfo } from "./bench/machine.ts";
import { fmtInt, writeJsonReport } from "./bench/report.ts";
import { log, runScript, shutdownSignal, startDevServer } from "./lib/dev-server.ts";
import { createMcpClient } from "./lib/mcp-http.ts";
import { type PeerOptions, parsePeerOptions } from "./peers/options.ts";
import { OurSide } from "./peers/ours.ts";
import { type PeerRun, peerJson, peerLines } from "./peers/report.ts";
import { type PeerSizeResult, runSize } from "./peers/run.ts";
import type { SideName } from "./peers/side.ts";
import { SERVER_ENTRY, TheirSide } from "./peers/theirs.ts";

const ROOT = resolve(import.meta.dirname, "..");
const AGENT = "bench-peers";

function peerVersion(): string {
  const manifest = join(ROOT, SERVER_ENTRY, "..", "..", "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version ?? "unknown";
}

async function main(options: PeerOptions): Promise<number> {
  const startedAt = new Date();
  const machine = machineInfo(ROOT);
  const loadAtStart = loadAverage();
  if ((loadAtStart[0] ?? 0) > cpus().length * 0.5) {
    log(`warning: the machine is busy (1-min load average ${loadAtStart[0]} on ${cpus().length} CPUs); latencies will be noisy`);
  }
  const server = await startDevServer({ root: ROOT, tempPrefix: "branchmind-bench-peers-" });
  const endpoint = `${server.base}/mcp?toolset=full`;
  const callTimeoutMs = options.callTimeoutSeconds * 1000;
  const client = createMcpClient({ endpoint, agentId: AGENT, clientName: "bench-peers", signal: shutdownSignal, timeoutMs: callTimeoutMs });
  const ours = new OurSide(client, endpoint.replace(/^http:\/\/[^/]+/, "http://127.0.0.1:<port>"), callTimeoutMs);
  const theirs = new TheirSide(ROOT, peerVersion(), callTimeoutMs);
  const sides = [ours, theirs];

  const results: PeerSizeResult[] = [];
  const loadBySize: PeerRun["loadBySize"] = [];
  for (const size of options.sizes) {
    log(`\n== ${fmtInt(size)} entities ==`);
    const start = loadAverage();
    results.push(await runSize(size, sides, options));
    loadBySize.push({ size, start, end: loadAverage() });
  }

  machine.load_average_start = loadAtStart;
  machine.load_average_end = loadAverage();
  const descriptions: Record<SideName, string> = { ours: ours.description, theirs: theirs.description };
  console.log(peerLines(machine, options, results, descriptions).join("\n"));
  const finishedAt = new Date();
  const report = peerJson({ startedAt, finishedAt, machine, options, descriptions, serverReadyMs: server.readyMs, loadBySize, results });
  console.log(`\nResults written to ${writeJsonReport(ROOT, startedAt, report, "peers")}`);
  return 0;
}

runScript("bench:peers", parsePeerOptions, main);
