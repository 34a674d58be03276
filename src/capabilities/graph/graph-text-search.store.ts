/**
 * Indexed text search over graph nodes (migration 0014, `graph_node_text`: FTS5 with the trigram
 * tokenizer over the id, title and text of every live node version, rowid = seq).
 *
 * `graph_query {text}` means a case-insensitive substring of id, title or text of the node as the branch
 * sees it. A node's effective version is a live node version, so it is in the index, and it contains
 * the text exactly when the index finds it and the text check (the filter's `text` condition) agrees. A page therefore
 * asks the index for the versions that contain the text, newest first, and keeps those that are their
 * key's effective version in the view (in the view, and no newer version of the key in the view: a
 * later update, a tombstone, a cutoff and a nearer branch all hide a matching version) and pass every
 * filter. The order and the cursor are graph_query's (last_seq, newest first), so pages of the index
 * path and of the scan path mean the same thing. At most `MAX_TEXT_CANDIDATES` versions from the index
 * are examined per call; a page cut by that bound says `has_more` and where to continue, as a scan does.
 * Such a page means a common text, so the view's own bounded scan is tried too, and the page that got
 * further is returned.
 *
 * The trigram tokenizer needs 3 characters; shorter texts are left to the term index's bounded page
 * (`queryPage` in graph-terms.store.ts), which checks the text on each candidate.
 */

import type { Source } from "../../place/branches.store";
import { inViewSql } from "../../place/views.store";
import type { Db, SqlValue } from "../../storage/db";
import { limitSql } from "../../storage/seq-scans";
import type { VersionRow } from "./graph.store";
import { filterWhere, type NodeFilter } from "./graph-filters.store";
import { type NodePage, queryPage } from "./graph-terms.store";

/** The trigram tokenizer's unit: a text shorter than this (in characters) finds nothing in the index. */
export const TEXT_INDEX_MIN_CHARS = 3;

/**
 * Matching versions one text search examines at most. Each costs an index entry, a row read by seq and
 * an index probe for a newer version of its key (a few microseconds), so the bound keeps a call that
 * hits a very common text to a few tens of milliseconds; a search whose matches are mostly current
 * node versions of the branch finds them all in one call up to this many.
 */
export const MAX_TEXT_CANDIDATES = 5_000;

/** Whether `graph_query`'s text filter can be answered from the index (3+ characters, none of them NUL). */
export function usesTextIndex(text: string | undefined): text is string {
  return text !== undefined && [...text].length >= TEXT_INDEX_MIN_CHARS && !text.includes("\u0000");
}

/**
 * The FTS5 query for a substring: one quoted string (a `"` inside is doubled), which the trigram
 * tokenizer matches as consecutive trigrams in one column, whatever other characters it holds.
 */
function phraseOf(text: string): string {
  return `"${text.toLowerCase().replaceAll('"', '""')}"`;
}

export interface TextSearchRequest {
  text: string;
  /** Only nodes with last_seq below this (the cursor). */
  before?: number | undefined;
  limit: number;
  /** Every filter of the query, the text condition included. */
  filter: NodeFilter;
  /** The lanes shown (null: every lane). */
  lanes: string[] | null;
}

/**
 * A newest-first page of effective live nodes of `doc` whose id, title or text contains `request.text`
 * (which must pass `usesTextIndex`) and that match `request.where`. The index answers first. When it
 * stops at its bound before filling the page, the versions it examined were mostly ones this view does
 * not show (newer versions on other branches, superseded ones): a common text, so the term index's
 * bounded page (`queryPage`) is likely to fill the page, and the page that got further down the same newest-first
 * sequence is returned. Both are exact prefixes of it below the cursor, so either continues correctly.
 */
export function textSearchPage(db: Db, doc: string, sources: Source[], request: TextSearchRequest): NodePage {
  const indexed = indexedPage(db, doc, sources, request);
  if (indexed.next_before === undefined || indexed.rows.length >= request.limit) return indexed;
  const scanned = queryPage(db, doc, sources, {
    filter: request.filter,
    lanes: request.lanes,
    before: request.before,
    limit: request.limit,
    bounded: true,
  });
  return reach(scanned) < reach(indexed) ? scanned : indexed;
}

/** Where a page's caller continues (below this seq); 0 when nothing is left. */
function reach(page: NodePage): number {
  if (!page.has_more) return 0;
  return page.next_before ?? page.rows[page.rows.length - 1]?.seq ?? 0;
}

/**
 * The index's page. The candidates (at most `MAX_TEXT_CANDIDATES` + 1, newest first) are read from the
 * index once; the newest `MAX_TEXT_CANDIDATES` are checked in that order, so a page that fills stops
 * checking early. When there was one more (`beyond`: the bound was reached) and the page is short, the
 * page is cut at the oldest candidate examined.
 */
function indexedPage(db: Db, doc: string, sources: Source[], request: TextSearchRequest): NodePage {
  const before = request.before === undefined ? "" : ` AND rowid < ${Math.trunc(request.before)}`;
  const where = filterWhere(request.filter, request.lanes);
  // ? are numbered in the order they appear: the phrase, the doc, then the filters' own parameters.
  // `candidates` keeps the index's order (its rows are stored as they come), and `found` has no ORDER BY,
  // so it checks them newest first and its LIMIT stops at the page.
  const rows = db.all<{ cut: number | null } & VersionRow & Record<string, SqlValue>>(
    `WITH candidates (seq) AS MATERIALIZED (
       SELECT rowid FROM graph_node_text WHERE graph_node_text MATCH ?${before} ORDER BY rowid DESC${limitSql(MAX_TEXT_CANDIDATES + 1)}),
     beyond (seq) AS (SELECT CASE WHEN count(*) > ${MAX_TEXT_CANDIDATES} THEN min(seq) END FROM candidates),
     found (seq) AS MATERIALIZED (
       SELECT v.seq FROM candidates c CROSS JOIN graph_versions v ON v.seq = c.seq
       WHERE c.seq > coalesce((SELECT seq FROM beyond), 0) AND v.doc = +? AND v.kind = 'node' AND v.deleted = 0 AND (${inViewSql("v", sources)})
         AND NOT EXISTS (SELECT 1 FROM graph_versions w INDEXED BY graph_versions_by_key
           WHERE w.doc = v.doc AND w.kind = 'node' AND w.key = v.key AND w.seq > v.seq AND (${inViewSql("w", sources)}))${where.sql}${limitSql(request.limit + 1)}),
     cut (c) AS (
       SELECT CASE WHEN (SELECT count(*) FROM found) <= ${Math.trunc(request.limit)}
         THEN (SELECT min(seq) FROM candidates WHERE seq > (SELECT seq FROM beyond)) END)
     SELECT (SELECT c FROM cut) AS cut, v.*
     FROM (SELECT 1) one LEFT JOIN found f ON 1 LEFT JOIN graph_versions v ON v.seq = f.seq
     ORDER BY v.seq DESC`,
    phraseOf(request.text),
    doc,
    ...where.params,
  );
  const cut = rows[0]?.cut ?? null;
  const found: VersionRow[] = rows.filter((row) => row.seq !== null).map(({ cut: _cut, ...row }) => row);
  if (found.length > request.limit) return { rows: found.slice(0, request.limit), has_more: true };
  return cut === null ? { rows: found, has_more: false } : { rows: found, has_more: true, next_before: cut };
}
