/**
 * Full-text search over records (migration 0013, `records_fts`, FTS5 over title, summary and body):
 * matches ranked by bm25 (title weighs most, then summary, then body; ties by record number), with a
 * snippet, filtered by types, states and a subtree, and a bounded count of all matches. The MATCH
 * expression comes from search-query.ts (escaped); every value is a bound parameter.
 */
import type { Db } from "../../workspace/db";
import type { RecordState } from "./records.schema";
import { REF_COLUMNS, type RefRow, subtreeEnd } from "./records.store";

export interface SearchFilter {
  types?: string[] | undefined;
  states?: RecordState[] | undefined;
  /** Only descendants of the record with this path. */
  underPath?: string | undefined;
}

export interface SearchRow extends RefRow {
  score: number;
  snippet: string;
}

/** bm25 column weights: title, summary, body. A word in the title says more than one in the body. */
const WEIGHTS = "10.0, 4.0, 1.0";
/** Snippet: matched words in **bold**, "…" at cuts, about this many tokens. */
const SNIPPET = "snippet(records_fts, -1, '**', '**', '…', 16)";

function where(filter: SearchFilter): { sql: string; params: (string | number)[] } {
  const parts = ["records_fts MATCH ?"];
  const params: (string | number)[] = [];
  if (filter.types !== undefined && filter.types.length > 0) {
    parts.push("r.type IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.types));
  }
  if (filter.states !== undefined && filter.states.length > 0) {
    parts.push("r.state IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.states));
  }
  if (filter.underPath !== undefined) {
    parts.push("r.path > ? AND r.path < ?");
    params.push(filter.underPath, subtreeEnd(filter.underPath));
  }
  return { sql: parts.join(" AND "), params };
}

function filtered(filter: SearchFilter): boolean {
  return (filter.types?.length ?? 0) > 0 || (filter.states?.length ?? 0) > 0 || filter.underPath !== undefined;
}

type Sql<T> = T & Record<string, string | number | null>;

/**
 * The best `limit` matches, best first; `score` is -bm25 (larger is better, 0 or more).
 *
 * Without filters the ranking runs inside the full-text index alone: every match is scored, but no
 * `records` row is read and no snippet made for a match that does not make the page (with a join and
 * a snippet in the ranking query, SQLite reads both for every match before sorting: most of the cost
 * of a common word). Then the page's snippets (one scan of the matches, the snippet made for the page's
 * rows only) and its refs. Same rows, scores, snippets and order as the one-statement form, which
 * filtered searches use (their filters need the `records` row of every match anyway).
 */
export function searchRecords(db: Db, match: string, filter: SearchFilter, limit: number): SearchRow[] {
  if (filtered(filter)) {
    const { sql, params } = where(filter);
    return db.all<Sql<SearchRow>>(
      `SELECT r.num, r.id, r.type, r.title, r.summary, r.state, r.parent_id, r.path, r.depth, r.children_count, r.open_children_count,
         -bm25(records_fts, ${WEIGHTS}) AS score, ${SNIPPET} AS snippet
       FROM records_fts JOIN records r ON r.num = records_fts.rowid
       WHERE ${sql} ORDER BY bm25(records_fts, ${WEIGHTS}), r.num LIMIT ${Math.trunc(limit)}`,
      match,
      ...params,
    );
  }
  const top = db.all<{ num: number; bm: number }>(
    `SELECT rowid AS num, bm25(records_fts, ${WEIGHTS}) AS bm FROM records_fts WHERE records_fts MATCH ?
     ORDER BY bm, rowid LIMIT ${Math.trunc(limit)}`,
    match,
  );
  if (top.length === 0) return [];
  const nums = JSON.stringify(top.map((row) => row.num));
  // `+rowid`: a filter on the scan of the matches, not a rowid lookup (which would re-read the index per row).
  const snippets = new Map(
    db
      .all<{ num: number; snippet: string }>(
        `SELECT rowid AS num, ${SNIPPET} AS snippet FROM records_fts WHERE records_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
        match,
        nums,
      )
      .map((row) => [row.num, row.snippet]),
  );
  const refs = new Map(
    db
      .all<Sql<RefRow>>(`SELECT ${REF_COLUMNS} FROM records WHERE num IN (SELECT value FROM json_each(?))`, nums)
      .map((row) => [row.num, row]),
  );
  return top.flatMap((row) => {
    const ref = refs.get(row.num);
    const snippet = snippets.get(row.num);
    return ref === undefined || snippet === undefined ? [] : [{ ...ref, score: -row.bm, snippet }];
  });
}

/** All matches, counted up to `cap + 1` (without filters, in the full-text index alone: every match has its record). */
export function countMatches(db: Db, match: string, filter: SearchFilter, cap: number): number {
  if (!filtered(filter)) {
    return (
      db.one<{ n: number }>(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM records_fts WHERE records_fts MATCH ? LIMIT ${Math.trunc(cap) + 1})`,
        match,
      )?.n ?? 0
    );
  }
  const { sql, params } = where(filter);
  return (
    db.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM records_fts JOIN records r ON r.num = records_fts.rowid WHERE ${sql} LIMIT ${Math.trunc(cap) + 1})`,
      match,
      ...params,
    )?.n ?? 0
  );
}
