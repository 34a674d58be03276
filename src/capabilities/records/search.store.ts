/**
 * Full-text search over records (migration 0013, `records_fts`, FTS5 over title, summary and body):
 * matches ranked by bm25 (title weighs most, then summary, then body; ties by record number), with a
 * snippet, filtered by types, states and a subtree, and a bounded count of all matches. Ranking is
 * bounded too: past `rank` matches, only the `rank` most recently created (highest record numbers) are
 * ranked. The MATCH expression comes from search-query.ts (escaped); every value is a bound parameter.
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
/** The page's refs, read through `r`; the count row carries NULL in their place. */
const PAGE_REF_COLUMNS = REF_COLUMNS.split(", ")
  .map((column) => `r.${column}`)
  .join(", ");
const COUNT_ROW_NULLS = REF_COLUMNS.split(", ")
  .map(() => "NULL")
  .join(", ");

/** The filters as SQL on `r` with numbered parameters from ?2 (?1 is the MATCH), so a statement can repeat them. */
function where(filter: SearchFilter): { sql: string; params: (string | number)[] } {
  const parts = ["records_fts MATCH ?1"];
  const params: (string | number)[] = [];
  const next = () => `?${params.length + 2}`;
  if (filter.types !== undefined && filter.types.length > 0) {
    parts.push(`r.type IN (SELECT value FROM json_each(${next()}))`);
    params.push(JSON.stringify(filter.types));
  }
  if (filter.states !== undefined && filter.states.length > 0) {
    parts.push(`r.state IN (SELECT value FROM json_each(${next()}))`);
    params.push(JSON.stringify(filter.states));
  }
  if (filter.underPath !== undefined) {
    const low = next();
    params.push(filter.underPath);
    parts.push(`r.path > ${low} AND r.path < ${next()}`);
    params.push(subtreeEnd(filter.underPath));
  }
  return { sql: parts.join(" AND "), params };
}

type Sql<T> = T & Record<string, string | number | null>;

/** What one search asks for: at most `limit` rows, from the `rank` newest matches, matches counted up to `cap + 1`. */
export interface SearchBounds {
  limit: number;
  /** At most `cap`. */
  rank: number;
  cap: number;
}

/**
 * The best `limit` matches, best first (`score` is -bm25: larger is better, 0 or more), among the `rank`
 * newest matches; and the matches counted up to `cap + 1`. One statement (a Durable Object pays a fixed
 * cost per statement):
 *
 * - one walk of the matches, newest first and unscored (FTS5 reads its doclists in either order; at most
 *   `cap + 1` rowids), gives both the count and the oldest ranked match; every later step starts at it
 *   (`rowid >= …`, which FTS5 turns into a seek);
 * - the window is ranked without a snippet, so snippets are made for the page's rows only (with both in
 *   one query, SQLite makes a snippet for every ranked match before sorting); bm25 itself still counts
 *   every match of each word once (its IDF), which no window shortens;
 * - then the page's snippets, from one scan of the window, and its refs.
 *
 * Without filters the walk and the ranking run inside the full-text index alone; filters join each
 * walked and ranked match to its `records` row.
 */
export function searchRecords(db: Db, match: string, filter: SearchFilter, bounds: SearchBounds): { rows: SearchRow[]; total: number } {
  const oldestRanked = Math.max(0, Math.trunc(Math.min(bounds.rank, bounds.cap)) - 1);
  const { sql, params } = where(filter);
  // Every filter is on `r`: without one, the index alone answers.
  const join = params.length > 0 ? " JOIN records r ON r.num = records_fts.rowid" : "";
  const matches = `FROM records_fts${join} WHERE ${sql}`;
  const low = "records_fts.rowid >= (SELECT num FROM low)";
  // `+rowid IN`: a filter on the scan of the window, not a rowid lookup (which would re-read the index per row).
  const found = db.all<Sql<SearchRow & { bm: number | null; total: number | null }>>(
    `WITH newest (num) AS MATERIALIZED (
       SELECT records_fts.rowid ${matches} ORDER BY records_fts.rowid DESC LIMIT ${Math.trunc(bounds.cap) + 1}
     ),
     low (num) AS MATERIALIZED (SELECT coalesce((SELECT num FROM newest ORDER BY num DESC LIMIT 1 OFFSET ${oldestRanked}), 0)),
     top (num, bm) AS MATERIALIZED (
       SELECT records_fts.rowid, bm25(records_fts, ${WEIGHTS}) ${matches} AND ${low} ORDER BY 2, 1 LIMIT ${Math.trunc(bounds.limit)}
     ),
     snippets (num, snippet) AS (
       SELECT rowid, ${SNIPPET} FROM records_fts WHERE records_fts MATCH ?1 AND ${low} AND +rowid IN (SELECT num FROM top)
     )
     SELECT ${PAGE_REF_COLUMNS}, t.bm, s.snippet, NULL AS total
     FROM top t JOIN snippets s ON s.num = t.num JOIN records r ON r.num = t.num
     UNION ALL
     SELECT ${COUNT_ROW_NULLS}, NULL, NULL, (SELECT count(*) FROM newest)`,
    match,
    ...params,
  );
  const rows = found
    .filter((row) => row.bm !== null)
    .sort((a, b) => (a.bm as number) - (b.bm as number) || a.num - b.num)
    .map(({ bm, total: _total, ...row }) => ({ ...row, score: -(bm as number) }));
  return { rows, total: found.find((row) => row.total !== null)?.total ?? 0 };
}
