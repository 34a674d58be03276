/**
 * `npm run bench`: latency of the MCP endpoint against a local `wrangler dev` (workerd + SQLite
 * Durable Objects), at several store sizes, in ten suites (`--suites notes,common,graph,packs,portals,records,answers,cards,ready,frontier`,
 * all by default).
 *
 * Notes: for each size it seeds a fresh workspace through the bulk path (`workspace_import`): most
 * notes on `main`, a branch chain `chain/1` … `chain/30` (the deepest of `--depths`), notes on each chain branch,
 * notes on `main` after each branch was created, and late notes on the chain after the whole chain
 * exists (so the cutoffs of the effective views matter). It checks that `show` returns exactly the
 * page the layout implies, then samples client latency (fetch + body read) of `ping` (the floor: a
 * no-op call through the same Worker → Durable Object stack), `notes_commit`, `show` on `main` and on
 * the chain branch at each of `--depths` (1, 10, 30), plus `GET /health` (Worker only, no MCP, no
 * Durable Object) as a reference.
 *
 * Common: at the same sizes, a workspace of that many notes plus a small working set (a focused task
 * with steps, cards, knowledge cards, jobs, records), and the 26 commands agents call most (the
 * portals' golden ops, flat), reads and writes, each answer checked (see `bench/common-*.ts`). With
 * `--compare-root DIR` the same workspace is also seeded on DIR's server and both are sampled in the
 * same rounds: each op's ratio to its own floor on both, and the difference (`bench/common-compare.ts`).
 *
 * Graph: for each size (`--graph-sizes`, in nodes) it seeds a graph of n nodes, 2n edges and about
 * 10n versions on `main` plus a chain `gchain/1` … `gchain/10` (`--chain-depth`) with writes on main after each branch,
 * checks `graph_query` pages and cutoff probes against a model of every version, then samples `ping`,
 * `graph_query` (50 nodes with edges) and `graph_apply` (10 ops) on the deepest branch (see `bench/graph-*.ts`).
 *
 * Packs: for each size (`--pack-sizes`, in trace entries) it seeds a working session on `main`: n
 * trace entries, n/5 cards (graph nodes of card types, with status updates), 2,000 notes; checks
 * `context_pack` (default, audit and 2,000-character budgets) and `think_context` against a model of
 * every seq, then samples `ping`, `context_pack`, `context_pack max_chars=2000` and `think_context`,
 * each answer checked on the fly (see `bench/packs-*.ts`).
 *
 * Portals: one small workspace (a plan, a focused task with 3 steps, 30 notes on `main`, 4 on the task),
 * and the same calls made flat on `?toolset=full` and through their portal on `?toolset=portals` (a
 * second client, same agent): `ping` (the floor) vs `system {op: "call", cmd: "system.ping"}`, `status`
 * vs the `status` portal, `show` vs `docs show`, `notes_commit` vs `vcs notes.commit`, `tasks_snapshot`
 * vs `tasks snapshot`, and `tools/list` on both toolsets (latency and body size). Every answer is
 * checked on the fly: portal answers carry the capsule of the seeded focus, flat ones none (but the
 * snapshot's own). Its target is portal median / flat median ≤ 1.15 for each pair. It has no sizes and
 * adds under a minute to a default run, so it is in the default list (see `bench/portals-*.ts`).
 *
 * Answers: a modest task (a plan, a focused task with 3 steps, notes, step notes, hypotheses with
 * evidence, a decision, trace steps) and the reads an agent resumes with — context_pack, tasks_snapshot,
 * tasks_resume_super, think_watch, open TASK-… — measured as characters under the audit profile, the ids
 * they name, the ids the default budget keeps, and latency at the default budget. `--compare-root DIR`
 * serves a checkout of an earlier revision beside this one (same seed, same rounds) for before/after
 * sizes and medians in one run, and fails the run if a read under audit lost an id (see `bench/answers-*.ts`).
 *
 * Records: 200 small projects (create_project and an import each, for `list_projects`), then for each
 * size (`--record-sizes`, in records) a project `bench/r<n>` seeded through `workspace_import` record
 * ops: a record with 1,000 children (half OPEN) and grandchildren, and a spread of topics with Zipf
 * text. It checks the overview, the big record's children, search totals and results, the context
 * bundle and a list_projects page of 200+ against the model, then samples `ping`, `search_records`
 * (a common and a rare word), `activate` of the big record in a new session, `get_record_ref` and
 * `list_projects {limit: 500}`, every answer checked (see `bench/records-*.ts`). It adds about two minutes
 * to a default run (seeding about one), so it is in the default list.
 *
 * Cards: for each size (`--card-sizes`, cards per doc) a focused task with an open step, and two card
 * docs of that many cards (the checkout's and the task's), imported through `workspace_import`: the
 * oldest cards open (some step-tagged), the rest closed, 10% other agents' drafts, a 3-deep chain. It
 * checks the views against a model, then samples `status`, `think_next`, `think_frontier`,
 * `context_pack`, `tasks_snapshot` and `graph_query` by type, against a target of 1.5 ms above the
 * floor and 1.2× growth (see `bench/cards-*.ts`).
 *
 * Ready: 10 plans of 1,000 tasks and 20,000 dependencies, restored through `workspace_import {jsonl}`
 * twice, with a normal queue's claims and with every workable task taken by other agents; it walks both
 * queues against the model, then samples `tasks_ready` and `tasks_ready {plan}` in both layouts in the
 * same rounds, each against its own workspace's `ping` (target ≤ 1.3; see `bench/ready-*.ts`).
 *
 * Frontier: the heavy case of `think_frontier_graph`, a graph doc of 250 open cards per frontier type,
 * each with edges, and 4,000 closed notes, written through `graph_apply`, so the view's 200 nodes fill
 * with seeds and their neighbours; it checks the graph at every limit 1-200 against the model, then
 * samples `ping`, `think_frontier_graph`, `think_frontier_graph {around}` and `think_frontier` (50 per
 * type) in the same rounds, every answer checked node by node (no target; see `bench/frontier-*.ts`).
 *
 * It prints medians, p95s, each median's ratio to the floor and each op's growth from the smallest to
 * the largest size, and writes the results as JSON to `bench-results/`. Targets are reported, not
 * asserted (but the packs suite's budget targets are also checks of every answer). The server runs a snapshot of the project copied at start (so edits during a run cannot
 * restart it) with its state in a fresh temp dir; both are removed at the end. Network traffic goes
 * only to 127.0.0.1.
 *
 *   npm run bench -- [--suites notes,common,graph,packs,portals,records,answers,cards,ready,frontier] [--sizes 1000,10000,100000] [--depths 1,10,30]
 *                    [--graph-sizes 10000,100000] [--pack-sizes 100000] [--record-sizes 50000] [--card-sizes 1000,100000]
 *                    [--samples 200] [--warmup 20] [--timeout-minutes 30] [--chain-depth 10] [--compare-root DIR]
 *
 * This file only wires the pieces: `lib/dev-server.ts` (the server's lifetime), `lib/mcp-http.ts`
 * (the client), and `bench/` (options, layouts, seeding, measurement, statistics, reports).
 */
import { cpus } from "node:os";
import { resolve } from "node:path";
import { answersJson, answersLines } from "./bench/answers-report.ts";
import { runAnswersSuite } from "./bench/answers-suite.ts";
import { cardsOpSet } from "./bench/cards-measure.ts";
import { cardsJson, cardsLines, cardsMisses, cardsTargetLines } from "./bench/cards-report.ts";
import { runCardsSuite } from "./bench/cards-suite.ts";
import { comparisonServer } from "./bench/common-compare.ts";
import { commonOpSet } from "./bench/common-measure.ts";
import { commonJson, commonLines, compareTargetLines } from "./bench/common-report.ts";
import { runCommonSuite } from "./bench/common-suite.ts";
import { frontierOpSet } from "./bench/frontier-measure.ts";
import { frontierJson, frontierLines } from "./bench/frontier-report.ts";
import { runFrontierSuite } from "./bench/frontier-suite.ts";
import { chainBranch } from "./bench/graph-layout.ts";
import { graphOpSet } from "./bench/graph-measure.ts";
import { graphJson, graphLines } from "./bench/graph-report.ts";
import { runGraphSuite } from "./bench/graph-suite.ts";
import { buildLayout, chainBranchName } from "./bench/layout.ts";
import { loadAverage, machineInfo } from "./bench/machine.ts";
import { measure, notesOpSet, type OpName, type Target } from "./bench/measure.ts";
import { CallLines, objectTimeLines, objectTimesOf } from "./bench/object-time.ts";
import { type Options, parseOptions } from "./bench/options.ts";
import { packsOpSet } from "./bench/packs-measure.ts";
import { budgetLines, packsJson, packsLines } from "./bench/packs-report.ts";
import { runPacksSuite } from "./bench/packs-suite.ts";
import { portalsOpSet } from "./bench/portals-measure.ts";
import { pairResults, portalsJson, portalsLines, portalsTargetLines } from "./bench/portals-report.ts";
import { runPortalsSuite } from "./bench/portals-suite.ts";
import { readyOpSet } from "./bench/ready-measure.ts";
import { readyJson, readyLines, readyMisses, readyTargetLines } from "./bench/ready-report.ts";
import { runReadySuite } from "./bench/ready-suite.ts";
import { recordsOpSet } from "./bench/records-measure.ts";
import { recordsJson, recordsLines, recordsTargetLines } from "./bench/records-report.ts";
import { runRecordsSuite } from "./bench/records-suite.ts";
import {
  fmtInt,
  growthOf,
  headerLines,
  jsonReport,
  notesLines,
  type SizeResult,
  targetLines,
  targetMisses,
  writeJsonReport,
} from "./bench/report.ts";
import { type CallOrder, summarize } from "./bench/sampling.ts";
import { seed, verifyPage } from "./bench/seed.ts";
import { log, runScript, shutdownSignal, startDevServer } from "./lib/dev-server.ts";
import { createMcpClient, type McpClient } from "./lib/mcp-http.ts";

const ROOT = resolve(import.meta.dirname, "..");
const AGENT = "bench";

async function runNotesSuite(target: Target, options: Options, lines: CallLines): Promise<SizeResult[]> {
  const { client } = target;
  const set = notesOpSet(options.depths);
  const deepest = Math.max(...options.depths);
  const results: SizeResult[] = [];
  for (const size of options.sizes) {
    const workspace = `bench/n${size}`;
    const layout = buildLayout(size, deepest);
    log(`seeding ${workspace}: ${fmtInt(layout.notes)} notes, ${layout.branches} branches`);
    const seeding = await seed(client, workspace, layout);
    log(`  ${(seeding.ms / 1000).toFixed(1)} s in ${seeding.calls} calls`);
    await verifyPage(client, workspace, layout, "main");
    for (const depth of options.depths) await verifyPage(client, workspace, layout, chainBranchName(depth));
    log(`measuring ${workspace}: ${options.warmup} warmup + ${options.samples} sample rounds of ${set.ops.length} ops`);
    await lines.drain(client);
    const order: CallOrder<OpName> = [];
    const times = await measure(target, set, workspace, options.warmup, options.samples, order);
    const objectTime = objectTimesOf(set.ops, order, await lines.drain(client), options.warmup, set.reference);
    results.push({ size, workspace, seeding, ops: summarize(set, times), object_time: objectTime });
  }
  return results;
}

/** A client of a server as `agent` (the cards suite imports other agents' drafts as those agents). */
function clientAt(base: string, agent = AGENT): McpClient {
  return createMcpClient({ endpoint: `${base}/mcp?toolset=full`, agentId: agent, clientName: "bench", signal: shutdownSignal });
}

async function main(options: Options): Promise<number> {
  const startedAt = new Date();
  const machine = machineInfo(ROOT);
  const loadAtStart = loadAverage();
  if ((loadAtStart[0] ?? 0) > cpus().length * 0.5) {
    log(`warning: the machine is busy (1-min load average ${loadAtStart[0]} on ${cpus().length} CPUs); latencies will be noisy`);
  }
  // The server's call log lines give each op its time inside the Worker and the workspace object.
  const lines = new CallLines();
  const server = await startDevServer({
    root: ROOT,
    tempPrefix: "branchmind-bench-",
    devTools: options.wranglerDevTools,
    serverLines: lines.feed,
  });
  const client = clientAt(server.base);
  const agents = new Map<string, McpClient>([[AGENT, client]]);
  const clientOf = (agent: string): McpClient => agents.get(agent) ?? agents.set(agent, clientAt(server.base, agent)).get(agent) ?? client;
  const before = comparisonServer({ root: options.compareRoot, modules: ROOT, devTools: options.wranglerDevTools, clientAt });
  const target: Target = { client, healthUrl: `${server.base}/health` };
  const notesSet = notesOpSet(options.depths);
  const graphSet = graphOpSet(chainBranch(options.chainDepth));

  const runNotes = options.suites.includes("notes");
  const notes = runNotes ? await runNotesSuite(target, options, lines) : [];
  const common = options.suites.includes("common") ? await runCommonSuite(client, options, lines, await before()) : undefined;
  const graph = options.suites.includes("graph") ? await runGraphSuite(client, options) : undefined;
  const packs = options.suites.includes("packs") ? await runPacksSuite(client, options) : undefined;
  const portals = options.suites.includes("portals")
    ? await runPortalsSuite(client, { base: server.base, agent: AGENT, signal: shutdownSignal }, options)
    : undefined;
  const records = options.suites.includes("records") ? await runRecordsSuite(client, options) : undefined;
  const answers = options.suites.includes("answers")
    ? await runAnswersSuite({ now: client, before: (await before())?.client }, options)
    : undefined;
  const cards = options.suites.includes("cards") ? await runCardsSuite(clientOf, client, options, lines) : undefined;
  const ready = options.suites.includes("ready") ? await runReadySuite(client, options, lines) : undefined;
  const frontier = options.suites.includes("frontier") ? await runFrontierSuite(clientOf, options, lines) : undefined;

  machine.load_average_start = loadAtStart;
  machine.load_average_end = loadAverage();
  const out = headerLines(machine, options);
  const targets: string[] = [];
  const notesGrowth = growthOf(notesSet, notes);
  const notesMisses = runNotes ? targetMisses(notesSet, notes, notesGrowth) : undefined;
  if (notesMisses !== undefined) {
    out.push(...notesLines(notes, notesGrowth, notesSet), "", ...objectTimeLines(notesSet, notes, "notes"));
    targets.push(...targetLines("Notes", notesMisses, notesGrowth));
  }
  let commonSection = null;
  if (common !== undefined) {
    const commonSet = commonOpSet();
    const growth = growthOf(commonSet, common);
    const misses = targetMisses(commonSet, common, growth);
    out.push(...commonLines(common, growth, commonSet), "", ...objectTimeLines(commonSet, common, "notes"));
    targets.push(...targetLines("Common", misses, growth), ...compareTargetLines(common));
    commonSection = commonJson(options, commonSet, common, growth, misses);
  }
  let graphSection = null;
  if (graph !== undefined) {
    const growth = growthOf(graphSet, graph);
    const misses = targetMisses(graphSet, graph, growth);
    out.push(...graphLines(graph, growth, graphSet));
    targets.push(...targetLines("Graph", misses, growth));
    graphSection = graphJson(options, graphSet, graph, growth, misses);
  }
  let packsSection = null;
  if (packs !== undefined) {
    const packsSet = packsOpSet();
    const growth = growthOf(packsSet, packs);
    const misses = targetMisses(packsSet, packs, growth);
    out.push(...packsLines(packs, growth, packsSet));
    targets.push(...targetLines("Packs", misses, growth), ...budgetLines(packs));
    packsSection = packsJson(options, packsSet, packs, growth, misses);
  }
  let portalsSection = null;
  if (portals !== undefined) {
    const portalsSet = portalsOpSet();
    const pairs = pairResults(portalsSet, portals);
    out.push(...portalsLines(portalsSet, portals, pairs));
    targets.push(...portalsTargetLines(pairs));
    portalsSection = portalsJson(portalsSet, portals, pairs);
  }
  let recordsSection = null;
  if (records !== undefined) {
    const recordsSet = recordsOpSet();
    const growth = growthOf(recordsSet, records.results);
    const misses = targetMisses(recordsSet, records.results, growth);
    out.push(...recordsLines(records, growth, recordsSet));
    targets.push(...recordsTargetLines(records, misses, growth));
    recordsSection = recordsJson(options, recordsSet, records, growth, misses);
  }
  if (answers !== undefined) out.push(...answersLines(answers));
  let cardsSection = null;
  if (cards !== undefined) {
    const cardsSet = cardsOpSet();
    const growth = growthOf(cardsSet, cards);
    const misses = cardsMisses(cardsSet, cards, growth);
    out.push(...cardsLines(cards, growth, cardsSet));
    targets.push(...cardsTargetLines(misses, growth));
    cardsSection = cardsJson(options, cardsSet, cards, growth, misses);
  }
  let readySection = null;
  if (ready !== undefined) {
    const readySet = readyOpSet();
    const misses = readyMisses(readySet, ready);
    out.push(...readyLines(ready, readySet));
    targets.push(...readyTargetLines(misses));
    readySection = readyJson(readySet, ready, misses);
  }
  const frontierSection = frontier === undefined ? null : frontierJson(frontierOpSet(), frontier);
  if (frontier !== undefined) out.push(...frontierLines(frontier, frontierOpSet()));
  console.log([...out, "", ...targets].join("\n"));

  const finishedAt = new Date();
  const report = jsonReport({
    startedAt,
    finishedAt,
    machine,
    options,
    labels: notesSet.labels,
    serverReadyMs: server.readyMs,
    results: notes,
    growth: notesGrowth,
    misses: notesMisses,
    graph: graphSection,
    packs: packsSection,
    portals: portalsSection,
    records: recordsSection,
    common: commonSection,
    answers: answers === undefined ? null : answersJson(answers),
    cards: cardsSection,
    ready: readySection,
    frontier: frontierSection,
  });
  console.log(`Results written to ${writeJsonReport(ROOT, startedAt, report)}`);
  return 0;
}

runScript("bench", parseOptions, main);
