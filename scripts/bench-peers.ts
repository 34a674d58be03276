/**
 * `npm run bench:peers`: the same workload, in one run, against our server and against peer MCP
 * memory servers, at several store sizes (1,000 / 10,000 / 100,000 entities by default). The peers
 * (`--peers`, both by default): the official knowledge-graph memory server
 * (`@modelcontextprotocol/server-memory`, a devDependency) and `mcp-memory-keeper` (SQLite through
 * better-sqlite3, installed on demand into `.peer-installs/`, never by `npm ci`).
 *
 * Ours runs as `npm run bench` runs it: a snapshot of the project under `wrangler dev` on a free
 * loopback port with fresh state (`lib/dev-server.ts`), spoken to over MCP HTTP on `?toolset=full`
 * (`lib/mcp-http.ts`). Each peer runs as a child process of this Node on stdio, driven by the MCP
 * SDK's client, with a fresh store per size in a temporary directory and a fresh process per size.
 *
 * For each size, every side is seeded with the same entities (ours: graph nodes through
 * `workspace_import`; server-memory: `create_entities`; memory-keeper: `context_batch_save`) and
 * checked; then rounds of ping, write one entity, open one by id, and a search whose term is planted
 * in `--hits` entities are sampled on every side, interleaved, every answer checked, each op bounded
 * in time; then bursts of concurrent writes are fired and read back (how many are kept). It prints
 * every side, each side's cost above its own floor, and our ratio to each peer, and writes everything
 * (samples, machine, load averages) to `bench-results/peers-<timestamp>.json`. See docs/peers.md.
 *
 *   npm run bench:peers -- [--peers server-memory,memory-keeper] [--sizes 1000,10000,100000] [--samples 50] [--warmup 5]
 *                          [--hits 10] [--seed-batch 2000] [--op-budget-seconds 60] [--seed-budget-minutes 5]
 *                          [--api-seed-budget-minutes 30] [--call-timeout-seconds 120] [--burst 20] [--burst-rounds 3]
 *                          [--timeout-minutes 90]
 */
import { cpus } from "node:os";
import { resolve } from "node:path";
import { loadAverage, machineInfo } from "./bench/machine.ts";
import { fmtInt, writeJsonReport } from "./bench/report.ts";
import { log, runScript, shutdownSignal, startDevServer } from "./lib/dev-server.ts";
import { createMcpClient } from "./lib/mcp-http.ts";
import { MemoryKeeperSide } from "./peers/memory-keeper.ts";
import { type PeerOptions, parsePeerOptions } from "./peers/options.ts";
import { OurSide } from "./peers/ours.ts";
import { type PeerRun, peerJson, peerLines } from "./peers/report.ts";
import { type PeerSizeResult, runSize } from "./peers/run.ts";
import { ServerMemorySide } from "./peers/server-memory.ts";
import type { PeerName, Side, SideName } from "./peers/side.ts";

const ROOT = resolve(import.meta.dirname, "..");
const AGENT = "bench-peers";

/** The peer sides of the run; memory-keeper is installed (or its install reused) here, before any server starts. */
async function peerSides(peers: readonly PeerName[], callTimeoutMs: number): Promise<Side[]> {
  const sides: Side[] = [];
  for (const peer of peers) {
    sides.push(peer === "server-memory" ? new ServerMemorySide(ROOT, callTimeoutMs) : await MemoryKeeperSide.create(ROOT, callTimeoutMs));
  }
  return sides;
}

async function main(options: PeerOptions): Promise<number> {
  const startedAt = new Date();
  const machine = machineInfo(ROOT);
  const loadAtStart = loadAverage();
  if ((loadAtStart[0] ?? 0) > cpus().length * 0.5) {
    log(`warning: the machine is busy (1-min load average ${loadAtStart[0]} on ${cpus().length} CPUs); latencies will be noisy`);
  }
  const callTimeoutMs = options.callTimeoutSeconds * 1000;
  const peers = await peerSides(options.peers, callTimeoutMs);
  const server = await startDevServer({ root: ROOT, tempPrefix: "branchmind-bench-peers-" });
  const endpoint = `${server.base}/mcp?toolset=full`;
  const client = createMcpClient({ endpoint, agentId: AGENT, clientName: "bench-peers", signal: shutdownSignal, timeoutMs: callTimeoutMs });
  const ours = new OurSide(client, endpoint.replace(/^http:\/\/[^/]+/, "http://127.0.0.1:<port>"), callTimeoutMs);
  const sides: Side[] = [ours, ...peers];

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
  const descriptions: Partial<Record<SideName, string>> = Object.fromEntries(sides.map((side) => [side.name, side.description]));
  console.log(peerLines(machine, options, results, descriptions).join("\n"));
  const finishedAt = new Date();
  const report = peerJson({ startedAt, finishedAt, machine, options, descriptions, serverReadyMs: server.readyMs, loadBySize, results });
  console.log(`\nResults written to ${writeJsonReport(ROOT, startedAt, report, "peers")}`);
  return 0;
}

runScript("bench:peers", parsePeerOptions, main);
