/**
 * Graph storage: versions of nodes and edges on the workspace seq clock, per-branch heads, and the
 * effective view of a branch ("latest version per key over its sources").
 *
 * No read scans all versions. A source (branch, cutoff) contributes the versions that were its latest
 * as of the cutoff (`superseded_seq`), minus keys that a nearer source already sees (`graph_heads`,
 * one primary-key probe per nearer source). Pages run one bounded scan per source, newest first, and
 * read only the page's rows; single keys are found with one index probe per source.
 */
import type { CommandContext } from "../../commands/context";
import { advance } from "../../workspace/clocks";
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

export function writeVersion(ctx: CommandContext, branch: Branch, doc: string, fields: VersionFields): VersionRow {
  const seq = advance(ctx.db, "seq");
  // The insert trigger `graph_versions_head` supersedes the previous head and moves graph_heads.
  const row: VersionRow = {
    seq,
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
  ctx.db.run(
    `INSERT INTO graph_versions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.seq,
    row.branch_id,
    row.doc,
    row.kind,
    row.key,
    row.node_type,
    row.title,
    row.text,
    row.status,
    row.tags_json,
    row.from_id,
    row.rel,
    row.to_id,
    row.meta_json,
    row.deleted,
    row.ts_ms,
    row.agent_id,
    row.superseded_seq,
  );
  return row;
}

/**
 * The effective version of one key (possibly a tombstone), or undefined when no source has it: the
 * newest version of the key in the view (a nearer source's versions are always newer than a farther
 * source's cutoff), found by walking the key's versions newest first.
 */
export function lookupVersion(db: Db, sources: Source[], doc: string, kind: GraphKind, key: string): VersionRow | undefined {
  return db.one<VersionRow & Record<string, SqlValue>>(
    `SELECT ${COLUMNS} FROM graph_versions v INDEXED BY graph_versions_by_key WHERE v.doc = ? AND v.kind = ${kindSql(kind)} AND v.key = ?
     AND (${inViewSql("v", sources)}) ORDER BY v.seq DESC LIMIT 1`,
    doc,
    key,
  );
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
      `SELECT v.seq FROM graph_versions v WHERE v.branch_id = ? AND v.doc = ?` +
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
  return `SELECT seq FROM graph_versions WHERE branch_id = ${branchLiteral(source.branch_id)} AND doc = ${docParam} AND kind = 'node'${current}${window} ORDER BY seq DESC`;
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

/**
 * A newest-first page of effective nodes for `graph_query` (filters in `where`), examining at most
 * `MAX_EXAMINED_PER_SOURCE` versions per source. Each source's candidates come newest first from an
 * index; the filters, the as-of check and shadowing apply to them, and the source stops at `limit + 1`
 * matches. A source that ran out of examined versions before filling the page cuts the page at the
 * oldest seq it examined: nothing older is returned, and `next_before` says where to continue.
 */
export function queryPage(
  db: Db,
  doc: string,
  sources: Source[],
  options: { before?: number | undefined; limit: number; where: Where },
): { rows: VersionRow[]; has_more: boolean; next_before?: number } {
  // ?1 is the doc and ?2… the filters, bound once for every source's term.
  const filters = numbered(options.where.sql, 2);
  const perSource = scansOf(sources).map(
    ({ source, nearer }, index) =>
      `SELECT v.seq, ${index} AS src FROM (${candidatesSql(source, options.before, "?1")}${limitSql(MAX_EXAMINED_PER_SOURCE)}) c` +
      ` CROSS JOIN graph_versions v ON v.seq = c.seq WHERE 1${asOfSql(source)} AND v.deleted = 0${filters}${notShadowedSql(nearer)}` +
      // No ORDER BY here: rows come in the candidates' order (newest first), so the LIMIT stops the scan early.
      limitSql(options.limit + 1),
  );
  const found = db.all<{ seq: number; src: number }>(unionAllOf(perSource, "seq, src"), doc, ...options.where.params);
  const matches = new Array<number>(sources.length).fill(0);
  for (const row of found) matches[row.src] = (matches[row.src] ?? 0) + 1;
  // A source with fewer matches than the page needs may have stopped at its bound: find where.
  const sparse = sources.flatMap((source, index) => ((matches[index] ?? 0) <= options.limit ? [source] : []));
  const cut = sparse.length === 0 ? undefined : oldestExamined(db, doc, sparse, options.before);
  const seqs = found
    .map((row) => row.seq)
    .filter((seq) => cut === undefined || seq >= cut)
    .sort((a, b) => b - a);
  const rows = versionsBySeq(db, seqs.slice(0, options.limit));
  if (seqs.length > options.limit) return { rows, has_more: true };
  return cut === undefined ? { rows, has_more: false } : { rows, has_more: true, next_before: cut };
}

/** The highest seq at which one of `sources` reached its examination bound, if any did. */
function oldestExamined(db: Db, doc: string, sources: Source[], before: number | undefined): number | undefined {
  const columns = sources.map(
    (source, index) => `(${candidatesSql(source, before)} LIMIT 1 OFFSET ${MAX_EXAMINED_PER_SOURCE - 1}) AS b${index}`,
  );
  const row = db.one(`SELECT ${columns.join(", ")}`, ...sources.map(() => doc));
  const bounds = Object.values(row ?? {}).filter((value): value is number => typeof value === "number");
  return bounds.length === 0 ? undefined : Math.max(...bounds);
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
     WHERE v.doc = ? AND v.kind = ${kindSql(kind)} AND v.key IN (SELECT value FROM json_each(?)) AND (${inViewSql("v", sources)})`,
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
      `SELECT v.seq FROM graph_versions v INDEXED BY ${index} WHERE v.doc = ? AND v.kind = 'edge' AND v.deleted = 0${where.sql} AND (${bySource})
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
  const seqs = db
    .all<{ seq: number }>(
      `WITH ids (id) AS (SELECT value FROM json_each(?)),
       edge_keys (key) AS (
         SELECT DISTINCT h.key FROM ids CROSS JOIN graph_heads h INDEXED BY graph_heads_by_key
           ON h.doc = ? AND h.kind = 'edge' AND h.key > ids.id || '|' AND h.key < ids.id || '}'
         WHERE (${inViewSql("h", sources, "first_seq")})
           AND ${edgeTargetSql("h.key", "ids.id")} IN (SELECT id FROM ids)
       ),
       effective (seq) AS (
         SELECT (SELECT v.seq FROM graph_versions v INDEXED BY graph_versions_by_key
                 WHERE v.doc = ? AND v.kind = 'edge' AND v.key = edge_keys.key AND (${inViewSql("v", sources)})
                 ORDER BY v.seq DESC LIMIT 1)
         FROM edge_keys
       )
       SELECT v.seq FROM effective e JOIN graph_versions v ON v.seq = e.seq WHERE v.deleted = 0 ORDER BY v.seq DESC${limitSql(limit + 1)}`,
      JSON.stringify(nodeIds),
      doc,
      doc,
    )
    .map((row) => row.seq);
  return { rows: versionsBySeq(db, seqs.slice(0, limit)), has_more: seqs.length > limit };
}

/** The `to` part of an edge key `from|rel|to` whose `from` is `fromSql` (the text after the second `|`). */
function edgeTargetSql(keySql: string, fromSql: string): string {
  const rest = `substr(${keySql}, length(${fromSql}) + 2)`;
  return `substr(${rest}, instr(${rest}, '|') + 1)`;
}

/** Live edges that start or end at `nodeId` (at most `limit` of each). */
export function edgesTouching(db: Db, sources: Source[], doc: string, nodeId: string, limit: number): VersionRow[] {
  const outgoing = effectiveEdges(db, sources, doc, { sql: " AND v.from_id = ?", params: [nodeId] }, "graph_edges_by_from", limit);
  const incoming = effectiveEdges(db, sources, doc, { sql: " AND v.to_id = ?", params: [nodeId] }, "graph_edges_by_to", limit);
  const byKey = new Map([...outgoing.rows, ...incoming.rows].map((row) => [row.key, row]));
  return [...byKey.values()];
}

/** Number of live effective keys of a kind (validate's stats). */
export function countLive(db: Db, sources: Source[], doc: string, kind: GraphKind): number {
  let total = 0;
  for (const { source, nearer } of scansOf(sources)) {
    total +=
      db.one<{ n: number }>(
        `SELECT COUNT(*) AS n FROM graph_versions v WHERE v.branch_id = ? AND v.doc = ? AND v.kind = ?${asOfSql(source)} AND v.deleted = 0${notShadowedSql(nearer)}`,
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
