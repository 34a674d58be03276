/**
 * Pages over several sources (a branch and its ancestors): one bounded seq scan per source, merged
 * into the page's seqs by SQLite in a single statement, so a deep chain costs one call instead of one
 * per ancestor. workerd caps a compound SELECT at 5 terms, so the scans are grouped into nested
 * UNION ALLs of at most 5 (33 sources need three levels).
 */
import type { Db, SqlValue } from "./db";

/** workerd's SQLITE_MAX_COMPOUND_SELECT. */
const MAX_COMPOUND_TERMS = 5;

/**
 * ` LIMIT <n>` as a literal. Limits are written into the SQL text, not bound: with a bound LIMIT,
 * SQLite plans the per-source subqueries of a merged page without knowing the bound, and the
 * statement ran about 3× slower on an 11-source view (measured with SQLite 3.53).
 *
 * Likewise, a bound value compared with `=` in a statement that also sorts (`col = ? … ORDER BY`) is
 * written `col = +?`: workerd's SQLite (3.54) recompiles such a statement at every execution when the
 * value is a bare parameter, and a merged page over 11 sources spent most of its time compiling
 * (1.6-2.0 ms against 0.5-0.6 ms with `+?`, measured in `wrangler dev`). The unary `+` changes neither
 * the value, its affinity nor the index the plan uses.
 */
export function limitSql(limit: number): string {
  return ` LIMIT ${Math.max(0, Math.trunc(limit))}`;
}

export interface SeqScan {
  /** A SELECT returning a `seq` column, bounded by its own LIMIT (see `limitSql`). */
  sql: string;
  params: SqlValue[];
  /** Highest seq the scan can return (null: unbounded); scans are ordered nearest source first. */
  upper: number | null;
}

/** One SELECT of `columns` over every term, as nested compounds of at most MAX_COMPOUND_TERMS terms. */
export function unionAllOf(terms: string[], columns = "seq"): string {
  if (terms.length === 1) return terms[0] as string;
  if (terms.length <= MAX_COMPOUND_TERMS) return terms.map((term) => `SELECT ${columns} FROM (${term})`).join(" UNION ALL ");
  const groups: string[] = [];
  for (let start = 0; start < terms.length; start += MAX_COMPOUND_TERMS)
    groups.push(unionAllOf(terms.slice(start, start + MAX_COMPOUND_TERMS), columns));
  return unionAllOf(groups, columns);
}

/**
 * The page's seqs in page order, and whether more remain. On newest-first pages, scans whose upper
 * bound lies at or below the oldest seq any page could need are still cheap (each is LIMITed), so all
 * of them go into the one statement.
 */
export function mergeSeqScans(db: Db, scans: SeqScan[], limit: number, newest: boolean): { seqs: number[]; has_more: boolean } {
  if (scans.length === 0) return { seqs: [], has_more: false };
  const sql = `SELECT seq FROM (${unionAllOf(scans.map((scan) => scan.sql))}) ORDER BY seq ${newest ? "DESC" : "ASC"}${limitSql(limit + 1)}`;
  const rows = db.all<{ seq: number }>(sql, ...scans.flatMap((scan) => scan.params));
  const seqs = rows.map((row) => row.seq);
  return { seqs: seqs.slice(0, limit), has_more: seqs.length > limit };
}
