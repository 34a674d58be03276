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

function filtered(filter: SearchFilter): boolean {
  return (filter.types?.length ?? 0) > 0 || (filter.states?.length ?? 0) > 0 || filter.underPath !== undefined;
}

type Sql<T> = T & Record<string, string | number | null>;

/** What one search asks for: at most `limit` rows, from the `rank` newest matches, all counted up to `cap + 1`. */
export interface SearchBounds {
  limit: number;
  rank: number;
  cap: number;
}

/**
 * The best `limit` matches, best first (`score` is -bm25: larger is better, 0 or more), among the `rank`
 * newest matches; and all matches counted up to `cap + 1`. The oldest ranked match is found first, by
 * walking the matches newest first without scoring them (FTS5 reads its doclists in either order); every
 * later step starts at it (`rowid >= …`, which FTS5 turns into a seek).
 *
 * Without filters it is one statement (a Durable Object pays a fixed cost per statement), and the
 * ranking runs inside the full-text index alone: no `records` row is read and no snippet made for a
 * match that does not make the page (with a join and a snippet in the ranking query, SQLite reads both
 * for every ranked match before sorting). Then the page's snippets (one scan of the ranked matches, the
 * snippet made for the page's rows only) and its refs, and the count in the index alone (every index
 * row has its record), as one more row. Same rows, scores, snippets and order as the one-statement form,
 * which filtered searches use (their filters need the `records` row of every match anyway).
 */
export function searchRecords(db: Db, match: string, filter: SearchFilter, bounds: SearchBounds): { rows: SearchRow[]; total: number } {
  const limit = Math.trunc(bounds.limit);
  const oldestRanked = Math.max(0, Math.trunc(bounds.rank) - 1);
  const counted = Math.trunc(bounds.cap) + 1;
  if (filtered(filter)) {
    const { sql, params } = where(filter);
    const matches = `FROM records_fts JOIN records r ON r.num = records_fts.rowid WHERE ${sql}`;
    const rows = db.all<Sql<SearchRow>>(
      `WITH low (num) AS MATERIALIZED (
         SELECT coalesce((SELECT records_fts.rowid ${matches} ORDER BY records_fts.rowid DESC LIMIT 1 OFFSET ${oldestRanked}), 0)
       )
       SELECT r.num, r.id, r.type, r.title, r.summary, r.state, r.parent_id, r.path, r.depth, r.children_count, r.open_children_count,
         -bm25(records_fts, ${WEIGHTS}) AS score, ${SNIPPET} AS snippet
       ${matches} AND records_fts.rowid >= (SELECT num FROM low) ORDER BY bm25(records_fts, ${WEIGHTS}), r.num LIMIT ${limit}`,
      match,
      ...params,
    );
    const total = db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM (SELECT 1 ${matches} LIMIT ${counted})`, match, ...params)?.n ?? 0;
    return { rows, total };
  }
  // `+rowid IN`: a filter on the scan of the ranked matches, not a rowid lookup (which would re-read the index per row).
  const found = db.all<Sql<SearchRow & { bm: number | null; total: number | null }>>(
    `WITH low (num) AS MATERIALIZED (
       SELECT coalesce((SELECT rowid FROM records_fts WHERE records_fts MATCH ?1 ORDER BY rowid DESC LIMIT 1 OFFSET ${oldestRanked}), 0)
     ),
     top (num, bm) AS MATERIALIZED (
       SELECT rowid, bm25(records_fts, ${WEIGHTS}) FROM records_fts WHERE records_fts MATCH ?1 AND rowid >= (SELECT num FROM low)
       ORDER BY 2, rowid LIMIT ${limit}
     ),
     snippets (num, snippet) AS (
       SELECT rowid, ${SNIPPET} FROM records_fts
       WHERE records_fts MATCH ?1 AND rowid >= (SELECT num FROM low) AND +rowid IN (SELECT num FROM top)
     )
     SELECT ${REF_COLUMNS.split(", ")
       .map((column) => `r.${column}`)
       .join(", ")}, t.bm, s.snippet, NULL AS total
     FROM top t JOIN snippets s ON s.num = t.num JOIN records r ON r.num = t.num
     UNION ALL
     SELECT ${REF_COLUMNS.split(", ")
       .map(() => "NULL")
       .join(", ")}, NULL, NULL, (SELECT COUNT(*) FROM (SELECT 1 FROM records_fts WHERE records_fts MATCH ?1 LIMIT ${counted}))`,
    match,
  );
  const rows = found
    .filter((row) => row.bm !== null)
    .sort((a, b) => (a.bm as number) - (b.bm as number) || a.num - b.num)
    .map(({ bm, total: _total, ...row }) => ({ ...row, score: -(bm as number) }));
  return { rows, total: found.find((row) => row.total !== null)?.total ?? 0 };
}
