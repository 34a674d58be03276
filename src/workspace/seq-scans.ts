/**
 * Pages over several sources (a branch and its ancestors): run one bounded seq scan per source, keep
 * the page's seqs, and let the caller read only those rows. Separate statements, not one UNION:
 * workerd caps compound SELECTs at 5 terms, and a base chain may be 33 sources long.
 */
import type { Db, SqlValue } from "./db";

export interface SeqScan {
  sql: string;
  params: SqlValue[];
  /** Highest seq the scan can return (null: unbounded). */
  upper: number | null;
}

/**
 * The page's seqs in page order, and whether more remain. On newest-first pages a scan is skipped once
 * `limit + 1` collected seqs all lie above its upper bound: nothing it returns could enter the page.
 */
export function mergeSeqScans(db: Db, scans: SeqScan[], limit: number, newest: boolean): { seqs: number[]; has_more: boolean } {
  const seqs: number[] = [];
  const order = (a: number, b: number) => (newest ? b - a : a - b);
  for (const scan of scans) {
    if (newest && scan.upper !== null && seqs.length > limit) {
      seqs.sort(order);
      if ((seqs[limit] as number) > scan.upper) continue;
    }
    for (const row of db.all<{ seq: number }>(scan.sql, ...scan.params)) seqs.push(row.seq);
  }
  seqs.sort(order);
  return { seqs: seqs.slice(0, limit), has_more: seqs.length > limit };
}
