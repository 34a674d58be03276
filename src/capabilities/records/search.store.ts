/**
 * Full-text search over records (migration 0013, `records_fts`, FTS5 over title, summary and body):
 * matches ranked by bm25 (title weighs most, then summary, then body; ties by record number), with a
 * snippet, filtered by types, states and a subtree, and a bounded count of all matches. The MATCH
 * expression comes from search-query.ts (escaped); every value is a bound parameter.
 */
import type { Db } from "../../workspace/db";
import type { RecordState } from "./records.schema";
import { type RefRow, subtreeEnd } from "./records.store";

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

/** The best `limit` matches, best first; `score` is -bm25 (larger is better, 0 or more). */
export function searchRecords(db: Db, match: string, filter: SearchFilter, limit: number): SearchRow[] {
  const { sql, params } = where(filter);
  return db.all<SearchRow & Record<string, string | number | null>>(
    `SELECT r.num, r.id, r.type, r.title, r.summary, r.state, r.parent_id, r.path, r.depth, r.children_count, r.open_children_count,
       -bm25(records_fts, ${WEIGHTS}) AS score, ${SNIPPET} AS snippet
     FROM records_fts JOIN records r ON r.num = records_fts.rowid
     WHERE ${sql} ORDER BY bm25(records_fts, ${WEIGHTS}), r.num LIMIT ${Math.trunc(limit)}`,
    match,
    ...params,
  );
}

/** All matches, counted up to `cap + 1`. */
export function countMatches(db: Db, match: string, filter: SearchFilter, cap: number): number {
  const { sql, params } = where(filter);
  return (
    db.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM records_fts JOIN records r ON r.num = records_fts.rowid WHERE ${sql} LIMIT ${Math.trunc(cap) + 1})`,
      match,
      ...params,
    )?.n ?? 0
  );
}
