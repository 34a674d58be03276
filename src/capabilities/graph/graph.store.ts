/**
 * Graph storage: versions of nodes and edges on the workspace seq clock, per-branch heads, and reading
 * versions back (one key, several keys, given seqs) as the effective view of a branch sees them
 * ("latest version per key over its sources"). Pages of that view live in graph-pages.store.ts, the
 * edges of nodes and live counts in graph-edges.store.ts; both build on the columns and helpers here.
 *
 * Statements are few and stable: a Durable Object pays a fixed cost per statement, so a page, a batch
 * of lookups or a batch of writes is one statement each. Bound values compared with `=` are written
 * `= +?` (see `limitSql` in seq-scans.ts for why).
 */
import type { CommandContext } from "../../commands/context";
import type { Branch, Source } from "../../place/branches.store";
import { inViewSql } from "../../place/views.store";
import { advanceBy } from "../../storage/clocks";
import type { Db, SqlValue } from "../../storage/db";
import type { GraphEdge, GraphNode } from "./graph.schema";
import type { KeyState } from "./merge";

export type GraphKind = "node" | "edge";

export interface VersionRow {
  seq: number;
  branch_id: string;
  doc: string;
  kind: GraphKind;
  key: string;
  node_type: string | null;
  title: string | null;
  text: string | null;
  status: string | null;
  tags_json: string | null;
  from_id: string | null;
  rel: string | null;
  to_id: string | null;
  meta_json: string | null;
  deleted: number;
  ts_ms: number;
  agent_id: string;
  superseded_seq: number | null;
}

/** The fields of a new version (a key's state plus its identity); the store adds seq, branch, time and author. */
export interface VersionFields extends KeyState {
  kind: GraphKind;
  key: string;
}

const COLUMNS =
  "seq, branch_id, doc, kind, key, node_type, title, text, status, tags_json, from_id, rel, to_id, meta_json, deleted, ts_ms, agent_id, superseded_seq";

/** Kinds are written into SQL text so SQLite can use the partial indexes (`WHERE kind = 'edge'`). */
export function kindSql(kind: GraphKind): string {
  return kind === "node" ? "'node'" : "'edge'";
}

export function int(value: number): number {
  return Math.trunc(value);
}

/** A version not yet stored: every field but its seq, which the batch assigns when it stores it. */
function rowOf(ctx: CommandContext, branch: Branch, doc: string, fields: VersionFields): VersionRow {
  return {
    seq: 0,
    branch_id: branch.id,
    doc,
    kind: fields.kind,
    key: fields.key,
    node_type: fields.node_type ?? null,
    title: fields.title ?? null,
    text: fields.text ?? null,
    status: fields.status ?? null,
    tags_json: fields.tags ? JSON.stringify(fields.tags) : null,
    from_id: fields.from_id ?? null,
    rel: fields.rel ?? null,
    to_id: fields.to_id ?? null,
    meta_json: fields.meta ? JSON.stringify(fields.meta) : null,
    deleted: fields.deleted ? 1 : 0,
    ts_ms: ctx.nowMs,
    agent_id: ctx.principal.agent_id,
    superseded_seq: null,
  };
}

const COLUMN_NAMES = COLUMNS.split(", ") as (keyof VersionRow)[];
/** The columns of a version read through the alias `v`. */
export const QUALIFIED_COLUMNS = COLUMN_NAMES.map((column) => `v.${column}`).join(", ");

/**
 * Versions written by one command, stored together: `add` returns the row at once (its `seq` is 0
 * until `flush`), and `flush` takes their seqs from the clock in one statement and inserts them all
 * in one statement, in the order they were added. A Durable Object pays a fixed cost per statement,
 * so a batch of ten ops costs two statements instead of twenty. Whoever reads versions back from the
 * database (edges of a node, a page) must flush first.
 */
export class VersionBatch {
  private rows: VersionRow[] = [];

  constructor(
    private readonly ctx: CommandContext,
    private readonly branch: Branch,
    private readonly doc: string,
  ) {}

  add(fields: VersionFields): VersionRow {
    const row = rowOf(this.ctx, this.branch, this.doc, fields);
    this.rows.push(row);
    return row;
  }

  flush(): void {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    const last = advanceBy(this.ctx.db, "seq", rows.length);
    rows.forEach((row, index) => {
      row.seq = last - rows.length + 1 + index;
    });
    // The insert trigger `graph_versions_head` supersedes each key's previous head and moves
    // graph_heads, row by row in array order (so a key written twice in a batch ends at its last write).
    this.ctx.db.run(
      `INSERT INTO graph_versions (${COLUMNS}) SELECT ${COLUMN_NAMES.map((_, index) => `value ->> ${index}`).join(", ")} FROM json_each(?) ORDER BY key`,
      JSON.stringify(rows.map((row) => COLUMN_NAMES.map((column) => row[column]))),
    );
  }
}

export function writeVersion(ctx: CommandContext, branch: Branch, doc: string, fields: VersionFields): VersionRow {
  const batch = new VersionBatch(ctx, branch, doc);
  const row = batch.add(fields);
  batch.flush();
  return row;
}

/**
 * The effective version of one key (possibly a tombstone), or undefined when no source has it: the
 * newest version of the key in the view (a nearer source's versions are always newer than a farther
 * source's cutoff), found by walking the key's versions newest first.
 */
export function lookupVersion(db: Db, sources: Source[], doc: string, kind: GraphKind, key: string): VersionRow | undefined {
  return db.one<VersionRow & Record<string, SqlValue>>(
    `SELECT ${COLUMNS} FROM graph_versions v INDEXED BY graph_versions_by_key WHERE v.doc = +? AND v.kind = ${kindSql(kind)} AND v.key = +?
     AND (${inViewSql("v", sources)}) ORDER BY v.seq DESC LIMIT 1`,
    doc,
    key,
  );
}

/** The key of `lookupVersions`' map: kind and key (edge keys hold `|`, so the kind goes first, with a `:`). */
export function versionKey(kind: GraphKind, key: string): string {
  return `${kind}:${key}`;
}

/**
 * The effective versions of several keys in one statement, each found as `lookupVersion` finds it
 * (the newest version of the key in the view). The map has an entry for every key asked for:
 * undefined when no source has it.
 */
export function lookupVersions(
  db: Db,
  sources: Source[],
  doc: string,
  keys: { kind: GraphKind; key: string }[],
): Map<string, VersionRow | undefined> {
  const wanted = new Map(keys.map(({ kind, key }) => [versionKey(kind, key), [kind, key]]));
  const found = new Map<string, VersionRow | undefined>([...wanted.keys()].map((id) => [id, undefined]));
  if (found.size === 0) return found;
  const rows = db.all<VersionRow & Record<string, SqlValue>>(
    `SELECT ${QUALIFIED_COLUMNS} FROM json_each(?) k CROSS JOIN graph_versions v ON v.seq = (
       SELECT w.seq FROM graph_versions w INDEXED BY graph_versions_by_key
       WHERE w.doc = +? AND w.kind = k.value ->> 0 AND w.key = k.value ->> 1 AND (${inViewSql("w", sources)}) ORDER BY w.seq DESC LIMIT 1)`,
    JSON.stringify([...wanted.values()]),
    doc,
  );
  for (const row of rows) found.set(versionKey(row.kind, row.key), row);
  return found;
}

export function isLive(row: VersionRow | undefined): row is VersionRow {
  return row !== undefined && row.deleted === 0;
}

export function versionsBySeq(db: Db, seqs: number[], newest = true): VersionRow[] {
  if (seqs.length === 0) return [];
  return db.all<VersionRow & Record<string, SqlValue>>(
    `SELECT ${COLUMNS} FROM graph_versions WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq ${newest ? "DESC" : "ASC"}`,
    JSON.stringify(seqs),
  );
}

export function toNode(row: VersionRow): GraphNode {
  const node: GraphNode = {
    id: row.key,
    type: row.node_type ?? "",
    tags: row.tags_json === null ? [] : (JSON.parse(row.tags_json) as string[]),
    deleted: row.deleted === 1,
    last_seq: row.seq,
    last_ts_ms: row.ts_ms,
  };
  if (row.title !== null) node.title = row.title;
  if (row.text !== null) node.text = row.text;
  if (row.status !== null) node.status = row.status;
  if (row.meta_json !== null) node.meta = JSON.parse(row.meta_json) as Record<string, unknown>;
  return node;
}

export function toEdge(row: VersionRow): GraphEdge {
  const edge: GraphEdge = {
    from: row.from_id ?? "",
    rel: row.rel ?? "",
    to: row.to_id ?? "",
    deleted: row.deleted === 1,
    last_seq: row.seq,
    last_ts_ms: row.ts_ms,
  };
  if (row.meta_json !== null) edge.meta = JSON.parse(row.meta_json) as Record<string, unknown>;
  return edge;
}

/** The stored fields of a version, for writing the same state again (merge, conflict resolution). */
export function fieldsOf(row: VersionRow): VersionFields {
  return {
    kind: row.kind,
    key: row.key,
    node_type: row.node_type,
    title: row.title,
    text: row.text,
    status: row.status,
    tags: row.tags_json === null ? null : (JSON.parse(row.tags_json) as string[]),
    from_id: row.from_id,
    rel: row.rel,
    to_id: row.to_id,
    meta: row.meta_json === null ? null : (JSON.parse(row.meta_json) as Record<string, unknown>),
    deleted: row.deleted === 1,
  };
}

/** Removes what a deleted branch wrote to the graph. */
export function deleteBranchGraph(db: Db, branchId: string): void {
  db.run("DELETE FROM graph_versions WHERE branch_id = ?", branchId);
  db.run("DELETE FROM graph_heads WHERE branch_id = ?", branchId);
  db.run("DELETE FROM graph_conflicts WHERE from_branch_id = ? OR into_branch_id = ?", branchId, branchId);
}
