/**
 * A compact model of a graph workspace as the benchmark writes it: every version (one per graph op,
 * on the workspace seq clock, in op order), the branches with their base seqs, and the node and edge
 * keys. From it the benchmark derives exactly what `graph_query` must return on a branch (the page's
 * node ids and seqs, and the edges between them), so a run never measures a store that is not what it
 * claims, and a cutoff that leaks shows up as a wrong seq.
 *
 * Assumes a fresh workspace whose seqs come only from graph ops (branch creation takes none), and no
 * node_delete of a node with live edges (the server would add edge tombstones the model does not).
 * Versions live in typed arrays: a million of them take a few megabytes.
 */

export type GraphOp =
  | {
      op: "node_upsert";
      id: string;
      type: string;
      title?: string;
      text?: string;
      status?: string;
      tags?: string[];
      meta?: Record<string, unknown>;
    }
  | { op: "node_delete"; id: string }
  | { op: "edge_upsert"; from: string; rel: string; to: string; meta?: Record<string, unknown> }
  | { op: "edge_delete"; from: string; rel: string; to: string };

const EDGE = 1;
const DELETED = 2;

export interface ExpectedNode {
  id: string;
  seq: number;
}

export interface ExpectedEdge {
  from: string;
  rel: string;
  to: string;
  seq: number;
}

export class GraphModel {
  /** Versions written so far: the last seq. */
  versions = 0;
  private branchOf = new Uint8Array(1 << 16);
  private flagsOf = new Uint8Array(1 << 16);
  private keyOf = new Int32Array(1 << 16);
  private readonly branchIndex = new Map<string, number>([["main", 0]]);
  private readonly branchNames: string[] = ["main"];
  /** Per branch index: base branch index and base seq (main: none). */
  private readonly bases: { base: number; baseSeq: number }[] = [{ base: -1, baseSeq: 0 }];
  private readonly nodeIndex = new Map<string, number>();
  readonly nodeIds: string[] = [];
  private readonly edgeIndex = new Map<string, number>();
  private readonly edges: { from: number; rel: string; to: number }[] = [];

  get nodeKeys(): number {
    return this.nodeIds.length;
  }

  get edgeKeys(): number {
    return this.edges.length;
  }

  /** A branch created now from `from`: its cutoff is the current seq. */
  addBranch(name: string, from: string): void {
    const base = this.branchIndex.get(from);
    if (base === undefined) throw new Error(`model: unknown base branch ${from}`);
    if (this.branchIndex.has(name)) throw new Error(`model: branch ${name} exists`);
    if (this.bases.length >= 255) throw new Error("model: too many branches");
    this.branchIndex.set(name, this.bases.length);
    this.branchNames.push(name);
    this.bases.push({ base, baseSeq: this.versions });
  }

  /** The branch that wrote version `seq`. */
  branchOfSeq(seq: number): string {
    if (seq < 1 || seq > this.versions) throw new Error(`model: no version ${seq}`);
    return this.branchNames[this.branchOf[seq - 1] ?? 0] ?? "?";
  }

  private node(id: string): number {
    let index = this.nodeIndex.get(id);
    if (index === undefined) {
      index = this.nodeIds.length;
      this.nodeIndex.set(id, index);
      this.nodeIds.push(id);
    }
    return index;
  }

  private edge(from: string, rel: string, to: string): number {
    const key = `${from}|${rel}|${to}`;
    let index = this.edgeIndex.get(key);
    if (index === undefined) {
      index = this.edges.length;
      this.edgeIndex.set(key, index);
      this.edges.push({ from: this.node(from), rel, to: this.node(to) });
    }
    return index;
  }

  /** Records the version `op` writes on `branch`; returns its seq. */
  record(branch: string, op: GraphOp): number {
    const branchIndex = this.branchIndex.get(branch);
    if (branchIndex === undefined) throw new Error(`model: unknown branch ${branch}`);
    if (this.versions === this.keyOf.length) this.grow();
    const at = this.versions;
    this.branchOf[at] = branchIndex;
    switch (op.op) {
      case "node_upsert":
      case "node_delete":
        this.keyOf[at] = this.node(op.id);
        this.flagsOf[at] = op.op === "node_delete" ? DELETED : 0;
        break;
      case "edge_upsert":
      case "edge_delete":
        this.keyOf[at] = this.edge(op.from, op.rel, op.to);
        this.flagsOf[at] = EDGE | (op.op === "edge_delete" ? DELETED : 0);
        break;
    }
    this.versions++;
    return this.versions;
  }

  private grow(): void {
    const size = this.keyOf.length * 2;
    const branchOf = new Uint8Array(size);
    branchOf.set(this.branchOf);
    const flagsOf = new Uint8Array(size);
    flagsOf.set(this.flagsOf);
    const keyOf = new Int32Array(size);
    keyOf.set(this.keyOf);
    this.branchOf = branchOf;
    this.flagsOf = flagsOf;
    this.keyOf = keyOf;
  }

  /** Per branch index, the highest seq the branch's view sees of it (Infinity: all; -1: not a source). */
  private cutoffs(branch: string): Float64Array {
    const start = this.branchIndex.get(branch);
    if (start === undefined) throw new Error(`model: unknown branch ${branch}`);
    const cutoffs = new Float64Array(this.bases.length).fill(-1);
    let current = start;
    let cutoff = Number.POSITIVE_INFINITY;
    for (;;) {
      cutoffs[current] = cutoff;
      const { base, baseSeq } = this.bases[current] ?? { base: -1, baseSeq: 0 };
      if (base < 0) return cutoffs;
      cutoff = Math.min(cutoff, baseSeq);
      current = base;
    }
  }

  /**
   * The first page of `graph_query` on `branch` with no filters: the newest `limit` live nodes of the
   * effective view (latest visible version per key), and the live edges between them, newest first,
   * at most `edgesLimit`. A nearer source's versions are always newer than a farther source's visible
   * ones, so "nearest source wins" is "newest visible version wins".
   */
  expectedPage(branch: string, limit: number, edgesLimit: number): { nodes: ExpectedNode[]; edges: ExpectedEdge[] } {
    const cutoffs = this.cutoffs(branch);
    const visible = (at: number): boolean => at + 1 <= (cutoffs[this.branchOf[at] ?? 0] ?? -1);
    const seenNode = new Uint8Array(this.nodeIds.length);
    const inPage = new Uint8Array(this.nodeIds.length);
    const nodes: ExpectedNode[] = [];
    for (let at = this.versions - 1; at >= 0 && nodes.length < limit; at--) {
      const flags = this.flagsOf[at] ?? 0;
      const key = this.keyOf[at] ?? 0;
      if (flags & EDGE || seenNode[key] || !visible(at)) continue;
      seenNode[key] = 1;
      if (flags & DELETED) continue;
      inPage[key] = 1;
      nodes.push({ id: this.nodeIds[key] ?? "", seq: at + 1 });
    }
    const seenEdge = new Uint8Array(this.edges.length);
    const edges: ExpectedEdge[] = [];
    for (let at = this.versions - 1; at >= 0 && edges.length < edgesLimit; at--) {
      const flags = this.flagsOf[at] ?? 0;
      const key = this.keyOf[at] ?? 0;
      if (!(flags & EDGE) || seenEdge[key] || !visible(at)) continue;
      seenEdge[key] = 1;
      const edge = this.edges[key];
      if (flags & DELETED || edge === undefined || !inPage[edge.from] || !inPage[edge.to]) continue;
      edges.push({ from: this.nodeIds[edge.from] ?? "", rel: edge.rel, to: this.nodeIds[edge.to] ?? "", seq: at + 1 });
    }
    return { nodes, edges };
  }
}
