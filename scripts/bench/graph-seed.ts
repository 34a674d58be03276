/**
 * Puts a graph layout into a fresh workspace through the bulk path (`workspace_import` with `graph`
 * items, batched under the server's limits), checks every call's seqs against the model, times it, and
 * checks what `graph_query` returns on `main` and on the deepest branch against the model: the exact
 * page (node ids and seqs, the edges between them) and the probes of the cutoffs. A run whose store
 * is not what the layout claims fails before anything is measured.
 */
import { performance } from "node:perf_hooks";
import { log } from "../lib/dev-server.ts";
import type { Json, McpClient } from "../lib/mcp-http.ts";
import { GRAPH_EDGES_LIMIT, GRAPH_PAGE_LIMIT, type GraphLayout, type GraphPhase, type GraphStep } from "./graph-layout.ts";
import type { GraphOp } from "./graph-model.ts";

/** Server limits of one import call: items, graph ops in all, graph ops per item; and a body safely under 1 MiB. */
const MAX_ITEMS = 2_000;
export const MAX_GRAPH_OPS_PER_CALL = 5_000;
export const MAX_OPS_PER_ITEM = 500;
export const MAX_BODY_BYTES = 900_000;
const ITEM_OVERHEAD_BYTES = 64;

type ImportItem = { op: "branch"; name: string; from?: string } | { op: "graph"; branch?: string; ops: GraphOp[] };

interface Batch {
  items: ImportItem[];
  graphOps: number;
  branches: number;
  /** Seqs the call must report (null when it holds no graph op). */
  firstSeq: number | null;
  lastSeq: number | null;
  /** Graph ops per seeding phase. */
  phases: Map<GraphPhase, number>;
}

/** Seeding time attributed to a phase: each call's time shared out by its ops. */
export interface PhaseTime {
  phase: GraphPhase;
  ops: number;
  s: number;
  ops_per_s: number;
}

export interface GraphSeeding {
  ms: number;
  calls: number;
  graph_ops: number;
  versions: number;
  node_keys: number;
  edge_keys: number;
  branches: number;
  versions_per_s: number;
  max_call_ms: number;
  phases: PhaseTime[];
}

/** The next call's worth of steps, or undefined when the layout is exhausted. */
function nextBatch(layout: GraphLayout, pending: { step: GraphStep | undefined }): Batch | undefined {
  const batch: Batch = { items: [], graphOps: 0, branches: 0, firstSeq: null, lastSeq: null, phases: new Map() };
  let bytes = 0;
  let seqBefore = layout.model.versions - (pending.step?.kind === "op" ? 1 : 0);
  for (;;) {
    let step = pending.step;
    pending.step = undefined;
    if (step === undefined) {
      const next = layout.steps.next();
      step = next.done ? undefined : next.value;
    }
    if (step === undefined) break;
    const last = batch.items[batch.items.length - 1];
    const opBytes = Buffer.byteLength(JSON.stringify(step.kind === "op" ? step.op : step)) + 1;
    const joins =
      step.kind === "op" && last?.op === "graph" && (last.branch ?? "main") === step.branch && last.ops.length < MAX_OPS_PER_ITEM;
    const full =
      bytes + opBytes + (joins ? 0 : ITEM_OVERHEAD_BYTES) > MAX_BODY_BYTES ||
      (!joins && batch.items.length >= MAX_ITEMS) ||
      (step.kind === "op" && batch.graphOps >= MAX_GRAPH_OPS_PER_CALL);
    if (full && batch.items.length > 0) {
      pending.step = step;
      break;
    }
    bytes += opBytes + (joins ? 0 : ITEM_OVERHEAD_BYTES);
    if (step.kind === "branch") {
      batch.items.push(step.from === undefined ? { op: "branch", name: step.name } : { op: "branch", name: step.name, from: step.from });
      batch.branches++;
      continue;
    }
    seqBefore++;
    batch.firstSeq ??= seqBefore;
    batch.lastSeq = seqBefore;
    batch.graphOps++;
    batch.phases.set(step.phase, (batch.phases.get(step.phase) ?? 0) + 1);
    if (joins && last?.op === "graph") last.ops.push(step.op);
    else batch.items.push(step.branch === "main" ? { op: "graph", ops: [step.op] } : { op: "graph", branch: step.branch, ops: [step.op] });
  }
  return batch.items.length === 0 ? undefined : batch;
}

export async function seedGraph(client: McpClient, workspace: string, layout: GraphLayout): Promise<GraphSeeding> {
  const pending: { step: GraphStep | undefined } = { step: undefined };
  let calls = 0;
  let graphOps = 0;
  let branches = 0;
  let maxCall = 0;
  const phases = new Map<GraphPhase, { ops: number; ms: number }>();
  const started = performance.now();
  let batch = nextBatch(layout, pending);
  while (batch !== undefined) {
    const call = client.callTool("workspace_import", { workspace, ops: batch.items });
    // Build the next batch while the server works on this one.
    const following = nextBatch(layout, pending);
    const { ms, value } = await call;
    const imported = value as { branches_created: number; graph_ops_applied: number; first_seq: number | null; last_seq: number | null };
    if (imported.first_seq !== batch.firstSeq || imported.last_seq !== batch.lastSeq || imported.graph_ops_applied !== batch.graphOps) {
      throw new Error(
        `seeding ${workspace}, call ${calls + 1}: expected seqs ${batch.firstSeq}-${batch.lastSeq} for ${batch.graphOps} graph ops, ` +
          `got ${imported.first_seq}-${imported.last_seq} for ${imported.graph_ops_applied} (is the workspace fresh?)`,
      );
    }
    calls++;
    graphOps += imported.graph_ops_applied;
    branches += imported.branches_created;
    maxCall = Math.max(maxCall, ms);
    for (const [phase, ops] of batch.phases) {
      const total = phases.get(phase) ?? { ops: 0, ms: 0 };
      phases.set(phase, { ops: total.ops + ops, ms: total.ms + (ms * ops) / batch.graphOps });
    }
    if (calls % 25 === 0 || following === undefined) {
      const seconds = (performance.now() - started) / 1000;
      log(`  seeded ${graphOps.toLocaleString("en-US")} versions in ${seconds.toFixed(1)} s (${Math.round(graphOps / seconds)}/s)`);
    }
    batch = following;
  }
  const ms = performance.now() - started;
  const { model } = layout;
  if (graphOps !== model.versions || branches !== layout.depth) {
    throw new Error(`seeding ${workspace}: ${graphOps} versions and ${branches} branches, expected ${model.versions} and ${layout.depth}`);
  }
  return {
    ms,
    calls,
    graph_ops: graphOps,
    versions: model.versions,
    node_keys: model.nodeKeys,
    edge_keys: model.edgeKeys,
    branches,
    versions_per_s: graphOps / (ms / 1000),
    max_call_ms: maxCall,
    phases: [...phases].map(([phase, { ops, ms: phaseMs }]) => ({
      phase,
      ops,
      s: Math.round(phaseMs / 100) / 10,
      ops_per_s: Math.round(ops / (phaseMs / 1000)),
    })),
  };
}

async function query(client: McpClient, workspace: string, args: Json): Promise<{ nodes: Json[]; edges: Json[]; truncated: boolean }> {
  try {
    const { value } = await client.callTool("graph_query", { workspace, ...args });
    return { nodes: (value.nodes ?? []) as Json[], edges: (value.edges ?? []) as Json[], truncated: value.truncated === true };
  } catch (error) {
    throw new Error(`graph_query ${JSON.stringify(args)} on ${workspace}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** What the check found on the deepest branch's first page (for the report). */
export interface PageShape {
  nodes: number;
  edges: number;
  /** Nodes of the page per branch that wrote them. */
  nodes_by_branch: Record<string, number>;
}

/** `graph_query` on `branch` must return exactly the model's first page (with edges, if `needEdges`); returns its shape. */
async function verifyPage(
  client: McpClient,
  workspace: string,
  layout: GraphLayout,
  branch: string,
  needEdges: boolean,
): Promise<PageShape> {
  const got = await query(client, workspace, { branch, limit: GRAPH_PAGE_LIMIT });
  const want = layout.model.expectedPage(branch, GRAPH_PAGE_LIMIT, GRAPH_EDGES_LIMIT);
  const where = `graph_query ${workspace} ${branch}`;
  const nodes = got.nodes.map((node) => `${String(node.id)}@${String(node.last_seq)}`);
  const wantNodes = want.nodes.map((node) => `${node.id}@${node.seq}`);
  if (got.truncated) throw new Error(`${where}: the page was truncated by the budget`);
  if (wantNodes.length !== GRAPH_PAGE_LIMIT)
    throw new Error(`${where}: the layout yields ${wantNodes.length} nodes, not ${GRAPH_PAGE_LIMIT}`);
  if (nodes.join(" ") !== wantNodes.join(" "))
    throw new Error(`${where}: expected nodes [${wantNodes.join(", ")}], got [${nodes.join(", ")}]`);
  const edges = got.edges.map((edge) => `${String(edge.from)}-${String(edge.rel)}->${String(edge.to)}@${String(edge.last_seq)}`);
  const wantEdges = want.edges.map((edge) => `${edge.from}-${edge.rel}->${edge.to}@${edge.seq}`);
  if (needEdges && wantEdges.length === 0) throw new Error(`${where}: the layout yields no edges between the page's nodes`);
  if (edges.join(" ") !== wantEdges.join(" "))
    throw new Error(`${where}: expected edges [${wantEdges.join(", ")}], got [${edges.join(", ")}]`);
  const byBranch: Record<string, number> = {};
  for (const node of want.nodes) {
    const owner = layout.model.branchOfSeq(node.seq);
    byBranch[owner] = (byBranch[owner] ?? 0) + 1;
  }
  return { nodes: nodes.length, edges: edges.length, nodes_by_branch: byBranch };
}

/** Probes: on the deepest branch only the title from before its cutoff shows (or none); the later one exists. */
async function verifyProbes(client: McpClient, workspace: string, layout: GraphLayout): Promise<void> {
  const ids = layout.probes.map((probe) => probe.id);
  const deep = await query(client, workspace, { branch: layout.deepest, ids, include_edges: false, limit: ids.length });
  const titles = new Map(deep.nodes.map((node) => [String(node.id), node.title]));
  for (const probe of layout.probes) {
    const where = `probe ${probe.id} on ${layout.deepest} of ${workspace}`;
    const title = titles.get(probe.id);
    if (probe.deepest === null && titles.has(probe.id)) throw new Error(`${where}: expected absent, got title ${JSON.stringify(title)}`);
    if (probe.deepest !== null && title !== probe.deepest) {
      throw new Error(`${where}: expected title ${JSON.stringify(probe.deepest)}, got ${JSON.stringify(title)} (a cutoff leaks)`);
    }
    const later = await query(client, workspace, { branch: probe.later.branch, ids: [probe.id], include_edges: false, limit: 1 });
    if (later.nodes[0]?.title !== probe.later.title) {
      throw new Error(
        `probe ${probe.id} on ${probe.later.branch}: expected title ${JSON.stringify(probe.later.title)}, got ${JSON.stringify(later.nodes[0]?.title)}`,
      );
    }
  }
}

/** Checks the first pages of `main` and the deepest branch, and the probes; returns the deepest page's shape. */
export async function verifyGraph(client: McpClient, workspace: string, layout: GraphLayout): Promise<PageShape> {
  await verifyPage(client, workspace, layout, "main", false);
  const shape = await verifyPage(client, workspace, layout, layout.deepest, true);
  await verifyProbes(client, workspace, layout);
  return shape;
}
