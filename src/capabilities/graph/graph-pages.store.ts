/**
 * The effective view of a branch, read a page at a time: which versions a source contributes, and the
 * bounded newest-first (or oldest-first) pages over a branch's sources, by kind (diff, merge, validate)
 * or by keys. Pages selected by type, status, tags or lane are the term index's (graph-terms.store.ts).
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
import type { Db } from "../../storage/db";
import { limitSql, mergeSeqScans } from "../../storage/seq-scans";
import { type GraphKind, int, kindSql, type VersionRow, versionsBySeq } from "./graph.store";
import type { Where } from "./graph-filters.store";

/** Versions that were the branch's latest as of the source's cutoff. */
export function asOfSql(source: Source): string {
  return source.cutoff === null
    ? " AND v.superseded_seq IS NULL"
    : ` AND v.seq <= ${int(source.cutoff)} AND (v.superseded_seq IS NULL OR v.superseded_seq > ${int(source.cutoff)})`;
}

/** Beyond every seq: the bound of a nearer source without a cutoff (the branch itself). */
const NO_CUTOFF = Number.MAX_SAFE_INTEGER;

/**
 * Keys that a nearer source sees hide the farther source's versions: one seek of `graph_heads_by_key`
 * finds the branches that wrote the key, and a nearer one counts when it wrote the key by its cutoff.
 * The text grows by one branch name and one cutoff per nearer source, so a deep chain's many scans stay
 * short statements.
 */
export function notShadowedSql(nearer: Source[]): string {
  if (nearer.length === 0) return "";
  const cutoffs = nearer
    .filter((near) => near.cutoff !== null)
    .map((near) => ` WHEN ${branchLiteral(near.branch_id)} THEN ${int(near.cutoff as number)}`)
    .join("");
  return (
    " AND NOT EXISTS (SELECT 1 FROM graph_heads h INDEXED BY graph_heads_by_key WHERE h.doc = v.doc AND h.kind = v.kind AND h.key = v.key" +
    ` AND h.branch_id IN (${nearer.map((near) => branchLiteral(near.branch_id)).join(", ")})` +
    (cutoffs === "" ? ")" : ` AND h.first_seq <= CASE h.branch_id${cutoffs} ELSE ${NO_CUTOFF} END)`)
  );
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
