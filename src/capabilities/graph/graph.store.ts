/**
 * Graph storage: versions of nodes and edges on the workspace seq clock, per-branch heads, and the
 * effective view of a branch ("latest version per key over its sources").
 *
 * No read scans all versions. A source (branch, cutoff) contributes the versions that were its latest
 * as of the cutoff (`superseded_seq`), minus keys that a nearer source already sees (`graph_heads`,
 * one seek per row). Pages run one bounded scan per source, newest first, and read only the page's
 * rows; single keys are found through the key index.
 *
 * Statements are few and stable: a Durable Object pays a fixed cost per statement, so a page, a batch
 * of lookups or a batch of writes is one statement each. Bound values compared with `=` are written
 * `= +?` (see `limitSql` in seq-scans.ts for why).
 */
import type { CommandContext } from "../../commands/context";
import { advanceBy } from "../../workspace/clocks";
import type { Db, SqlValue } from "../../workspace/db";
import { limitSql, mergeSeqScans, unionAllOf } from "../../workspace/seq-scans";
import type { Branch, Source } from "../branches/branches.store";
import { branchLiteral, inViewSql } from "../branches/views.store";
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
function kindSql(kind: GraphKind): string {
  return kind === "node" ? "'node'" : "'edge'";
}

function int(value: number): number {
  return Math.trunc(value);
}

/** Versions that were the branch's latest as of the source's cutoff. */
function asOfSql(source: Source): string {
  return source.cutoff === null
    ? " AND v.superseded_seq IS NULL"
    : ` AND v.seq <= ${int(source.cutoff)} AND (v.superseded_seq IS NULL OR v.superseded_seq > ${int(source.cutoff)})`;
}

/** Keys that a nearer source sees hide the farther source's versions. */
function notShadowedSql(nearer: Source[]): string {
  if (nearer.length === 0) return "";
  const seen = nearer
    .map((source) =>
      source.cutoff === null
        ? `h.branch_id = ${branchLiteral(source.branch_id)}`
        : `(h.branch_id = ${branchLiteral(source.branch_id)} AND h.first_seq <= ${int(source.cutoff)})`,
    )
    .join(" OR ");
  return ` AND NOT EXISTS (SELECT 1 FROM graph_heads h INDEXED BY graph_heads_by_key WHERE h.doc = v.doc AND h.kind = v.kind AND h.key = v.key AND (${seen}))`;
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
const QUALIFIED_COLUMNS = COLUMN_NAMES.map((column) => `v.${column}`).join(", ");

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

/** Extra conditions on `v` with their bound parameters. */
export interface Where {
  sql: string;
  params: SqlValue[];
}

export interface ScanOptions {
  /** Only versions with seq below this (tail pagination cursor). */
  before?: number | undefined;
  /** Only versions with seq above this (oldest-first cursor). */
  after?: number | undefined;
  limit: number;
  order: "newest" | "oldest";
  /** Hide tombstones (default true). */
  liveOnly?: boolean;
  where?: Where;
}

/** A source scan, optionally restricted to seqs above `lower` (diff skips ranges both views share). */
export interface SourceScan {
  source: Source;
  nearer: Source[];
  lower: number | null;
}

export function scansOf(sources: Source[]): SourceScan[] {
  return sources.map((source, index) => ({ source, nearer: sources.slice(0, index), lower: null }));
}

/** A page of effective versions of one kind (or both) over the given scans. */
export function effectivePage(
  db: Db,
  doc: string,
  kind: GraphKind | "any",
  scans: SourceScan[],
  options: ScanOptions,
): { rows: VersionRow[]; has_more: boolean } {
  const newest = options.order === "newest";
  const live = options.liveOnly === false ? "" : " AND v.deleted = 0";
  const window =
    (options.before === undefined ? "" : ` AND v.seq < ${int(options.before)}`) +
    (options.after === undefined ? "" : ` AND v.seq > ${int(options.after)}`);
  const seqScans = scans.map(({ source, nearer, lower }) => ({
    sql:
      `SELECT v.seq FROM graph_versions v WHERE v.branch_id = +? AND v.doc = +?` +
      `${kind === "any" ? "" : ` AND v.kind = ${kindSql(kind)}`}${asOfSql(source)}${live}` +
      `${lower === null ? "" : ` AND v.seq > ${int(lower)}`}${window}${options.where?.sql ?? ""}${notShadowedSql(nearer)} ORDER BY v.seq ${newest ? "DESC" : "ASC"}${limitSql(options.limit + 1)}`,
    params: [source.branch_id, doc, ...(options.where?.params ?? [])],
    upper: source.cutoff,
  }));
  const { seqs, has_more } = mergeSeqScans(db, seqScans, options.limit, newest);
  return { rows: versionsBySeq(db, seqs, newest), has_more };
}

/**
 * Versions one `graph_query` page examines per source at most (index entries and rows). Filters that
 * match few nodes, and ancestors whose versions are mostly superseded or shadowed, would otherwise walk
 * a source's whole history in one call; with the bound, such a page comes back short with `has_more`
 * and a cursor to continue from. 33 sources × 1,000 keeps the worst call to a few tens of milliseconds.
 */
export const MAX_EXAMINED_PER_SOURCE = 1_000;

/** The candidate versions of a source for a query page, newest first: index-only, at most `MAX_EXAMINED_PER_SOURCE`. */
function candidatesSql(source: Source, before: number | undefined, docParam = "?"): string {
  const current = source.cutoff === null ? " AND superseded_seq IS NULL AND deleted = 0" : ` AND seq <= ${int(source.cutoff)}`;
  const window = before === undefined ? "" : ` AND seq < ${int(before)}`;
  return `SELECT seq FROM graph_versions WHERE branch_id = ${branchLiteral(source.branch_id)} AND doc = +${docParam} AND kind = 'node'${current}${window} ORDER BY seq DESC`;
}

/**
 * `?` placeholders renumbered from `first` (`?2`, `?3`, …). A merged page repeats its filters once per
 * source; numbered parameters let every term share one binding, so a deep chain stays under Durable
 * Object SQLite's 100 bound parameters.
 */
function numbered(sql: string, first: number): string {
  let next = first;
  return sql.replace(/\?(?!\d)/g, () => `?${next++}`);
}

/** What a `graph_query` page asks for: filters in `where`, below `before`, at most `limit` nodes. */
export interface PageRequest {
  before?: number | undefined;
  limit: number;
  where: Where;
}

export interface NodePage {
  rows: VersionRow[];
  has_more: boolean;
  next_before?: number;
}

/**
 * A newest-first page of effective nodes for `graph_query` (filters in `where`), examining at most
 * `MAX_EXAMINED_PER_SOURCE` versions per source. Each source's candidates come newest first from an
 * index; the filters, the as-of check and shadowing apply to them, and the source stops at `limit + 1`
 * matches. A source that ran out of examined versions before filling the page cuts the page at the
 * oldest seq it examined: nothing older is returned, and `next_before` says where to continue.
 */
export function queryPage(db: Db, doc: string, sources: Source[], options: PageRequest): NodePage {
  return queryPages(db, doc, sources, [options])[0] as NodePage;
}

/**
 * Several `queryPage` pages of one view in one statement (a Durable Object pays a fixed cost per
 * statement): each page is a subquery tagged with its position, and they are read together.
 */
export function queryPages(db: Db, doc: string, sources: Source[], pages: PageRequest[]): NodePage[] {
  if (pages.length === 0) return [];
  // ?1 is the doc; each page's filters are numbered after the previous page's, each bound once.
  let next = 2;
  const terms = pages.map((page, index) => {
    const sql = pageSql(sources, page, next);
    next += page.where.params.length;
    return `SELECT ${index} AS page, * FROM (${sql})`;
  });
  const rows = db.all<{ page: number; cut: number | null } & VersionRow & Record<string, SqlValue>>(
    unionAllOf(terms, "*"),
    doc,
    ...pages.flatMap((page) => page.where.params),
  );
  return pages.map((page, index) => {
    const own = rows.filter((row) => row.page === index);
    const cut = own[0]?.cut ?? null;
    const found = own.filter((row) => row.seq !== null).sort((a, b) => b.seq - a.seq);
    const shown = found.slice(0, page.limit);
    if (found.length > page.limit) return { rows: shown, has_more: true };
    return cut === null ? { rows: shown, has_more: false } : { rows: shown, has_more: true, next_before: cut };
  });
}

/**
 * One page as a statement whose filter parameters are numbered from `firstParam` (?1 is the doc):
 * `found` holds each source's matches; `cut` is the highest seq at which a source with at most `limit`
 * matches reached its examination bound (none: NULL); the page is the newest `limit + 1` matches at
 * or above the cut, read with their columns. The first row always carries the cut, even when the
 * page is empty (its version columns are then NULL).
 */
function pageSql(sources: Source[], options: PageRequest, firstParam: number): string {
  const filters = numbered(options.where.sql, firstParam);
  const perSource = scansOf(sources).map(
    ({ source, nearer }, index) =>
      `SELECT v.seq, ${index} AS src FROM (${candidatesSql(source, options.before, "?1")}${limitSql(MAX_EXAMINED_PER_SOURCE)}) c` +
      ` CROSS JOIN graph_versions v ON v.seq = c.seq WHERE 1${asOfSql(source)} AND v.deleted = 0${filters}${notShadowedSql(nearer)}` +
      // No ORDER BY here: rows come in the candidates' order (newest first), so the LIMIT stops the scan early.
      limitSql(options.limit + 1),
  );
  // Matches per source, counted in one pass over `found` (total() is 0 for none).
  const counts = sources.map((_, index) => `total(src = ${index}) AS n${index}`).join(", ");
  // Evaluated only for a sparse source (CASE runs the branch it takes): its last examined candidate.
  const bounds = sources.map(
    (source, index) =>
      `coalesce(CASE WHEN n${index} <= ${int(options.limit)}` +
      ` THEN (${candidatesSql(source, options.before, "?1")} LIMIT 1 OFFSET ${MAX_EXAMINED_PER_SOURCE - 1}) END, -1)`,
  );
  return `WITH found (seq, src) AS MATERIALIZED (${unionAllOf(perSource, "seq, src")}),
       cut (c) AS (SELECT nullif(max(-1, ${bounds.join(", ")}), -1) FROM (SELECT ${counts} FROM found)),
       page (seq) AS (SELECT seq FROM found WHERE seq >= coalesce((SELECT c FROM cut), 0) ORDER BY seq DESC${limitSql(options.limit + 1)})
     SELECT (SELECT c FROM cut) AS cut, ${QUALIFIED_COLUMNS}
     FROM (SELECT 1) one LEFT JOIN page p ON 1 LEFT JOIN graph_versions v ON v.seq = p.seq`;
}

/**
 * A page of effective versions of the given keys: each key's effective version is found through the
 * key index (one statement for all keys; a key has few versions), then the other filters, the cursor
 * and the limit apply to those rows only. Keeps `ids` queries independent of the graph's size.
 */
export function keysPage(
  db: Db,
  sources: Source[],
  doc: string,
  kind: GraphKind,
  keys: string[],
  options: ScanOptions,
): { rows: VersionRow[]; has_more: boolean } {
  const versions = db.all<{ seq: number; key: string }>(
    `SELECT v.seq, v.key FROM graph_versions v INDEXED BY graph_versions_by_key
     WHERE v.doc = +? AND v.kind = ${kindSql(kind)} AND v.key IN (SELECT value FROM json_each(?)) AND (${inViewSql("v", sources)})`,
    doc,
    JSON.stringify(keys),
  );
  const effective = new Map<string, number>();
  for (const { key, seq } of versions) if ((effective.get(key) ?? 0) < seq) effective.set(key, seq);
  if (effective.size === 0) return { rows: [], has_more: false };
  const live = options.liveOnly === false ? "" : " AND v.deleted = 0";
  const before = options.before === undefined ? "" : ` AND v.seq < ${int(options.before)}`;
  const seqs = db
    .all<{ seq: number }>(
      `SELECT v.seq FROM graph_versions v WHERE v.seq IN (SELECT value FROM json_each(?))${live}${before}${options.where?.sql ?? ""} ORDER BY v.seq DESC${limitSql(options.limit + 1)}`,
      JSON.stringify([...effective.values()]),
      ...(options.where?.params ?? []),
    )
    .map((row) => row.seq);
  return { rows: versionsBySeq(db, seqs.slice(0, options.limit)), has_more: seqs.length > options.limit };
}

export function versionsBySeq(db: Db, seqs: number[], newest = true): VersionRow[] {
  if (seqs.length === 0) return [];
  return db.all<VersionRow & Record<string, SqlValue>>(
    `SELECT ${COLUMNS} FROM graph_versions WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq ${newest ? "DESC" : "ASC"}`,
    JSON.stringify(seqs),
  );
}

/**
 * Live effective edges matching `where`, newest first, in one statement over every source: the index
 * on an endpoint finds the few versions of those edges across branches, and each row is kept only by
 * the source that sees it (as of its cutoff, not shadowed by a nearer source).
 */
function effectiveEdges(
  db: Db,
  sources: Source[],
  doc: string,
  where: Where,
  index: "graph_edges_by_from" | "graph_edges_by_to",
  limit: number,
) {
  const bySource = scansOf(sources)
    .map(({ source, nearer }) => `(v.branch_id = ${branchLiteral(source.branch_id)}${asOfSql(source)}${notShadowedSql(nearer)})`)
    .join(" OR ");
  const seqs = db
    .all<{ seq: number }>(
      `SELECT v.seq FROM graph_versions v INDEXED BY ${index} WHERE v.doc = +? AND v.kind = 'edge' AND v.deleted = 0${where.sql} AND (${bySource})
       ORDER BY v.seq DESC${limitSql(limit + 1)}`,
      doc,
      ...where.params,
    )
    .map((row) => row.seq);
  return { rows: versionsBySeq(db, seqs.slice(0, limit)), has_more: seqs.length > limit };
}

/**
 * Live edges between nodes of `nodeIds`, newest first. The edges leaving a node are the keys with the
 * prefix `<id>|` (edge keys are `from|rel|to`, and ids and rels cannot hold `|`), listed from
 * graph_heads, which has one row per branch and key however many versions the edge has; the keys whose
 * target is in the set then resolve to their effective versions through the key index. So the cost
 * follows the number of edges of the page's nodes, not their versions or the graph's size.
 */
export function edgesBetween(
  db: Db,
  sources: Source[],
  doc: string,
  nodeIds: string[],
  limit: number,
): { rows: VersionRow[]; has_more: boolean } {
  const rows = db.all<VersionRow & Record<string, SqlValue>>(
    `WITH ids (id) AS (SELECT value FROM json_each(?)),
       edge_keys (key) AS (
         SELECT DISTINCT h.key FROM ids CROSS JOIN graph_heads h INDEXED BY graph_heads_by_key
           ON h.doc = +? AND h.kind = 'edge' AND h.key > ids.id || '|' AND h.key < ids.id || '}'
         WHERE (${inViewSql("h", sources, "first_seq")})
           AND ${edgeTargetSql("h.key", "ids.id")} IN (SELECT id FROM ids)
       ),
       effective (seq) AS (
         SELECT (SELECT v.seq FROM graph_versions v INDEXED BY graph_versions_by_key
                 WHERE v.doc = +? AND v.kind = 'edge' AND v.key = edge_keys.key AND (${inViewSql("v", sources)})
                 ORDER BY v.seq DESC LIMIT 1)
         FROM edge_keys
       )
       SELECT ${QUALIFIED_COLUMNS} FROM effective e JOIN graph_versions v ON v.seq = e.seq WHERE v.deleted = 0 ORDER BY v.seq DESC${limitSql(limit + 1)}`,
    JSON.stringify(nodeIds),
    doc,
    doc,
  );
  return { rows: rows.slice(0, limit), has_more: rows.length > limit };
}

/** The `to` part of an edge key `from|rel|to` whose `from` is `fromSql` (the text after the second `|`). */
function edgeTargetSql(keySql: string, fromSql: string): string {
  const rest = `substr(${keySql}, length(${fromSql}) + 2)`;
  return `substr(${rest}, instr(${rest}, '|') + 1)`;
}

/** Live edges that start or end at `nodeId` (at most `limit` of each). */
export function edgesTouching(db: Db, sources: Source[], doc: string, nodeId: string, limit: number): VersionRow[] {
  const outgoing = effectiveEdges(db, sources, doc, { sql: " AND v.from_id = +?", params: [nodeId] }, "graph_edges_by_from", limit);
  const incoming = effectiveEdges(db, sources, doc, { sql: " AND v.to_id = +?", params: [nodeId] }, "graph_edges_by_to", limit);
  const byKey = new Map([...outgoing.rows, ...incoming.rows].map((row) => [row.key, row]));
  return [...byKey.values()];
}

/** Number of live effective keys of a kind (validate's stats). */
export function countLive(db: Db, sources: Source[], doc: string, kind: GraphKind): number {
  let total = 0;
  for (const { source, nearer } of scansOf(sources)) {
    total +=
      db.one<{ n: number }>(
        `SELECT COUNT(*) AS n FROM graph_versions v WHERE v.branch_id = +? AND v.doc = +? AND v.kind = +?${asOfSql(source)} AND v.deleted = 0${notShadowedSql(nearer)}`,
        source.branch_id,
        doc,
        kind,
      )?.n ?? 0;
  }
  return total;
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
