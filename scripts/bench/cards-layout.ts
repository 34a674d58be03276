/**
 * The cards suite's layout, as pure data: the cards a team of agents leaves in a workspace with a
 * focused task, the import steps that write them, and a model of every card version and edge, from which the
 * expected answers of the checks come. No server here (cards-seed.ts writes the steps).
 *
 * Two card docs, each of `size` cards, since think_card writes to one of two places
 * (src/capabilities/think/think.scope.ts): given no place, the caller's checkout (`main`, doc `graph`),
 * read by `status`, `think_*` and `context_pack` without a target; given `target: TASK-001`, the task's
 * reasoning branch `task/TASK-001`, doc `TASK-001-graph`, where a card written while the task has an
 * open step gets that step's tag (`step:<step id, lower case>`), read by `tasks_snapshot` and by the
 * reads given the target. A card is a graph node: its type (a card type), title, text, status (`open`
 * unless given), its tags lowercased and sorted, and `meta: {lane}` (`shared`, or `agent/<id>` for a
 * draft), as `commitCard` (think/cards.ts) writes it. In each doc:
 *
 * - the oldest cards are the open ones (OPEN_SET: questions, hypotheses, a test, a decision); in the
 *   task's doc the first three carry the step tag;
 * - then the rest, newer, of mixed types: in the shared lane all closed (CLOSED_STATUSES of
 *   graph/card-shape.ts), every 10th in the task's doc step-tagged; 10 % of all cards are open drafts
 *   in `agent/alice` or `agent/bob` (the last tenth of every block of size/20), which `bench` never sees;
 * - each shared evidence card supports the newest shared hypothesis before it on its branch.
 *
 * On the checkout side, a chain `kchain/1` … `kchain/3` (each off the one before, the first off `main`)
 * with size/100 cards per run, forked while `main` goes on, and `kchain/2` closing the open hypothesis
 * C1 (so the chain's views differ from `main`'s by cutoffs and by shadowing). Both scopes also get a few
 * notes and trace entries (fixed counts), so the packs have tails to show.
 */

/** The card statuses that count as closed (src/capabilities/graph/card-shape.ts, CLOSED_STATUSES). */
export const CLOSED_STATUSES = ["done", "closed", "resolved", "rejected", "canceled", "superseded"] as const;
/** The frontier's card types, in the order its answer lists them. */
export const FRONTIER_TYPES = ["question", "hypothesis", "test", "decision"] as const;
/** The oldest cards of each doc, all open; in the task's doc the first STEP_TAGGED_OPEN carry the step tag. */
export const OPEN_SET = ["question", "hypothesis", "test", "decision", "hypothesis", "question"] as const;
const STEP_TAGGED_OPEN = 3;
/** The types of the newer cards, in a repeating pattern of 20. */
const TYPE_PATTERN = [
  ...["note", "evidence", "hypothesis", "note", "evidence", "test", "update", "evidence", "hypothesis", "question"],
  ...["note", "evidence", "decision", "frame", "evidence", "hypothesis", "test", "note", "update", "decision"],
] as const;
const CLOSED_BY_TYPE: Record<string, readonly string[]> = {
  question: ["resolved"],
  hypothesis: ["rejected", "done"],
  test: ["done"],
  decision: ["done", "superseded"],
  frame: ["closed"],
};
const TOPICS = ["storage", "parser", "latency", "api", "merge"] as const;
/** The agents whose drafts make up 10 % of the cards, a block each in turn. */
export const LANE_AGENTS = ["alice", "bob"] as const;
/** The measuring agent: the bench's own lane is `agent/bench` (it has no cards there). */
export const BENCH_AGENT = "bench";
const BLOCKS = 20;
const DRAFT_SHARE = 10;
export const CHAIN_DEPTH = 3;
export const chainName = (depth: number): string => `kchain/${depth}`;
/** Notes and trace entries per scope, the same at every size. */
export const SCOPE_NOTES = 20;
export const SCOPE_TRACE = 30;
export const MIN_CARD_SIZE = 1_000;
export const CARD_SIZE_STEP = 1_000;

export type ScopeName = "checkout" | "task";
export interface Place {
  branch: string;
  graphDoc: string;
  traceDoc: string;
  notesDoc: string;
}
export const TASK_ID = "TASK-001";
export const PLACES: Record<ScopeName, Place> = {
  checkout: { branch: "main", graphDoc: "graph", traceDoc: "trace", notesDoc: "notes" },
  task: { branch: `task/${TASK_ID}`, graphDoc: `${TASK_ID}-graph`, traceDoc: `${TASK_ID}-trace`, notesDoc: "notes" },
};

/** One edge as the model keeps it (`order`: the order of the card version written just before it). */
export interface EdgeVersion {
  from: string;
  rel: string;
  to: string;
  branch: string;
  doc: string;
  order: number;
}

/** One card version as the model keeps it (`order`: its place in the write order, as its seq is). */
export interface CardVersion {
  id: string;
  type: string;
  status: string;
  tags: string[];
  lane: string;
  branch: string;
  doc: string;
  order: number;
}

export type GraphOp =
  | { op: "node_upsert"; id: string; type: string; title: string; text: string; status: string; tags: string[]; meta: { lane: string } }
  | { op: "edge_upsert"; from: string; rel: "supports"; to: string };
export type CardStep =
  | { kind: "branch"; name: string; from: string }
  | { kind: "graph"; agent: string; branch: string; doc: string; op: GraphOp }
  | { kind: "note"; branch: string; doc: string; title: string; content: string };

export interface CardsLayout {
  size: number;
  stepTag: string;
  steps: CardStep[];
  versions: CardVersion[];
  edges: EdgeVersion[];
  /** Branch → its base and the order of the last version the base had when it forked. */
  bases: Map<string, { base: string; cutoff: number }>;
  counts: { cards: number; drafts: number; edges: number; chain_cards: number; notes: number };
}

const cap = (word: string): string => `${word[0]?.toUpperCase() ?? ""}${word.slice(1)}`;

function cardText(id: string, type: string, k: number): { title: string; text: string } {
  const topic = TOPICS[k % TOPICS.length] ?? "storage";
  return {
    title: `${cap(type)} ${id}: ${topic} path ${k % 97}`,
    text: `About the ${topic} path: case ${k % 13} of ${id}, seen under load ${k % 7}.`,
  };
}

class Builder {
  readonly steps: CardStep[] = [];
  readonly versions: CardVersion[] = [];
  readonly edgeVersions: EdgeVersion[] = [];
  readonly bases = new Map<string, { base: string; cutoff: number }>();
  private lastHypothesis = new Map<string, string>();
  edges = 0;
  drafts = 0;

  readonly stepTag: string;

  constructor(stepTag: string) {
    this.stepTag = stepTag;
  }

  branch(name: string, from: string): void {
    this.bases.set(name, { base: from, cutoff: this.versions.length });
    this.steps.push({ kind: "branch", name, from });
  }

  node(branch: string, doc: string, agent: string, card: Omit<CardVersion, "branch" | "doc" | "order">, k: number): void {
    const { title, text } = cardText(card.id, card.type, k);
    this.versions.push({ ...card, branch, doc, order: this.versions.length + 1 });
    const op: GraphOp = {
      op: "node_upsert",
      id: card.id,
      type: card.type,
      title,
      text,
      status: card.status,
      tags: card.tags,
      meta: { lane: card.lane },
    };
    this.steps.push({ kind: "graph", agent, branch, doc, op });
    if (card.lane !== "shared") return;
    const key = `${branch}\u0000${doc}`;
    if (card.type === "hypothesis") this.lastHypothesis.set(key, card.id);
    const to = this.lastHypothesis.get(key);
    if (card.type === "evidence" && to !== undefined) {
      this.steps.push({ kind: "graph", agent, branch, doc, op: { op: "edge_upsert", from: card.id, rel: "supports", to } });
      this.edgeVersions.push({ from: card.id, rel: "supports", to, branch, doc, order: this.versions.length });
      this.edges++;
    }
  }

  /** The k-th card of a run (`block`: the run's draft block size), `prefix` naming it. */
  card(scope: ScopeName, branch: string, doc: string, prefix: string, k: number, block: number): void {
    const id = `${prefix}${k}`;
    const topic = TOPICS[k % TOPICS.length] ?? "storage";
    const slot = k % block;
    if (slot >= block - block / DRAFT_SHARE) {
      const agent = LANE_AGENTS[Math.floor(k / block) % LANE_AGENTS.length] ?? "alice";
      const type = TYPE_PATTERN[k % TYPE_PATTERN.length] ?? "note";
      this.drafts++;
      this.node(branch, doc, agent, { id, type, status: "open", tags: [topic], lane: `agent/${agent}` }, k);
      return;
    }
    const stepTagged = scope === "task" && (prefix.length === 1 && k < OPEN_SET.length ? k < STEP_TAGGED_OPEN : k % 10 === 3);
    const tags = [
      topic,
      ...(k % 25 === 7 ? ["assumption"] : []),
      ...(k % 1000 === 500 ? ["pinned"] : []),
      ...(stepTagged ? [this.stepTag] : []),
    ];
    const open = prefix.length === 1 ? OPEN_SET[k] : undefined;
    const type = open ?? TYPE_PATTERN[k % TYPE_PATTERN.length] ?? "note";
    const closed = CLOSED_BY_TYPE[type] ?? ["done"];
    const status = open !== undefined ? "open" : (closed[Math.floor(k / TYPE_PATTERN.length) % closed.length] ?? "done");
    this.node(branch, doc, BENCH_AGENT, { id, type, status, tags: [...new Set(tags)].sort(), lane: "shared" }, k);
  }

  notes(place: Place): void {
    for (let i = 0; i < SCOPE_NOTES; i++) {
      this.steps.push({
        kind: "note",
        branch: place.branch,
        doc: place.notesDoc,
        title: `Note ${i}`,
        content: `Progress note ${i}: the ${TOPICS[i % 5]} path.`,
      });
    }
    for (let i = 0; i < SCOPE_TRACE; i++) {
      this.steps.push({
        kind: "note",
        branch: place.branch,
        doc: place.traceDoc,
        title: `Step ${i}`,
        content: `Tried case ${i % 13}; see the cards.`,
      });
    }
  }
}

/** The layout of `size` cards per doc; `stepTag` is the open step's tag (known once the task exists). */
export function buildCardsLayout(size: number, stepTag: string): CardsLayout {
  if (size < MIN_CARD_SIZE || size % CARD_SIZE_STEP !== 0)
    throw new Error(`card size ${size}: a multiple of ${CARD_SIZE_STEP}, at least ${MIN_CARD_SIZE}`);
  const b = new Builder(stepTag);
  const block = size / BLOCKS;
  const chainRun = size / 100;
  const { checkout, task } = PLACES;
  let k = 0;
  const main = (until: number) => {
    for (; k < until; k++) b.card("checkout", checkout.branch, checkout.graphDoc, "C", k, block);
  };
  const chainRuns = new Map<number, number>();
  const chain = (depth: number) => {
    const from = chainRuns.get(depth) ?? 0;
    for (let j = from; j < from + chainRun; j++) b.card("checkout", chainName(depth), checkout.graphDoc, `X${depth}-`, j, chainRun);
    chainRuns.set(depth, from + chainRun);
  };
  main(size / 2);
  b.branch(chainName(1), checkout.branch);
  chain(1);
  main((size * 5) / 8);
  b.branch(chainName(2), chainName(1));
  const h1 = b.versions.find((v) => v.id === "C1");
  if (h1 === undefined || h1.type !== "hypothesis") throw new Error("the layout's C1 is not the open hypothesis");
  b.node(chainName(2), checkout.graphDoc, BENCH_AGENT, { ...h1, status: "rejected" }, 1);
  chain(2);
  chain(1);
  main((size * 3) / 4);
  b.branch(chainName(3), chainName(2));
  chain(3);
  chain(2);
  main(size);
  for (let t = 0; t < size; t++) b.card("task", task.branch, task.graphDoc, "T", t, block);
  b.notes(checkout);
  b.notes(task);
  const chainCards = [...chainRuns.values()].reduce((sum, n) => sum + n, 0);
  return {
    size,
    stepTag,
    steps: b.steps,
    versions: b.versions,
    edges: b.edgeVersions,
    bases: b.bases,
    counts: {
      cards: 2 * size + chainCards,
      drafts: b.drafts,
      edges: b.edges,
      chain_cards: chainCards,
      notes: 2 * (SCOPE_NOTES + SCOPE_TRACE),
    },
  };
}
