/**
 * Merge conflicts as first-class rows: created by `graph_merge`, listed per destination, shown with
 * base/theirs/ours snapshots, resolved once. Ids are content-addressed (`CONFLICT-<32 hex>`), so the
 * same merge finds the same conflict instead of creating another.
 */
import { fnv1a64 } from "../../shared/hash";
import type { Db, SqlValue } from "../../storage/db";

export interface ConflictRow {
  ordinal: number;
  conflict_id: string;
  signature: string;
  from_branch_id: string;
  into_branch_id: string;
  doc: string;
  kind: string;
  key: string;
  base_cutoff: number;
  theirs_seq: number;
  ours_seq: number | null;
  base_json: string | null;
  theirs_json: string;
  ours_json: string | null;
  status: "open" | "resolved";
  resolution: string | null;
  created_at_ms: number;
  resolved_at_ms: number | null;
}

const COLUMNS =
  "ordinal, conflict_id, signature, from_branch_id, into_branch_id, doc, kind, key, base_cutoff, theirs_seq, ours_seq, base_json, theirs_json, ours_json, status, resolution, created_at_ms, resolved_at_ms";

/** Same change of `from` on the same key from the same base: one conflict, whatever `into` did since. */
export function conflictSignature(
  fromId: string,
  intoId: string,
  doc: string,
  kind: string,
  key: string,
  baseCutoff: number,
  theirsSeq: number,
): string {
  return [fromId, intoId, doc, kind, key, baseCutoff, theirsSeq].join("|");
}

export function conflictId(signature: string, oursSeq: number | null): string {
  const text = `${signature}|${oursSeq ?? "none"}`;
  return `CONFLICT-${fnv1a64(text)}${fnv1a64(`conflict:${text}`)}`;
}

export function conflictBySignature(db: Db, signature: string): ConflictRow | undefined {
  return db.one<ConflictRow & Record<string, SqlValue>>(`SELECT ${COLUMNS} FROM graph_conflicts WHERE signature = ?`, signature);
}

export function conflictById(db: Db, id: string): ConflictRow | undefined {
  return db.one<ConflictRow & Record<string, SqlValue>>(`SELECT ${COLUMNS} FROM graph_conflicts WHERE conflict_id = ?`, id);
}

export function insertConflict(db: Db, row: Omit<ConflictRow, "ordinal" | "status" | "resolution" | "resolved_at_ms">): void {
  db.run(
    `INSERT INTO graph_conflicts (conflict_id, signature, from_branch_id, into_branch_id, doc, kind, key, base_cutoff, theirs_seq, ours_seq,
       base_json, theirs_json, ours_json, status, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)`,
    row.conflict_id,
    row.signature,
    row.from_branch_id,
    row.into_branch_id,
    row.doc,
    row.kind,
    row.key,
    row.base_cutoff,
    row.theirs_seq,
    row.ours_seq,
    row.base_json,
    row.theirs_json,
    row.ours_json,
    row.created_at_ms,
  );
}

export function markResolved(db: Db, id: string, resolution: string, nowMs: number): void {
  db.run("UPDATE graph_conflicts SET status = 'resolved', resolution = ?, resolved_at_ms = ? WHERE conflict_id = ?", resolution, nowMs, id);
}

export function conflictPage(
  db: Db,
  intoId: string,
  doc: string,
  status: "open" | "resolved" | undefined,
  after: number | undefined,
  limit: number,
): { rows: ConflictRow[]; has_more: boolean } {
  const rows = db.all<ConflictRow & Record<string, SqlValue>>(
    `SELECT ${COLUMNS} FROM graph_conflicts WHERE into_branch_id = ? AND doc = ?${status ? " AND status = ?" : ""} AND ordinal > ? ORDER BY ordinal LIMIT ?`,
    ...([intoId, doc, ...(status ? [status] : []), after ?? 0, limit + 1] as SqlValue[]),
  );
  return { rows: rows.slice(0, limit), has_more: rows.length > limit };
}

/** The oldest open conflict merged into a branch's graph doc, or undefined: what the capsule points at first. */
export function firstOpenConflict(db: Db, intoId: string, doc: string): { conflict_id: string; key: string } | undefined {
  return db.one<{ conflict_id: string; key: string }>(
    "SELECT conflict_id, key FROM graph_conflicts WHERE into_branch_id = ? AND doc = ? AND status = 'open' ORDER BY ordinal LIMIT 1",
    intoId,
    doc,
  );
}
