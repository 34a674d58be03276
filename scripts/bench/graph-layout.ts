/**
 * The graph suite's store layout, as a deterministic stream of steps (create a branch, or apply one
 * graph op on a branch) that the seeder batches into `workspace_import` calls. Every step is recorded
 * in a `GraphModel` as it is produced, so the model knows each version's seq.
 *
 * For n nodes and a chain of depth d (all on doc `graph`):
 * 1. main: nodes `n0`…`n<n-1>` and n/1000 (at least 10) scratch nodes `x<j>` without edges; then 2n
 *    edges (`n<i> -next-> n<i+1>`, `n<i> -link-> n<pseudo-random>`); then 7 update rounds where node i
 *    takes part in rounds 1…(1 + i mod-hash 7), edges re-upserted with meta in rounds 1-2 (0-2 times
 *    each), half of the scratch nodes deleted in round 4; last, a final update of every node, in id
 *    order. That is about 10 versions per node: 6 per node, 4 per node for its 2 edges.
 * 2. the chain `gchain/1` (from main) … `gchain/d`: after each branch is created, 3 nodes and 2-3 edges
 *    on it, then n/100 writes on main (5 updates of the newest nodes `n<n-1>`…`n<n-5>`, new nodes
 *    `m<level>-<j>`, edges from them), all newer than every cutoff of the chain.
 * 3. late writes on `gchain/1` … `gchain/<d-1>`, newer than the cutoffs of the deeper branches.
 *
 * Probes name node ids whose title on the deepest branch is known in advance: updated on main or on a
 * shallower chain branch after the deepest branch's cutoff, so only the old title may show there.
 */
import { GraphModel, type GraphOp } from "./graph-model.ts";

export const GRAPH_DOC = "graph";
/** Nodes per `graph_query` page and its edge limit, in checks and measurements alike. */
export const GRAPH_PAGE_LIMIT = 50;
export const GRAPH_EDGES_LIMIT = 200;
export const MIN_GRAPH_SIZE = 1_000;
/** Rounds of node updates between the creation round and the final round. */
export const UPDATE_ROUNDS = 7;
/** Ids `graph_apply` rewrites during measurement, 6 per call (see `applyOps`). */
export const APPLY_POOL = 12;

/** Seeding phases, for the report of where seeding time goes. */
export type GraphPhase = "node creates" | "edge creates" | "node updates" | "edge re-upserts" | "node deletes" | "chain + main writes";

export type GraphStep = { kind: "branch"; name: string; from?: string } | { kind: "op"; branch: string; op: GraphOp; phase: GraphPhase };

/** A node id whose title on the deepest branch is fixed by the cutoffs, and where a later title lives. */
export interface Probe {
  id: string;
  /** Expected title on the deepest branch; null: the node must be absent there. */
  deepest: string | null;
  /** The branch that wrote the later state, and the title it shows there. */
  later: { branch: string; title: string };
}

export interface GraphLayout {
  size: number;
  depth: number;
  deepest: string;
  model: GraphModel;
  steps: Generator<GraphStep>;
  probes: Probe[];
}

const TYPES = ["hypothesis", "test", "evidence", "decision", "question", "idea"];
const STATUSES = ["open", "active", "blocked", "done"];
const TAGS = ["cache", "storage", "latency", "merge", "index", "api", "ui", "infra", "docs", "risk"];

/** A deterministic 32-bit hash of (i, salt). */
function hash(i: number, salt: number): number {
  let x = Math.imul(i + 1, 2654435761) ^ Math.imul(salt + 7, 40503);
  x = Math.imul(x ^ (x >>> 15), 2246822507);
  x = Math.imul(x ^ (x >>> 13), 3266489909);
  return (x ^ (x >>> 16)) >>> 0;
}

export const chainBranch = (level: number): string => `gchain/${level}`;
const title = (id: string, label: string): string => `${id} ${label}`;

function nodeOp(i: number, label: string, round: number): GraphOp {
  const id = `n${i}`;
  const h = hash(i, round);
  return {
    op: "node_upsert",
    id,
    type: TYPES[hash(i, 0) % TYPES.length] ?? "idea",
    title: title(id, label),
    status: STATUSES[(h >>> 4) % STATUSES.length] ?? "open",
    tags: [TAGS[h % TAGS.length] ?? "api", TAGS[(h >>> 8) % TAGS.length] ?? "ui"],
  };
}

function plainNode(id: string, type: string, label: string): GraphOp {
  return { op: "node_upsert", id, type, title: title(id, label), status: "open", tags: [type] };
}

/** Main writes after each chain branch: at least 10, so 5 tail updates and some new nodes fit. */
export const mainWritesAfterBranch = (size: number): number => Math.max(10, Math.floor(size / 100));

function* steps(size: number, depth: number, model: GraphModel): Generator<GraphStep> {
  const scratch = Math.max(10, Math.floor(size / 1000));
  let phase: GraphPhase = "node creates";
  const op = (branch: string, graphOp: GraphOp): GraphStep => {
    model.record(branch, graphOp);
    return { kind: "op", branch, op: graphOp, phase };
  };
  const linkTarget = (i: number): number => (i + 1 + (hash(i, 1) % (size - 1))) % size;
  const edgeOp = (i: number, rel: "next" | "link", meta?: Record<string, unknown>): GraphOp => {
    const edge: GraphOp = { op: "edge_upsert", from: `n${i}`, rel, to: `n${rel === "next" ? (i + 1) % size : linkTarget(i)}` };
    if (meta !== undefined) edge.meta = meta;
    return edge;
  };
  // 1. The bulk, on main.
  for (let i = 0; i < size; i++) yield op("main", nodeOp(i, "r0", 0));
  for (let j = 0; j < scratch; j++) yield op("main", plainNode(`x${j}`, "scratch", "r0"));
  phase = "edge creates";
  for (let i = 0; i < size; i++) {
    yield op("main", edgeOp(i, "next"));
    yield op("main", edgeOp(i, "link"));
  }
  for (let round = 1; round <= UPDATE_ROUNDS; round++) {
    phase = "node updates";
    for (let i = 0; i < size; i++) {
      if (1 + (hash(i, 2) % UPDATE_ROUNDS) >= round) yield op("main", nodeOp(i, `r${round}`, round));
    }
    if (round <= 2) {
      phase = "edge re-upserts";
      for (let i = 0; i < size; i++) {
        for (const [k, rel] of [[0, "next"] as const, [1, "link"] as const]) {
          if (hash(2 * i + k, 3) % 3 >= round) yield op("main", edgeOp(i, rel, { round, weight: hash(i, round) % 10 }));
        }
      }
    }
    phase = "node deletes";
    if (round === 4) for (let j = 0; j < scratch / 2; j++) yield op("main", { op: "node_delete", id: `x${j}` });
  }
  phase = "node updates";
  for (let i = 0; i < size; i++) yield op("main", nodeOp(i, "final", UPDATE_ROUNDS + 1));
  phase = "chain + main writes";
  // 2. The chain, with main moving on after each branch.
  const perLevel = mainWritesAfterBranch(size);
  for (let level = 1; level <= depth; level++) {
    const name = chainBranch(level);
    const from = level === 1 ? "main" : chainBranch(level - 1);
    model.addBranch(name, from);
    yield level === 1 ? { kind: "branch", name } : { kind: "branch", name, from };
    yield op(name, plainNode(`c${level}-a`, "chain", "created"));
    yield op(name, plainNode(`c${level}-b`, "chain", "created"));
    yield op(name, nodeOp(size - 100 - level, `on ${name}`, 100 + level));
    yield op(name, { op: "edge_upsert", from: `c${level}-a`, rel: "next", to: `c${level}-b` });
    yield op(name, { op: "edge_upsert", from: `c${level}-a`, rel: "link", to: `n${size - 1}` });
    if (level > 1) yield op(name, { op: "edge_upsert", from: `c${level}-b`, rel: "link", to: `c${level - 1}-a` });
    for (let k = 0; k < 5; k++) yield op("main", nodeOp(size - 1 - k, `main after ${name}`, 200 + level));
    for (let j = 0; j < perLevel - 5; j++) {
      const id = `m${level}-${j - (j % 2)}`;
      yield j % 2 === 0
        ? op("main", plainNode(id, "note", "created"))
        : op("main", { op: "edge_upsert", from: id, rel: "cites", to: `n${hash(level * perLevel + j, 4) % size}` });
    }
  }
  // 3. Late writes on the shallower chain branches.
  for (let level = 1; level < depth; level++) yield op(chainBranch(level), plainNode(`c${level}-a`, "chain", "late"));
}

export function buildGraphLayout(size: number, depth: number): GraphLayout {
  if (size < MIN_GRAPH_SIZE) throw new Error(`graph size ${size} is below ${MIN_GRAPH_SIZE}`);
  const model = new GraphModel();
  const deepest = chainBranch(depth);
  const tail = `n${size - 1}`;
  const probes: Probe[] = [
    // Updated on main after the whole chain exists: the deepest branch sees the final round's title.
    { id: tail, deepest: title(tail, "final"), later: { branch: "main", title: title(tail, `main after ${deepest}`) } },
    // Created on main after the first branch: absent on the deepest branch.
    { id: "m1-0", deepest: null, later: { branch: "main", title: title("m1-0", "created") } },
  ];
  if (depth > 1) {
    // Written on gchain/1 after gchain/2 was created: only the first version shows on the deepest branch.
    probes.push({ id: "c1-a", deepest: title("c1-a", "created"), later: { branch: chainBranch(1), title: title("c1-a", "late") } });
  }
  return { size, depth, deepest, model, steps: steps(size, depth, model), probes };
}

/** Node ids of the `graph_apply` pool: old main nodes, far from the page and from the chain's writes. */
export function applyPool(size: number): string[] {
  return Array.from({ length: APPLY_POOL }, (_, k) => `n${Math.floor(size / 2) + k}`);
}

/**
 * The 10 ops of measured `graph_apply` call number `round`: 6 node_upserts of pool ids (a different
 * window of the pool each call) and 4 edges between them. A fixed pool keeps the deepest branch's own
 * keys below a page, so `graph_query` there keeps reading from the whole chain and main.
 */
export function applyOps(pool: string[], round: number): GraphOp[] {
  const start = (round * 5) % pool.length;
  const ids = Array.from({ length: 6 }, (_, k) => pool[(start + k) % pool.length] ?? "n0");
  const ops: GraphOp[] = ids.map((id) => ({
    op: "node_upsert",
    id,
    type: "hypothesis",
    title: title(id, `bench ${round}`),
    status: "active",
    tags: ["bench"],
  }));
  for (let k = 0; k < 4; k++) ops.push({ op: "edge_upsert", from: ids[k] ?? "n0", rel: "bench", to: ids[k + 1] ?? "n0", meta: { round } });
  return ops;
}
