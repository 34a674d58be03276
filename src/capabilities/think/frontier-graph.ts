/**
 * The frontier as a graph to draw (`think_frontier_graph`, the app's and the viewer's graph view): the
 * open conflicts into the scope's branch and graph doc, then the open questions, hypotheses, tests and
 * decisions (newest first, taken in turn so each type shows), each with one hop of neighbours, until
 * `limit` nodes; and every live edge among the nodes shown. `around` draws chosen nodes and their
 * neighbours instead ("the rest is a click away").
 *
 * Lanes: a node in another agent's lane is never shown (unless `all_lanes`), as a neighbour either.
 * Marks: `open` (not a closed status), `untested` (an open hypothesis with no visible edge to or from a
 * test card), `conflicted` (named by an open conflict, an edge conflict naming both ends), `seed` (not
 * only a neighbour). Bounded: at most MAX_GRAPH_NODES nodes, PER_NODE_EDGES edges per direction per
 * seed, MAX_SHOWN_EDGES edges; the frontier's open cards are read and counted up to FRONTIER_COUNT per type.
 */
import type { CommandContext } from "../../commands/context";
import { branchById, type Source, sourcesOf } from "../../place/branches.store";
import { type Card, isClosedStatus, toCard } from "../graph/card-shape";
import { conflictPage } from "../graph/conflicts.store";
import { isLive, lookupVersions, toEdge, type VersionRow, versionKey } from "../graph/graph.store";
import { edgeEndsAround, edgesBetween } from "../graph/graph-edges.store";
import { allOf } from "../graph/graph-filters.store";
import { visibleLanes } from "../graph/lanes";
import { OPEN, ofType } from "./card-filters";
import { visibleCardPages } from "./card-view";
import type { FrontierScope } from "./frontier-scope";

/** Nodes one view draws: a person reads 200 labelled cards; more is a grid of dots. */
export const MAX_GRAPH_NODES = 200;
/** Nodes `around` may name: one click, or a handful. */
export const MAX_AROUND = 20;
/** Open cards counted (and offered as seeds) per type: as many as one view could draw. */
const FRONTIER_COUNT = MAX_GRAPH_NODES;
/** Open conflicts drawn: more is a merge to finish through MCP, not a picture. */
const MAX_CONFLICTS = 50;
/** Edges read per direction per seed: a hub's further edges are a click on a neighbour away. */
const PER_NODE_EDGES = 50;
/** Seeds read together: a few statements for 25 cards, and little read past the limit. */
const SEED_CHUNK = 25;
/** Edges among the shown nodes: 200 nodes rarely hold more, and each edge is drawn. */
const MAX_SHOWN_EDGES = 1_000;
const FRONTIER_TYPES = ["question", "hypothesis", "test", "decision"] as const;

export interface FrontierGraphNode {
  id: string;
  type: string;
  title?: string;
  status?: string;
  tags: string[];
  lane: string;
  open: boolean;
  untested: boolean;
  conflicted: boolean;
  seed: boolean;
}

export interface FrontierGraph {
  nodes: FrontierGraphNode[];
  edges: { from: string; rel: string; to: string }[];
  conflicts: { conflict_id: string; kind: string; key: string; from: string }[];
  frontier: { questions: number; hypotheses: number; untested_hypotheses: number; tests: number; decisions: number };
  frontier_capped: boolean;
  shown: number;
  left_out: number;
  capped: boolean;
}

/** The two ends of an edge key `from|rel|to`. */
function endsOf(key: string): string[] {
  const parts = key.split("|");
  return parts.length === 3 ? [parts[0] as string, parts[2] as string] : [];
}

/** Round-robin over the lists: the newest of each type first, so every type shows under the limit. */
function interleaved(lists: Card[][]): Card[] {
  const out: Card[] = [];
  for (let index = 0; lists.some((list) => index < list.length); index++) {
    for (const list of lists) {
      const card = list[index];
      if (card !== undefined) out.push(card);
    }
  }
  return out;
}

class GraphBuilder {
  readonly shown = new Map<string, Card & { seed: boolean }>();
  readonly touching = new Map<string, string[]>();
  private readonly lanes: string[] | null;
  readonly notShown = new Set<string>();

  constructor(
    private readonly ctx: CommandContext,
    private readonly sources: Source[],
    private readonly doc: string,
    allLanes: boolean,
    private readonly limit: number,
  ) {
    this.lanes = visibleLanes(ctx, allLanes);
  }

  /** The row as a card, when it is live and in a lane the caller sees. */
  private visibleCard(row: VersionRow | undefined): Card | undefined {
    if (!isLive(row)) return undefined;
    const card = toCard(row);
    return this.lanes === null || this.lanes.includes(card.lane) ? card : undefined;
  }

  private visibleCards(ids: string[]): Map<string, Card> {
    const rows = lookupVersions(
      this.ctx.db,
      this.sources,
      this.doc,
      ids.map((key) => ({ kind: "node" as const, key })),
    );
    const cards = new Map<string, Card>();
    for (const id of ids) {
      const card = this.visibleCard(rows.get(versionKey("node", id)));
      if (card !== undefined) cards.set(id, card);
    }
    return cards;
  }

  private add(card: Card, seed: boolean): boolean {
    const kept = this.shown.get(card.id);
    if (kept !== undefined) {
      if (seed) kept.seed = true;
      return true;
    }
    if (this.shown.size >= this.limit) {
      this.notShown.add(card.id);
      return false;
    }
    this.shown.set(card.id, { ...card, seed });
    this.notShown.delete(card.id);
    return true;
  }

  /**
   * The seeds in order, each followed by its visible neighbours as room allows; remembers which
   * visible nodes touch each seed. Seeds are read SEED_CHUNK at a time (their edges' ends in two
   * statements, the cards at those ends in one); once the view is full, only seeds already drawn
   * are read, for their neighbours left out to be counted.
   */
  seedAll(seeds: Card[]): void {
    for (let start = 0; start < seeds.length; start += SEED_CHUNK) {
      const chunk = seeds.slice(start, start + SEED_CHUNK);
      const full = this.shown.size >= this.limit;
      const reached = full ? chunk.filter((card) => this.shown.has(card.id)) : chunk;
      const ends = edgeEndsAround(
        this.ctx.db,
        this.sources,
        this.doc,
        reached.map((card) => card.id),
        PER_NODE_EDGES,
      );
      const cards = this.visibleCards([...new Set([...ends.values()].flat())]);
      for (const card of chunk) {
        if (!this.add(card, true)) continue;
        const neighbours = (ends.get(card.id) ?? []).flatMap((id) => cards.get(id) ?? []);
        this.touching.set(
          card.id,
          neighbours.map((other) => other.type),
        );
        for (const other of neighbours) this.add(other, false);
      }
    }
  }

  /** Cards of ids (conflicted nodes, `around`), each found in the view and visible to the caller. */
  cardsOf(ids: string[]): Card[] {
    const cards = this.visibleCards(ids);
    return ids.flatMap((id) => cards.get(id) ?? []);
  }
}

function isOpen(card: { status?: string }): boolean {
  return !isClosedStatus(card.status);
}

export function frontierGraph(
  ctx: CommandContext,
  scope: FrontierScope,
  options: { around?: string[] | undefined; limit: number; allLanes: boolean },
): FrontierGraph {
  const doc = scope.graphDoc;
  const sources = sourcesOf(ctx.db, scope.branch);
  const builder = new GraphBuilder(ctx, sources, doc, options.allLanes, options.limit);
  const open = conflictPage(ctx.db, scope.branch.id, doc, "open", undefined, MAX_CONFLICTS).rows;
  const conflicted = new Set(open.flatMap((row) => (row.kind === "node" ? [row.key] : endsOf(row.key))));
  const pages = visibleCardPages(
    ctx,
    doc,
    sources,
    FRONTIER_TYPES.map((type) => ({ filter: allOf(ofType(type), OPEN), limit: FRONTIER_COUNT })),
    options.allLanes,
  );
  const lists = pages.map((page) => page.cards);
  const seeds =
    options.around !== undefined ? builder.cardsOf(options.around) : [...builder.cardsOf([...conflicted]), ...interleaved(lists)];
  builder.seedAll(seeds);

  const ids = [...builder.shown.keys()];
  const edges = edgesBetween(ctx.db, sources, doc, ids, MAX_SHOWN_EDGES).rows.map((row) => {
    const { from, rel, to } = toEdge(row);
    return { from, rel, to };
  });
  const untested = (card: Card) =>
    card.type === "hypothesis" && isOpen(card) && builder.touching.has(card.id) && !builder.touching.get(card.id)?.includes("test");
  const nodes = [...builder.shown.values()].map((card) => ({
    id: card.id,
    type: card.type,
    ...(card.title === undefined ? {} : { title: card.title }),
    ...(card.status === undefined ? {} : { status: card.status }),
    tags: card.tags,
    lane: card.lane,
    open: isOpen(card),
    untested: untested(card),
    conflicted: conflicted.has(card.id),
    seed: card.seed,
  }));
  const [questions, hypotheses, tests, decisions] = lists.map((list) => list.length) as [number, number, number, number];
  return {
    nodes,
    edges,
    conflicts: open.map((row) => ({
      conflict_id: row.conflict_id,
      kind: row.kind,
      key: row.key,
      from: branchById(ctx.db, row.from_branch_id).name,
    })),
    frontier: {
      questions,
      hypotheses,
      untested_hypotheses: (lists[1] ?? []).filter(untested).length,
      tests,
      decisions,
    },
    frontier_capped: pages.some((page) => page.next !== undefined),
    shown: nodes.length,
    left_out: builder.notShown.size,
    capped: builder.notShown.size > 0,
  };
}
