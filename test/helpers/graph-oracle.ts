/**
 * The model behind test/graph-terms-property.test.ts: random node writes as genes, their replay into
 * graph ops under the lane rules of src/capabilities/graph/graph-apply.ts (each writer writes the shared
 * lane or its own; an upsert without meta.lane keeps an agent's lane), the effective view they leave on
 * each branch (its own writes over its base as of its fork), and what each filtered read must select
 * from a view. The lists are written out here, not imported: the oracle must not share the code's.
 */
import fc from "fast-check";

export const CARD_TYPES = ["frame", "hypothesis", "question", "test", "evidence", "decision", "note", "update"];
export const NODE_TYPES = [...CARD_TYPES, "task-note", "widget"];
/** Statuses written; "Done" is not "done" (statuses are case-sensitive: it counts as open). */
export const STATUSES = [undefined, "open", "blocked", "done", "closed", "rejected", "active", "resolved", "Done"];
export const TAGS = ["pinned", "assumption", "step:step-0000000a", "step:step-0000000b", "risk"];
/** Tags written: "Pinned" is stored as "pinned" (tags are lowercased on write). */
const WRITTEN_TAGS = [...TAGS, "Pinned"];
const CLOSED = new Set(["done", "closed", "resolved", "rejected", "canceled", "superseded"]);
export const WRITERS = ["root", "alice", "bob"] as const;
export type Writer = (typeof WRITERS)[number];
/** What alice's default reads show. */
export const ALICE_LANES = ["shared", "agent/alice"];
/** The branches: main, a branch of main (merged back at the end), and a branch of that branch. */
export const SIDES = ["main", "alt", "sub"] as const;
export type Side = (typeof SIDES)[number];

/** meta of an upsert: none, one without a lane, lane "shared", the writer's own lane, a lane that is not a string. */
type LaneGene = "none" | "meta" | "shared" | "own" | "odd";
export interface Gene {
  del: boolean;
  /** hot: one of the run's small pool; cold: one written earlier with a `c-` id; new: a fresh `c-` id. */
  pool: "hot" | "cold" | "new";
  n: number;
  type: number;
  status: number;
  tags: number[];
  lane: LaneGene;
}
export interface Chunk {
  side: Side;
  writer: Writer;
  /** Through graph_apply (500 ops a batch: a key may be written twice in one insert), else workspace_import. */
  apply: boolean;
  genes: Gene[];
}
export interface Node {
  id: string;
  type: string;
  status?: string | undefined;
  tags: string[];
  lane: string;
  last_seq?: number;
}
export type WireOp = Record<string, unknown>;

const laneGene = fc.oneof(
  { weight: 3, arbitrary: fc.constant<LaneGene>("none") },
  { weight: 1, arbitrary: fc.constant<LaneGene>("meta") },
  { weight: 2, arbitrary: fc.constant<LaneGene>("shared") },
  { weight: 3, arbitrary: fc.constant<LaneGene>("own") },
  { weight: 1, arbitrary: fc.constant<LaneGene>("odd") },
);
const fields = {
  type: fc.nat(NODE_TYPES.length - 1),
  status: fc.nat(STATUSES.length - 1),
  tags: fc.array(fc.nat(WRITTEN_TAGS.length - 1), { maxLength: 3 }),
  lane: laneGene,
};
/** An op on the run's ids: mostly the hot pool (updates and deletes are frequent), sometimes an old or a new id. */
export const geneArb: fc.Arbitrary<Gene> = fc.record({
  del: fc.nat(99).map((roll) => roll < 18),
  pool: fc.oneof(
    { weight: 12, arbitrary: fc.constant<Gene["pool"]>("hot") },
    { weight: 1, arbitrary: fc.constant<Gene["pool"]>("cold") },
    { weight: 1, arbitrary: fc.constant<Gene["pool"]>("new") },
  ),
  n: fc.nat(),
  ...fields,
});
/** An old bulk write: a fresh id (its type is the run's cold type, set by the test), mostly "done". */
export const coldGeneArb: fc.Arbitrary<Gene> = fc
  .record({
    ...fields,
    status: fc.oneof({ weight: 3, arbitrary: fc.constant(STATUSES.indexOf("done")) }, { weight: 2, arbitrary: fields.status }),
  })
  .map((gene) => ({ ...gene, del: false, pool: "new" as const, n: 0 }));

export const isCard = (node: Node) => CARD_TYPES.includes(node.type);
export const isOpen = (node: Node) => isCard(node) && (node.status === undefined || !CLOSED.has(node.status));
export const isBlocker = (node: Node) =>
  isCard(node) && (node.status === "blocked" || (node.type === "question" && node.status === "open"));
export const inLanes = (lanes: string[] | null) => (node: Node) => lanes === null || lanes.includes(node.lane);

/** The ids of `nodes`, newest first (by last_seq, which the ids path reports). */
export function newestFirst(nodes: Node[]): string[] {
  return [...nodes].sort((a, b) => (b.last_seq ?? 0) - (a.last_seq ?? 0)).map((node) => node.id);
}

/** A node as graph_query returns it, reduced to what the filters read. */
export function nodeOf(node: {
  id: string;
  type: string;
  status?: string;
  tags: string[];
  meta?: Record<string, unknown>;
  last_seq: number;
}): Node {
  const lane = typeof node.meta?.lane === "string" ? node.meta.lane : "shared";
  return { id: node.id, type: node.type, status: node.status, tags: node.tags, lane, last_seq: node.last_seq };
}

export const stateOf = (node: Node | null | undefined) =>
  node ? `${node.type}/${node.status ?? "-"}/[${node.tags.join(",")}]/${node.lane}` : "absent";

/** The writes of one run in order, and the effective view they leave on each branch. */
export class Model {
  /** Each branch's own writes (null: deleted), and the view of its base as of its fork. */
  private readonly own = new Map<Side, Map<string, Node | null>>([["main", new Map()]]);
  private readonly bases = new Map<Side, Map<string, Node | null>>();
  /** Every id's writes, in order, for failure messages. */
  readonly history = new Map<string, string[]>();
  readonly ids = new Set<string>();
  written = 0;
  private colds = 0;

  constructor(private readonly hot: number) {}

  fork(child: Side, base: Side): void {
    this.bases.set(child, new Map(this.keysOf(base).map((id) => [id, this.get(base, id) ?? null])));
    this.own.set(child, new Map());
  }

  private keysOf(side: Side): string[] {
    return [...new Set([...(this.bases.get(side)?.keys() ?? []), ...(this.own.get(side)?.keys() ?? [])])];
  }

  private get(side: Side, id: string): Node | null | undefined {
    const own = this.own.get(side);
    return own?.has(id) ? own.get(id) : this.bases.get(side)?.get(id);
  }

  /** The live nodes of a side. */
  view(side: Side): Node[] {
    return this.keysOf(side)
      .map((id) => this.get(side, id))
      .filter((node): node is Node => Boolean(node));
  }

  private idOf(gene: Gene): string {
    if (gene.pool === "hot") return `h-${gene.n % this.hot}`;
    if (gene.pool === "cold" && this.colds > 0) return `c-${gene.n % this.colds}`;
    return `c-${this.colds++}`;
  }

  /** One chunk as graph ops, applied to the model. An op on a node its writer may not write moves to one it may. */
  write(chunk: Chunk): WireOp[] {
    const mine = `agent/${chunk.writer}`;
    return chunk.genes.map((gene) => {
      // A node in another agent's lane is not the writer's: the next hot id it may write, else a new id.
      const writable = (id: string) => {
        const lane = this.get(chunk.side, id)?.lane ?? "shared";
        return lane === "shared" || lane === mine;
      };
      let id = this.idOf(gene);
      for (let step = 1; !writable(id); step++) id = step < this.hot ? `h-${(gene.n + step) % this.hot}` : `c-${this.colds++}`;
      const existing = this.get(chunk.side, id);
      this.written++;
      this.ids.add(id);
      const log = this.history.get(id) ?? [];
      this.history.set(id, log);
      const into = this.own.get(chunk.side) as Map<string, Node | null>;
      if (gene.del && existing) {
        into.set(id, null);
        log.push(`w${this.written} ${chunk.side} ${chunk.writer}: delete`);
        return { op: "node_delete", id };
      }
      const meta = { none: undefined, meta: { src: "p" }, shared: { lane: "shared" }, own: { lane: mine }, odd: { lane: 7 } }[gene.lane];
      const kept = existing && existing.lane !== "shared" ? existing.lane : "shared";
      const lane = meta === undefined || !("lane" in meta) ? kept : typeof meta.lane === "string" ? meta.lane : "shared";
      const written = gene.tags.map((tag) => WRITTEN_TAGS[tag] as string);
      const tags = [...new Set(written.map((tag) => tag.toLowerCase()))].sort();
      const node: Node = { id, type: NODE_TYPES[gene.type] as string, status: STATUSES[gene.status], tags, lane };
      into.set(id, node);
      log.push(`w${this.written} ${chunk.side} ${chunk.writer}: ${stateOf(node)}`);
      return {
        op: "node_upsert",
        id,
        type: node.type,
        title: id,
        ...(node.status === undefined ? {} : { status: node.status }),
        ...(written.length === 0 ? {} : { tags: written }),
        ...(meta === undefined ? {} : { meta }),
      };
    });
  }
}

/** Where `actual` (a read's ids, in order) differs from `expected`: missing, extra, repeated, or out of order. */
export function difference(actual: string[], expected: string[], explain: (id: string) => string): string | undefined {
  const want = new Set(expected);
  const got = new Set(actual);
  const missing = expected.filter((id) => !got.has(id));
  const extra = actual.filter((id) => !want.has(id));
  const seen = new Set<string>();
  const repeated = actual.filter((id) => {
    if (seen.has(id)) return true;
    seen.add(id);
    return false;
  });
  const lines: string[] = [`${actual.length} ids, expected ${expected.length}`];
  const list = (name: string, ids: string[]) => {
    if (ids.length > 0) lines.push(`${name} (${ids.length}): ${ids.slice(0, 4).map(explain).join("; ")}${ids.length > 4 ? "; …" : ""}`);
  };
  list("missing", missing);
  list("extra", extra);
  list("repeated", [...new Set(repeated)]);
  if (lines.length === 1) {
    const at = actual.findIndex((id, index) => id !== expected[index]);
    if (at === -1) return undefined;
    lines.push(`order differs at ${at}: got ${actual[at]}, expected ${expected[at]}`);
  }
  return lines.join("\n    ");
}
