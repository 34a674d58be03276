/**
 * The cards suite's `think_frontier_graph` (src/capabilities/think/frontier-graph.ts: the graph view's
 * first read): the call and its check against the model (cards-model.ts), for the two measured ops and
 * for the checks before measuring at small limits and with every lane.
 *
 * What the model predicts, as the code builds it: the seeds are the view's open questions, hypotheses,
 * tests and decisions (newest first, at most FRONTIER_COUNT per type, taken in turn); the suite's layout
 * opens no conflict, so there are no conflict seeds. Each seed, in turn, is added while fewer than
 * `limit` nodes are shown, and then its visible neighbours (the other ends of its newest PER_NODE_EDGES
 * edges per direction), as room allows. That fixes the node set, except when a seed has more new
 * neighbours than room: then which of them fill the last places is the store's order, so the model
 * knows only the nodes shown before that seed's neighbours, that exactly `room` of those neighbours
 * follow, and that nothing is added after (the limit is full). Everything else follows from the node
 * set the answer shows, once that set checks out: a node is a seed exactly when it is in the model's seed
 * list (a seed shown at its turn is marked, one not shown then never is); the seeds shown are the
 * explored ones; `left_out` is every seed and every neighbour of an explored seed not shown; a node is
 * `untested` when it is an open hypothesis explored with no test among its visible neighbours; the
 * edges are every live edge among the nodes.
 */
import type { Json } from "../lib/mcp-http.ts";
import { type CardVersion, CLOSED_STATUSES, FRONTIER_TYPES, PLACES, type Place, type ScopeName } from "./cards-layout.ts";
import type { CardsModel } from "./cards-model.ts";
import { interleaved } from "./frontier-model.ts";

/** think_frontier_graph's default and largest `limit` (frontier-graph.ts MAX_GRAPH_NODES): what the view draws. */
export const GRAPH_LIMIT = 200;
/** Open cards read, counted and offered as seeds per type (frontier-graph.ts FRONTIER_COUNT). */
const FRONTIER_COUNT = 200;
/** Edges read per direction per seed, the newest (frontier-graph.ts PER_NODE_EDGES). */
const PER_NODE_EDGES = 50;
/** Edges among the shown nodes at most (frontier-graph.ts MAX_SHOWN_EDGES): past it, only a subset is checked. */
const MAX_SHOWN_EDGES = 1_000;
/**
 * Limits the checks before measuring also ask, from 1 up to the default answer's node count (7 per view
 * in this layout, so the default limit never fills): each fills the limit at another seed or neighbour.
 */
const MAX_FILL_LIMIT = 10;
const CLOSED = new Set<string>(CLOSED_STATUSES);
const COUNT_FIELDS = { question: "questions", hypothesis: "hypotheses", test: "tests", decision: "decisions" } as const;

export interface GraphCall {
  limit?: number;
  allLanes?: boolean;
  /** A budget the answer fits untrimmed (200 labelled nodes outgrow the default 20,000 characters). */
  budgetProfile?: "audit";
}

/** What the model knows of the node set: `sure` are shown; exactly `room` more of `among`, when given. */
interface NodeSet {
  sure: Set<string>;
  choice?: { among: Set<string>; room: number };
}

const object = (value: unknown): Json => (typeof value === "object" && value !== null ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const sorted = (items: Iterable<string>): string[] => [...items].sort();

/** The model's view for one call: its cards, each card's visible neighbours, the seeds. */
class GraphView {
  readonly cards: Map<string, CardVersion>;
  readonly lists: string[][];
  readonly seeds: string[];
  /** Each card's edges, newest first: out to `end`, or in from it. */
  private readonly outgoing = new Map<string, { rel: string; end: string }[]>();
  private readonly incoming = new Map<string, { rel: string; end: string }[]>();

  constructor(model: CardsModel, place: Place, allLanes: boolean) {
    this.cards = new Map(model.visible(place.branch, place.graphDoc, allLanes).map((card) => [card.id, card]));
    const open = (type: string) => (card: CardVersion) => card.type === type && !CLOSED.has(card.status);
    // One more than read per type: whether the frontier is capped.
    this.lists = FRONTIER_TYPES.map((type) => model.newest(place.branch, place.graphDoc, FRONTIER_COUNT + 1, open(type), allLanes));
    this.seeds = interleaved(this.lists.map((ids) => ids.slice(0, FRONTIER_COUNT)));
    for (const edge of model.edges(place.branch, place.graphDoc)) {
      this.outgoing.set(edge.from, this.outgoing.get(edge.from) ?? []);
      this.outgoing.get(edge.from)?.push({ rel: edge.rel, end: edge.to });
      this.incoming.set(edge.to, this.incoming.get(edge.to) ?? []);
      this.incoming.get(edge.to)?.push({ rel: edge.rel, end: edge.from });
    }
  }

  /** The visible other ends of a node's newest PER_NODE_EDGES edges each way (edges are kept newest first). */
  neighbours(id: string): string[] {
    const edges = [...(this.outgoing.get(id) ?? []).slice(0, PER_NODE_EDGES), ...(this.incoming.get(id) ?? []).slice(0, PER_NODE_EDGES)];
    return edges.map((edge) => edge.end).filter((end) => this.cards.has(end));
  }

  /** Every live edge among `ids` (the layout deletes none), as `from|rel|to`. */
  edgesAmong(ids: Set<string>): string[] {
    return [...ids].flatMap((from) =>
      (this.outgoing.get(from) ?? []).filter((e) => ids.has(e.end)).map((e) => `${from}|${e.rel}|${e.end}`),
    );
  }

  /** The seeds in turn, each then its neighbours, while fewer than `limit` nodes are shown. */
  nodeSet(limit: number): NodeSet {
    const shown = new Set<string>();
    for (const seed of this.seeds) {
      if (!shown.has(seed)) {
        if (shown.size >= limit) continue;
        shown.add(seed);
      }
      const fresh = new Set(this.neighbours(seed).filter((id) => !shown.has(id)));
      const room = limit - shown.size;
      if (fresh.size > room) return { sure: shown, choice: { among: fresh, room } };
      for (const id of fresh) shown.add(id);
    }
    return { sure: shown };
  }
}

/** Why `ids` is not a node set the model allows, or undefined. */
function nodeSetWrong(want: NodeSet, ids: Set<string>): string | undefined {
  const missing = [...want.sure].filter((id) => !ids.has(id));
  const extra = [...ids].filter((id) => !want.sure.has(id));
  const room = want.choice?.room ?? 0;
  const outside = extra.filter((id) => want.choice?.among.has(id) !== true);
  if (missing.length === 0 && outside.length === 0 && extra.length === room) return undefined;
  const among = want.choice === undefined ? "" : `, then ${room} of ${JSON.stringify(sorted(want.choice.among))}`;
  return `nodes: expected ${JSON.stringify(sorted(want.sure))}${among}; missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)}`;
}

/** Why a node is not the card the view shows (another agent's draft, another doc's or branch's card), or undefined. */
function nodeWrong(view: GraphView, node: Json, seeds: Set<string>, untested: Set<string>): string | undefined {
  const id = String(node.id);
  const card = view.cards.get(id);
  if (card === undefined) return `node ${id} is not a card this view shows`;
  const want = {
    id,
    type: card.type,
    status: card.status,
    tags: card.tags,
    lane: card.lane,
    open: !CLOSED.has(card.status),
    untested: untested.has(id),
    conflicted: false,
    seed: seeds.has(id),
  };
  const got = Object.fromEntries(Object.keys(want).map((key) => [key, node[key]]));
  return same(got, want) ? undefined : `node ${id}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
}

/** The call of think_frontier_graph in `place` (`aim`: the target, for the task's graph) and its check. */
export function frontierGraphRequest(model: CardsModel, place: Place, aim: Json, call: GraphCall = {}) {
  const limit = call.limit ?? GRAPH_LIMIT;
  const view = new GraphView(model, place, call.allLanes === true);
  const want = view.nodeSet(limit);
  const seeds = new Set(view.seeds);
  const counts = view.lists.map((ids) => Math.min(ids.length, FRONTIER_COUNT));
  const frontierCapped = view.lists.some((ids) => ids.length > FRONTIER_COUNT);
  const args: Json = {
    ...aim,
    ...(call.limit === undefined ? {} : { limit: call.limit }),
    ...(call.allLanes === true ? { all_lanes: true } : {}),
    ...(call.budgetProfile === undefined ? {} : { budget_profile: call.budgetProfile }),
  };
  const wrong = (v: Json): string | undefined => {
    const nodes = list(v.nodes);
    const ids = new Set(nodes.map((node) => String(node.id)));
    const explored = view.seeds.filter((id) => ids.has(id));
    const untested = new Set(
      explored.filter(
        (id) =>
          view.cards.get(id)?.type === "hypothesis" &&
          !CLOSED.has(view.cards.get(id)?.status ?? "") &&
          !view.neighbours(id).some((other) => view.cards.get(other)?.type === "test"),
      ),
    );
    const reached = new Set([...view.seeds, ...explored.flatMap((id) => view.neighbours(id))]);
    const leftOut = [...reached].filter((id) => !ids.has(id)).length;
    const edges = view.edgesAmong(ids);
    const gotEdges = list(v.edges).map((edge) => `${String(edge.from)}|${String(edge.rel)}|${String(edge.to)}`);
    const edgesWrong =
      edges.length <= MAX_SHOWN_EDGES
        ? !same(sorted(gotEdges), sorted(edges))
        : gotEdges.length !== MAX_SHOWN_EDGES || gotEdges.some((edge) => !edges.includes(edge));
    const frontier = object(v.frontier);
    const gotCounts = FRONTIER_TYPES.map((type) => frontier[COUNT_FIELDS[type]]);
    const hypotheses = new Set(view.lists[1]?.slice(0, FRONTIER_COUNT));
    const untestedCount = [...untested].filter((id) => hypotheses.has(id)).length;
    const expect = (what: string, got: unknown, wanted: unknown) =>
      same(got, wanted) ? undefined : `${what}: expected ${JSON.stringify(wanted)}, got ${JSON.stringify(got)}`;
    return (
      expect("branch", v.branch, place.branch) ??
      expect("graph_doc", v.graph_doc, place.graphDoc) ??
      expect("budget.truncated", object(v.budget).truncated ?? false, false) ??
      expect("distinct nodes", ids.size, nodes.length) ??
      nodeSetWrong(want, ids) ??
      nodes.map((node) => nodeWrong(view, node, seeds, untested)).find((why) => why !== undefined) ??
      (edgesWrong ? `edges: expected ${JSON.stringify(sorted(edges))}, got ${JSON.stringify(sorted(gotEdges))}` : undefined) ??
      expect("conflicts (the layout opens none)", v.conflicts, []) ??
      expect("frontier counts", gotCounts, counts) ??
      expect("frontier.untested_hypotheses", frontier.untested_hypotheses, untestedCount) ??
      expect("frontier_capped", v.frontier_capped, frontierCapped) ??
      expect("shown", v.shown, nodes.length) ??
      expect("left_out", v.left_out, leftOut) ??
      expect("capped", v.capped, leftOut > 0)
    );
  };
  return { tool: "think_frontier_graph", args, wrong, nodes: want.sure.size + (want.choice?.room ?? 0) };
}

/**
 * The calls checked once before measuring, in both places: every limit up to the default answer's node
 * count (the limit fills), and every lane under the audit budget (other agents' open drafts are seeds:
 * at 100,000 cards over FRONTIER_COUNT per type, so the frontier is capped and the 200 nodes are full).
 */
export function frontierGraphCases(model: CardsModel, task: string) {
  return (["checkout", "task"] as ScopeName[]).flatMap((scope) => {
    const place = PLACES[scope];
    const aim: Json = scope === "task" ? { target: task } : {};
    const drawn = frontierGraphRequest(model, place, aim).nodes;
    const limits = Array.from({ length: Math.min(drawn, MAX_FILL_LIMIT) }, (_, index) => index + 1);
    return [
      ...limits.map((limit) => frontierGraphRequest(model, place, aim, { limit })),
      frontierGraphRequest(model, place, aim, { allLanes: true, budgetProfile: "audit" }),
    ];
  });
}
