/**
 * The frontier suite's model: what `think_frontier_graph` and `think_frontier` answer on the layout of
 * frontier-layout.ts, built the way src/capabilities/think/frontier-graph.ts builds it, so each answer
 * can be compared node by node.
 *
 * The view (`bench` sees the shared lane and its own; `all_lanes` every lane): the seeds are, with no
 * conflict open, the open cards of each frontier type, newest first, at most FRONTIER_COUNT per type,
 * taken in turn (question, hypothesis, test, decision; `around`: the cards asked). Each seed in turn is
 * added while fewer than `limit` nodes are shown (a card already shown is marked a seed), and if it is
 * shown, its neighbours follow in order as room allows: the other ends of its newest PER_NODE_EDGES
 * edges leaving it, newest first, then of its newest PER_NODE_EDGES arriving, newest first, those the
 * caller sees (an edge to another agent's draft takes its place among the 50 and is then dropped).
 * What is not added when it comes is left out; `untested` is an open hypothesis explored (shown at its
 * turn) with no test among its visible neighbours; the edges are every live edge among the nodes,
 * newest first; the counts are the open cards per type, each capped at FRONTIER_COUNT.
 */
import { FRONTIER_TYPES, type FrontierCard, type FrontierLayout, isOpen } from "./frontier-layout.ts";

/** think_frontier_graph's default and largest `limit` (frontier-graph.ts MAX_GRAPH_NODES). */
export const GRAPH_LIMIT = 200;
/** Open cards read, counted and offered as seeds per type (frontier-graph.ts FRONTIER_COUNT). */
const FRONTIER_COUNT = 200;
/** Edges read per direction per seed, the newest (frontier-graph.ts PER_NODE_EDGES). */
export const PER_NODE_EDGES = 50;
/** Edges among the shown nodes at most (frontier-graph.ts MAX_SHOWN_EDGES); the layout stays under it. */
const MAX_SHOWN_EDGES = 1_000;
const OWN_LANES: ReadonlySet<string> = new Set(["shared", "agent/bench"]);

/** A node as the answer lists it, its fields in the answer's order. */
export interface ModelNode {
  id: string;
  type: string;
  title: string;
  status?: string;
  tags: string[];
  lane: string;
  open: boolean;
  untested: boolean;
  conflicted: boolean;
  seed: boolean;
}

export interface ModelGraph {
  nodes: ModelNode[];
  /** `from|rel|to`, newest first. */
  edges: string[];
  frontier: { questions: number; hypotheses: number; untested_hypotheses: number; tests: number; decisions: number };
  frontier_capped: boolean;
  shown: number;
  left_out: number;
  capped: boolean;
}

interface Half {
  rel: string;
  end: string;
  order: number;
}

const newestFirst = (a: { order: number }, b: { order: number }) => b.order - a.order;

/** The model of one layout: each card's edges both ways, newest first. */
export class FrontierModel {
  private readonly outgoing = new Map<string, Half[]>();
  private readonly incoming = new Map<string, Half[]>();
  readonly layout: FrontierLayout;

  constructor(layout: FrontierLayout) {
    this.layout = layout;
    for (const edge of layout.edges) {
      this.outgoing.set(edge.from, [...(this.outgoing.get(edge.from) ?? []), { rel: edge.rel, end: edge.to, order: edge.order }]);
      this.incoming.set(edge.to, [...(this.incoming.get(edge.to) ?? []), { rel: edge.rel, end: edge.from, order: edge.order }]);
    }
    for (const halves of [...this.outgoing.values(), ...this.incoming.values()]) halves.sort(newestFirst);
  }

  /** The card as `bench` sees it (its lanes, or every lane), or undefined. */
  private visible(id: string, allLanes: boolean): FrontierCard | undefined {
    const card = this.layout.cards.get(id);
    return card !== undefined && (allLanes || OWN_LANES.has(card.lane)) ? card : undefined;
  }

  /** The ids of the `limit` newest open visible cards of `type`. */
  openCards(type: string, limit: number, allLanes = false): string[] {
    return [...this.layout.cards.values()]
      .filter((card) => card.type === type && isOpen(card) && this.visible(card.id, allLanes) !== undefined)
      .sort(newestFirst)
      .slice(0, limit)
      .map((card) => card.id);
  }

  /** A seed's neighbours in the order the build adds them (frontier-graph.ts seedAll, graph-edges.store.ts edgeEndsAround). */
  neighbours(id: string, allLanes: boolean): FrontierCard[] {
    const halves = [...(this.outgoing.get(id) ?? []).slice(0, PER_NODE_EDGES), ...(this.incoming.get(id) ?? []).slice(0, PER_NODE_EDGES)];
    return halves.flatMap((half) => this.visible(half.end, allLanes) ?? []);
  }

  /** The answer of think_frontier_graph: the frontier's (or `around`'s) seeds at `limit`. */
  graph(options: { limit?: number; allLanes?: boolean; around?: string[] } = {}): ModelGraph {
    const limit = options.limit ?? GRAPH_LIMIT;
    const allLanes = options.allLanes === true;
    // One more than read per type: whether the frontier is capped.
    const lists = FRONTIER_TYPES.map((type) => this.openCards(type, FRONTIER_COUNT + 1, allLanes));
    const pages = lists.map((ids) => ids.slice(0, FRONTIER_COUNT));
    const seeds =
      options.around !== undefined
        ? options.around.flatMap((id) => (this.visible(id, allLanes) === undefined ? [] : [id]))
        : interleaved(pages);
    const shown = new Map<string, boolean>();
    const notShown = new Set<string>();
    const touching = new Map<string, string[]>();
    const add = (id: string, seed: boolean): boolean => {
      if (shown.has(id)) {
        if (seed) shown.set(id, true);
        return true;
      }
      if (shown.size >= limit) {
        notShown.add(id);
        return false;
      }
      shown.set(id, seed);
      notShown.delete(id);
      return true;
    };
    for (const seed of seeds) {
      if (!add(seed, true)) continue;
      const neighbours = this.neighbours(seed, allLanes);
      touching.set(
        seed,
        neighbours.map((card) => card.type),
      );
      for (const card of neighbours) add(card.id, false);
    }
    const card = (id: string) => this.layout.cards.get(id) as FrontierCard;
    const untested = (id: string) =>
      card(id).type === "hypothesis" && isOpen(card(id)) && touching.has(id) && !touching.get(id)?.includes("test");
    const nodes = [...shown].map(([id, seed]): ModelNode => {
      const { type, title, status, tags, lane } = card(id);
      const open = isOpen(card(id));
      return {
        id,
        type,
        title,
        ...(status === undefined ? {} : { status }),
        tags,
        lane,
        open,
        untested: untested(id),
        conflicted: false,
        seed,
      };
    });
    const edges = this.layout.edges
      .filter((edge) => shown.has(edge.from) && shown.has(edge.to))
      .sort(newestFirst)
      .map((edge) => `${edge.from}|${edge.rel}|${edge.to}`);
    if (edges.length > MAX_SHOWN_EDGES) throw new Error(`the frontier layout draws ${edges.length} edges, over ${MAX_SHOWN_EDGES}`);
    const [questions, hypotheses, tests, decisions] = pages.map((ids) => ids.length) as [number, number, number, number];
    return {
      nodes,
      edges,
      frontier: {
        questions,
        hypotheses,
        untested_hypotheses: (pages[1] ?? []).filter((id) => untested(id)).length,
        tests,
        decisions,
      },
      frontier_capped: lists.some((ids) => ids.length > FRONTIER_COUNT),
      shown: nodes.length,
      left_out: notShown.size,
      capped: notShown.size > 0,
    };
  }
}

/** Round-robin over the lists, as frontier-graph.ts `interleaved`: the newest of each type first. */
export function interleaved(lists: string[][]): string[] {
  const out: string[] = [];
  for (let index = 0; lists.some((ids) => index < ids.length); index++) {
    for (const ids of lists) {
      const id = ids[index];
      if (id !== undefined) out.push(id);
    }
  }
  return out;
}
