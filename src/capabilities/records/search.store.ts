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
 * The best `limit` matches, best first (`score` is -bm25: larger is better, 0 or more), and all
 * matches counted up to `cap + 1`.
 *
 * Without filters it is one statement (a Durable Object pays a fixed cost per statement), and the
 * ranking runs inside the full-text index alone: every match is scored, but no `records` row is read
 * and no snippet made for a match that does not make the page (with a join and a snippet in the
 * ranking query, SQLite reads both for every match before sorting: most of the cost of a common word).
 * Then the page's snippets (one scan of the matches, the snippet made for the page's rows only) and its
 * refs, and the count in the index alone (every index row has its record), as one more row. Same rows,
 * scores, snippets and order as the one-statement form, which filtered searches use (their filters
 * need the `records` row of every match anyway).
 */
export function searchRecords(
  db: Db,
  match: string,
  filter: SearchFilter,
  limit: number,
  cap: number,
): { rows: SearchRow[]; total: number } {
  if (filtered(filter)) {
    const { sql, params } = where(filter);
    const rows = db.all<Sql<SearchRow>>(
      `SELECT r.num, r.id, r.type, r.title, r.summary, r.state, r.parent_id, r.path, r.depth, r.children_count, r.open_children_count,
         -bm25(records_fts, ${WEIGHTS}) AS score, ${SNIPPET} AS snippet
       FROM records_fts JOIN records r ON r.num = records_fts.rowid
       WHERE ${sql} ORDER BY bm25(records_fts, ${WEIGHTS}), r.num LIMIT ${Math.trunc(limit)}`,
      match,
      ...params,
    );
    const total =
      db.one<{ n: number }>(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM records_fts JOIN records r ON r.num = records_fts.rowid WHERE ${sql} LIMIT ${Math.trunc(cap) + 1})`,
        match,
        ...params,
      )?.n ?? 0;
    return { rows, total };
  }
  // `+rowid`: a filter on the scan of the matches, not a rowid lookup (which would re-read the index per row).
  const found = db.all<Sql<SearchRow & { bm: number | null; total: number | null }>>(
    `WITH top (num, bm) AS MATERIALIZED (
       SELECT rowid, bm25(records_fts, ${WEIGHTS}) FROM records_fts WHERE records_fts MATCH ?1 ORDER BY 2, rowid LIMIT ${Math.trunc(limit)}
     ),
     snippets (num, snippet) AS (
       SELECT rowid, ${SNIPPET} FROM records_fts WHERE records_fts MATCH ?1 AND +rowid IN (SELECT num FROM top)
     )
     SELECT ${REF_COLUMNS.split(", ")
       .map((column) => `r.${column}`)
       .join(", ")}, t.bm, s.snippet, NULL AS total
     FROM top t JOIN snippets s ON s.num = t.num JOIN records r ON r.num = t.num
     UNION ALL
     SELECT ${REF_COLUMNS.split(", ")
       .map(() => "NULL")
       .join(
         ", ",
       )}, NULL, NULL, (SELECT COUNT(*) FROM (SELECT 1 FROM records_fts WHERE records_fts MATCH ?1 LIMIT ${Math.trunc(cap) + 1}))`,
    match,
  );
  const rows = found
    .filter((row) => row.bm !== null)
    .sort((a, b) => (a.bm as number) - (b.bm as number) || a.num - b.num)
    .map(({ bm, total: _total, ...row }) => ({ ...row, score: -(bm as number) }));
  return { rows, total: found.find((row) => row.total !== null)?.total ?? 0 };
}
