/**
 * The effective view of a branch, read a page at a time: which versions a source contributes, and the
 * bounded newest-first (or oldest-first) pages over a branch's sources, by filters or by keys.
 *
 * No read scans all versions. A source (branch, cutoff) contributes the versions that were its latest
 * as of the cutoff (`superseded_seq`), minus keys that a nearer source already sees (`graph_heads`,
 * one seek per row). Pages run one bounded scan per source, newest first, and read only the page's
 * rows; single keys are found through the key index (graph.store.ts).
 *
 * Statements are few and stable: a Durable Object pays a fixed cost per statement, so a page (or a
 * batch of pages) is one statement. Bound values compared with `=` are written `= +?` (see `limitSql`
 * in seq-scans.ts for why).
 */

import type { Source } from "../../place/branches.store";
import { branchLiteral, inViewSql } from "../../place/views.store";
import type { Db, SqlValue } from "../../storage/db";
import { limitSql, mergeSeqScans, unionAllOf } from "../../storage/seq-scans";
import { type GraphKind, int, kindSql, QUALIFIED_COLUMNS, type VersionRow, versionsBySeq } from "./graph.store";

/** Versions that were the branch's latest as of the source's cutoff. */
export function asOfSql(source: Source): string {
  return source.cutoff === null
    ? " AND v.superseded_seq IS NULL"
    : ` AND v.seq <= ${int(source.cutoff)} AND (v.superseded_seq IS NULL OR v.superseded_seq > ${int(source.cutoff)})`;
}

/** Keys that a nearer source sees hide the farther source's versions. */
export function notShadowedSql(nearer: Source[]): string {
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
