/**
 * The term index of the versions written before migration 0017, built after the object starts, a batch
 * at a time, so an upgrade never holds the object's start (a backfill over 1,000,000 versions takes
 * seconds; migrations run under `blockConcurrencyWhile`).
 *
 * The migration records the highest seq written before it (`graph_terms_backfill` in `workspace_meta`):
 * versions at or below it are not indexed yet, unless a batch has reached them. Every batch indexes the
 * `TERMS_BACKFILL_BATCH` versions just below that mark, as the writes' triggers would have (current
 * versions in part 0, superseded ones in part 1 of the forks that saw them), and lowers the mark, in one
 * transaction; the mark is gone when nothing is left. Writes keep the index from the migration on (its
 * triggers), and a read stays exact all along: the index serves the versions above the mark, and the
 * graph's own scans (`effectivePage`) the versions at or below it (graph-terms.store.ts).
 */
import type { MaintenanceTask } from "../../commands/workspace-hooks";
import type { Db } from "../../storage/db";

/** Versions indexed per batch: about a fifth of a second of work, short enough to run between calls. */
export const TERMS_BACKFILL_BATCH = 20_000;

const MARK = "graph_terms_backfill";

/** The highest seq not indexed yet (0: the index holds every version): read once per handle, then remembered (it only falls). */
export function termsPendingThrough(db: Db): number {
  let mark = db.remembered.get(MARK) as number | undefined;
  if (mark === undefined) {
    mark = Number(db.one<{ value: string }>(`SELECT value FROM workspace_meta WHERE key = '${MARK}'`)?.value ?? 0);
    db.remembered.set(MARK, mark);
  }
  return mark;
}

/** Whether versions written before the index wait to be indexed. */
export function termsBackfillPending(db: Db): boolean {
  return termsPendingThrough(db) > 0;
}

/**
 * Indexes one batch below the mark and lowers it, in one transaction of its own; the remembered mark
 * moves only once that transaction is committed, so a read never trusts the index below what it holds.
 */
export function backfillTermsBatch(db: Db, batch = TERMS_BACKFILL_BATCH): void {
  const through = termsPendingThrough(db);
  if (through <= 0) return;
  const below = Math.max(0, through - batch);
  db.transaction(() => indexBatch(db, below, through));
  db.remembered.set(MARK, below);
}

function indexBatch(db: Db, below: number, through: number): void {
  db.run(
    `INSERT OR IGNORE INTO graph_terms (holder, part, doc, term, seq)
     SELECT t.branch_id, 0, t.doc, t.term, t.seq FROM graph_version_terms t
     WHERE t.seq > ? AND t.seq <= ? AND t.superseded_seq IS NULL`,
    below,
    through,
  );
  db.run(
    `INSERT OR IGNORE INTO graph_terms (holder, part, doc, term, seq)
     SELECT c.id, 1, t.doc, t.term, t.seq FROM graph_version_terms t CROSS JOIN branches c INDEXED BY branches_by_base_seq
     WHERE t.seq > ? AND t.seq <= ? AND t.superseded_seq IS NOT NULL
       AND c.base_id = t.branch_id AND c.base_seq >= t.seq AND c.base_seq < t.superseded_seq`,
    below,
    through,
  );
  if (below === 0) db.run(`DELETE FROM workspace_meta WHERE key = '${MARK}'`);
  else db.run(`UPDATE workspace_meta SET value = ? WHERE key = '${MARK}'`, String(below));
}

/** The backfill as the object's alarm runs it (a maintenance task the catalog registers). */
export const TERMS_BACKFILL: MaintenanceTask = { pending: termsBackfillPending, step: (db) => backfillTermsBatch(db) };
