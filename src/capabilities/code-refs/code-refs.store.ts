/**
 * The `code_refs` table (migration 0012): stored code slices, one row per (path, range, sha256). Every
 * read is one indexed seek returning at most one row.
 */
import type { Db } from "../../workspace/db";
import type { CodeRange } from "./code-slice";

export type StoredSlice = {
  id: number;
  path: string;
  start_line: number;
  end_line: number;
  sha256: string;
  text: string;
  repo: string | null;
};

const COLUMNS = "id, path, start_line, end_line, sha256, text, repo";

/** The slice of that range with exactly that sha (`code_refs_by_slice`). */
export function sliceBySha(db: Db, range: CodeRange, sha256: string): StoredSlice | undefined {
  return db.one<StoredSlice>(
    `SELECT ${COLUMNS} FROM code_refs WHERE path = ? AND start_line = ? AND end_line = ? AND sha256 = ?`,
    range.path,
    range.start,
    range.end,
    sha256,
  );
}

/** The slice of that range stored last (`code_refs_by_range`). */
export function latestSlice(db: Db, range: CodeRange): StoredSlice | undefined {
  return db.one<StoredSlice>(
    `SELECT ${COLUMNS} FROM code_refs WHERE path = ? AND start_line = ? AND end_line = ? ORDER BY id DESC LIMIT 1`,
    range.path,
    range.start,
    range.end,
  );
}

export interface NewSlice extends CodeRange {
  sha256: string;
  text: string;
  repo: string | null;
  createdBy: string;
  createdAtMs: number;
}

/** Stores a slice that `sliceBySha` did not find; returns its row id. */
export function insertSlice(db: Db, slice: NewSlice): number {
  const row = db.one<{ id: number }>(
    `INSERT INTO code_refs (path, start_line, end_line, sha256, text, repo, created_by, created_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    slice.path,
    slice.start,
    slice.end,
    slice.sha256,
    slice.text,
    slice.repo,
    slice.createdBy,
    slice.createdAtMs,
  );
  if (!row) throw new Error("code_refs insert returned no row");
  return row.id;
}
