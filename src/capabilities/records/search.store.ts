/**
 * Full-text search over records (migration 0013, `records_fts`, FTS5 over title, summary and body):
 * matches ranked by their absolute relevance (search-relevance.ts), then by bm25 (title weighs most,
 * then summary, then body), then by record number, with a snippet, filtered by types, states and a
 * subtree, and a bounded count of all matches. Ranking is bounded too: past `rank` matches, only the
 * `rank` most recently created (highest record numbers) are ranked. The MATCH expression comes from
 * search-query.ts (escaped); every value is a bound parameter.
 */
import type { Db } from "../../storage/db";
import type { RecordState } from "./records.schema";
import { REF_COLUMNS, type RefRow, subtreeEnd } from "./records.store";
import { type Phrase, relevanceOf } from "./search-relevance";

export interface SearchFilter {
  types?: string[] | undefined;
  states?: RecordState[] | undefined;
  /** Only descendants of the record with this path. */
  underPath?: string | undefined;
}

export interface SearchRow extends RefRow {
  /** -bm25: larger is better; relative to the project's word statistics, it only orders equal relevance. */
  score: number;
  /** 0-1, from the record and the query alone (search-relevance.ts). */
  relevance: number;
  snippet: string;
}

/** bm25 column weights: title, summary, body. A word in the title says more than one in the body. */
const WEIGHTS = "10.0, 4.0, 1.0";
/**
 * bm25 of one column: below 0 exactly when a query word occurs in it (its IDF is at least 1e-6), so
 * a ranked match's title and summary are read only when a word is in them (search-relevance.ts).
 */
const TITLE_ONLY = "1.0, 0.0, 0.0";
const SUMMARY_ONLY = "0.0, 1.0, 0.0";
/** Snippet: matched words in **bold**, "…" at cuts, about this many tokens. */
const SNIPPET = "snippet(records_fts, -1, '**', '**', '…', 16)";
/** The page's refs, read through `r`; rows without a ref carry NULL in their place. */
const PAGE_REF_COLUMNS = REF_COLUMNS.split(", ")
  .map((column) => `r.${column}`)
  .join(", ");
const REF_NULLS = REF_COLUMNS.split(", ")
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

/** A row of the ranking statement: a ranked match (`n`), with its ref and snippet when already settled, or the count row. */
type RankingRow = Sql<
  { [K in keyof RefRow]: RefRow[K] | null } & {
    n: number | null;
    bm: number | null;
    in_title: number | null;
    in_summary: number | null;
    title_text: string | null;
    summary_text: string | null;
    snippet: string | null;
    total: number | null;
  }
>;

/**
 * The best `limit` matches, best first, among the `rank` newest matches; and the matches counted up to
 * `cap + 1`. Best first is by `relevance` (search-relevance.ts: the record and the query alone), then
 * by `score` (-bm25: larger is better, 0 or more; it weighs words by their rarity in the project), then
 * by record number. One statement, and a second one only when the page holds a match with a query word
 * in its title (or, for several words, in its summary); a Durable Object pays a fixed cost per statement:
 *
 * - one walk of the matches, newest first and unscored (FTS5 reads its doclists in either order; at most
 *   `cap + 1` rowids), gives both the count and the oldest ranked match; the ranking starts at it
 *   (`rowid >= …`, which FTS5 turns into a seek) and scores the window with bm25 and the two column
 *   flags, without a snippet; bm25 itself still counts every match of each word once (its IDF), which
 *   no window shortens;
 * - matches the flags settle (no word in the title; one word, or none in the summary: relevance 0.4 or
 *   0.2) are ordered in SQL, and only the best `limit` of them come back, with their refs and snippets
 *   (a snippet reads the body: made for the page's candidates only);
 * - the other matches come back with the title and summary their relevance needs; when some of them
 *   make the page, their refs and snippets come from one scan of the page's span of the window.
 *
 * Without filters the walk and the ranking run inside the full-text index alone; filters join each
 * walked and ranked match to its `records` row.
 */
export function searchRecords(
  db: Db,
  match: string,
  phrases: Phrase[],
  filter: SearchFilter,
  bounds: SearchBounds,
): { rows: SearchRow[]; total: number } {
  const oldestRanked = Math.max(0, Math.trunc(Math.min(bounds.rank, bounds.cap)) - 1);
  const limit = Math.trunc(bounds.limit);
  const { sql, params } = where(filter);
  const words = `?${params.length + 2}`;
  // Every filter is on `r`: without one, the index alone answers.
  const join = params.length > 0 ? " JOIN records r ON r.num = records_fts.rowid" : "";
  const matches = `FROM records_fts${join} WHERE ${sql}`;
  const low = "records_fts.rowid >= (SELECT num FROM low)";
  const found = db.all<RankingRow>(
    `WITH newest (num) AS MATERIALIZED (
       SELECT records_fts.rowid ${matches} ORDER BY records_fts.rowid DESC LIMIT ${Math.trunc(bounds.cap) + 1}
     ),
     low (num) AS MATERIALIZED (SELECT coalesce((SELECT num FROM newest ORDER BY num DESC LIMIT 1 OFFSET ${oldestRanked}), 0)),
     ranked (num, bm, in_title, in_summary) AS MATERIALIZED (
       SELECT records_fts.rowid, bm25(records_fts, ${WEIGHTS}), bm25(records_fts, ${TITLE_ONLY}) < 0, bm25(records_fts, ${SUMMARY_ONLY}) < 0
       ${matches} AND ${low} LIMIT ${Math.trunc(bounds.rank)}
     ),
     settled (num, bm, in_summary) AS MATERIALIZED (
       SELECT num, bm, in_summary FROM ranked WHERE NOT in_title AND (NOT in_summary OR ${words} = 1)
       ORDER BY in_summary DESC, bm, num LIMIT ${limit}
     ),
     snippets (num, snippet) AS (
       SELECT rowid, ${SNIPPET} FROM records_fts WHERE records_fts MATCH ?1 AND ${low} AND +rowid IN (SELECT num FROM settled)
     )
     SELECT t.num AS n, t.bm, 0 AS in_title, t.in_summary, NULL AS title_text, NULL AS summary_text, s.snippet, ${PAGE_REF_COLUMNS}, NULL AS total
     FROM settled t JOIN snippets s ON s.num = t.num JOIN records r ON r.num = t.num
     UNION ALL
     SELECT t.num, t.bm, t.in_title, t.in_summary,
       CASE WHEN t.in_title THEN (SELECT title FROM records WHERE num = t.num) END,
       CASE WHEN t.in_summary AND ${words} > 1 THEN (SELECT summary FROM records WHERE num = t.num) END,
       NULL, ${REF_NULLS}, NULL
     FROM ranked t WHERE t.in_title OR (t.in_summary AND ${words} > 1)
     UNION ALL
     SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, ${REF_NULLS}, (SELECT count(*) FROM newest)`,
    match,
    ...params,
    phrases.length,
  );
  const total = found.find((row) => row.total !== null)?.total ?? 0;
  const best = found
    .filter((row) => row.n !== null)
    .map((row) => {
      const evidence = { inTitle: row.in_title === 1, inSummary: row.in_summary === 1, title: row.title_text, summary: row.summary_text };
      return { row, num: row.n as number, score: -(row.bm as number), relevance: relevanceOf(phrases, evidence) };
    })
    .sort((a, b) => b.relevance - a.relevance || b.score - a.score || a.num - b.num)
    .slice(0, limit);
  const missing = best.filter(({ row }) => row.snippet === null).map(({ num }) => num);
  const fetched = new Map(pageRows(db, match, missing).map((row) => [row.num, row]));
  const rows: SearchRow[] = [];
  for (const { row, num, score, relevance } of best) {
    const ref = row.snippet === null ? fetched.get(num) : settledRef(row);
    if (ref) rows.push({ ...ref, score, relevance });
  }
  return { rows, total };
}

/** A settled row's ref and snippet, without the ranking's columns. */
function settledRef(row: RankingRow): RefRow & { snippet: string } {
  const { n: _n, bm: _bm, in_title: _t, in_summary: _s, title_text: _tt, summary_text: _st, total: _total, ...ref } = row;
  return ref as RefRow & { snippet: string };
}

/** The refs and snippets of ranked matches `nums`, from one scan of their span of the matches. */
function pageRows(db: Db, match: string, nums: number[]): (RefRow & { snippet: string })[] {
  if (nums.length === 0) return [];
  // `+rowid IN`: a filter on the scan of the span, not a rowid lookup (which would re-read the index per row).
  return db.all<Sql<RefRow & { snippet: string }>>(
    `WITH snippets (num, snippet) AS (
       SELECT rowid, ${SNIPPET} FROM records_fts
       WHERE records_fts MATCH ?1 AND rowid >= ?2 AND rowid <= ?3 AND +rowid IN (SELECT value FROM json_each(?4))
     )
     SELECT ${PAGE_REF_COLUMNS}, s.snippet FROM snippets s JOIN records r ON r.num = s.num`,
    match,
    Math.min(...nums),
    Math.max(...nums),
    JSON.stringify(nums),
  );
}
