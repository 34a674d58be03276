/**
 * The frontier suite's layout, as pure data: a graph doc whose open frontier is far larger than one
 * view (the heavy case of `think_frontier_graph`, src/capabilities/think/frontier-graph.ts), the graph
 * ops that write it in order, and every card and edge with its write order, from which the model
 * (frontier-model.ts) predicts the answers. No server here (frontier-suite.ts writes the ops).
 *
 * On `main`, doc `graph`, for i = 0 … OPEN_PER_TYPE − 1 in turn: question Q<i>, hypothesis H<i>, test
 * T<i>, decision D<i> (open: no status, but every CLOSED_DECISION_EVERY-th decision superseded), H<i>
 * supports Q<i>, and T<i> supports H<i> (but every UNTESTED_EVERY-th test probes Q<i> instead, leaving
 * H<i> untested). Then each decision D<i> supports the next question Q<i+1> (the last the first), then
 * CLOSED_NOTES closed notes N<k>, the newest HUB_CITES of them citing the hub question, and every
 * CITING_EVERY-th hypothesis H<i> citing note N<i> (its newest edge: so its neighbours come note, then
 * question, both on edges leaving it, then its test, arriving, the order the build takes); last, alice's
 * open draft hypotheses A<i> (lane `agent/alice`) each supporting Q<i>, for every DRAFT_EVERY-th
 * question and the hub's. So the newest cards are written last, every open card has edges, and the
 * 200 nodes of a view fill with seeds and their neighbours long before the seeds run out.
 */

export const BENCH_AGENT = "bench";
export const DRAFT_AGENT = "alice";
/** Open cards per frontier type: above the 200 a view reads per type, so every count caps (frontier_capped). */
export const OPEN_PER_TYPE = 250;
/** Closed notes: a long-lived graph's bulk, which the frontier's open-card pages must step over. */
export const CLOSED_NOTES = 4_000;
/** Every UNTESTED_EVERY-th hypothesis (at UNTESTED_AT) has no test: some seeds are `untested`. */
export const UNTESTED_EVERY = 10;
const UNTESTED_AT = 7;
/** Every CLOSED_DECISION_EVERY-th decision (at CLOSED_DECISION_AT) is superseded: a closed card drawn as a neighbour only. */
export const CLOSED_DECISION_EVERY = 20;
const CLOSED_DECISION_AT = 11;
/** Questions newer than the hub: it is explored once the view holds about 80 nodes, before the view fills. */
const HUB_TURN = 20;
/** Notes citing the hub: more than the 50 incoming edges a seed's read takes (frontier-graph.ts PER_NODE_EDGES). */
export const HUB_CITES = 60;
/** Every CITING_EVERY-th hypothesis cites a closed note: that seed has new neighbours on both sides (the note leaving, its test arriving). */
export const CITING_EVERY = 2;
/** Every DRAFT_EVERY-th question (at DRAFT_AT) has one of alice's drafts supporting it, newest of its edges. */
export const DRAFT_EVERY = 25;
const DRAFT_AT = 3;
/** Ops per graph_apply call (graph.schema.ts MAX_GRAPH_OPS). */
export const OPS_PER_CALL = 500;
/** Each open card's one tag, in turn: the answers' tags are checked too. */
const TOPICS = ["cache", "eviction", "replay", "latency"] as const;

export const FRONTIER_TYPES = ["question", "hypothesis", "test", "decision"] as const;
/** The card statuses that count as closed (src/capabilities/graph/card-shape.ts, CLOSED_STATUSES). */
export const CLOSED_STATUSES: ReadonlySet<string> = new Set(["done", "closed", "resolved", "rejected", "canceled", "superseded"]);

export interface FrontierCard {
  id: string;
  type: string;
  title: string;
  status?: string;
  tags: string[];
  lane: string;
  /** Write order: later is newer (the store's seq). */
  order: number;
}

export interface FrontierEdge {
  from: string;
  rel: string;
  to: string;
  order: number;
}

export type GraphOp =
  | { op: "node_upsert"; id: string; type: string; title: string; status?: string; tags: string[]; meta?: { lane: string } }
  | { op: "edge_upsert"; from: string; rel: string; to: string };

/** One graph_apply call: its agent and ops, with what it must report applied. */
export interface ApplyBatch {
  agent: string;
  ops: GraphOp[];
  nodes: number;
  edges: number;
}

export interface FrontierLayout {
  cards: Map<string, FrontierCard>;
  /** Every edge, oldest first (none is deleted). */
  edges: FrontierEdge[];
  batches: ApplyBatch[];
  /** The card `around` asks for. */
  hub: string;
}

export const isOpen = (card: { status?: string | undefined }): boolean => !CLOSED_STATUSES.has((card.status ?? "").toLowerCase());

/** The layout's ops in write order, cut into graph_apply calls of one agent and at most OPS_PER_CALL ops. */
export function buildFrontierLayout(): FrontierLayout {
  const cards = new Map<string, FrontierCard>();
  const edges: FrontierEdge[] = [];
  const writes: { agent: string; op: GraphOp }[] = [];
  const node = (agent: string, card: Omit<FrontierCard, "order" | "lane">, lane = "shared") => {
    cards.set(card.id, { ...card, lane, order: writes.length });
    const meta = lane === "shared" ? {} : { meta: { lane } };
    writes.push({ agent, op: { op: "node_upsert", ...card, ...meta } });
  };
  const edge = (agent: string, from: string, rel: string, to: string) => {
    edges.push({ from, rel, to, order: writes.length });
    writes.push({ agent, op: { op: "edge_upsert", from, rel, to } });
  };
  const n = OPEN_PER_TYPE;
  const hubIndex = n - 1 - HUB_TURN;
  for (let i = 0; i < n; i++) {
    const tags = [TOPICS[i % TOPICS.length] as string];
    node(BENCH_AGENT, { id: `Q${i}`, type: "question", title: `Question ${i}: why do reads slow down at scale?`, tags });
    node(BENCH_AGENT, { id: `H${i}`, type: "hypothesis", title: `Hypothesis ${i}: the cache evicts too early`, tags });
    node(BENCH_AGENT, { id: `T${i}`, type: "test", title: `Test ${i}: replay the reads with a larger cache`, tags });
    const superseded = i % CLOSED_DECISION_EVERY === CLOSED_DECISION_AT ? { status: "superseded" } : {};
    node(BENCH_AGENT, { id: `D${i}`, type: "decision", title: `Decision ${i}: keep the hot set warm`, tags, ...superseded });
    edge(BENCH_AGENT, `H${i}`, "supports", `Q${i}`);
    if (i % UNTESTED_EVERY === UNTESTED_AT) edge(BENCH_AGENT, `T${i}`, "probes", `Q${i}`);
    else edge(BENCH_AGENT, `T${i}`, "supports", `H${i}`);
  }
  for (let i = 0; i < n; i++) edge(BENCH_AGENT, `D${i}`, "supports", `Q${(i + 1) % n}`);
  for (let k = 0; k < CLOSED_NOTES; k++) {
    node(BENCH_AGENT, { id: `N${k}`, type: "note", title: `Note ${k}: measured and filed`, status: "done", tags: [] });
  }
  for (let k = CLOSED_NOTES - HUB_CITES; k < CLOSED_NOTES; k++) edge(BENCH_AGENT, `N${k}`, "cites", `Q${hubIndex}`);
  for (let i = 0; i < n; i += CITING_EVERY) edge(BENCH_AGENT, `H${i}`, "cites", `N${i}`);
  for (let i = 0; i < n; i++) {
    if (i % DRAFT_EVERY !== DRAFT_AT && i !== hubIndex) continue;
    node(
      DRAFT_AGENT,
      { id: `A${i}`, type: "hypothesis", title: `Alice's draft ${i}: the index is cold`, tags: [] },
      `agent/${DRAFT_AGENT}`,
    );
    edge(DRAFT_AGENT, `A${i}`, "supports", `Q${i}`);
  }
  const batches: ApplyBatch[] = [];
  for (const { agent, op } of writes) {
    let last = batches.at(-1);
    if (last === undefined || last.agent !== agent || last.ops.length >= OPS_PER_CALL) {
      last = { agent, ops: [], nodes: 0, edges: 0 };
      batches.push(last);
    }
    last.ops.push(op);
    if (op.op === "node_upsert") last.nodes++;
    else last.edges++;
  }
  return { cards, edges, batches, hub: `Q${hubIndex}` };
}

/** Counts for the report. */
export function frontierLayoutCounts(layout: FrontierLayout) {
  const cards = [...layout.cards.values()];
  const shared = cards.filter((card) => card.lane === "shared");
  const open = (type: string) => shared.filter((card) => card.type === type && isOpen(card)).length;
  return {
    cards: cards.length,
    edges: layout.edges.length,
    ops: layout.batches.reduce((sum, batch) => sum + batch.ops.length, 0),
    calls: layout.batches.length,
    open: Object.fromEntries(FRONTIER_TYPES.map((type) => [type, open(type)])) as Record<(typeof FRONTIER_TYPES)[number], number>,
    closed: shared.filter((card) => !isOpen(card)).length,
    drafts: cards.length - shared.length,
    hub: layout.hub,
  };
}
