/**
 * The `code_refs` table (migration 0012): stored code slices, one row per (path, range, sha256). Every
 * read returns at most one row, by indexed seeks.
 */
import type { Db } from "../../storage/db";
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

/**
 * The slice of that range with exactly that sha, with the sha of the range's latest slice (stored last;
 * equal to its own when no newer slice of that path and range exists): one row, one seek on each index.
 */
export function sliceWithLatest(db: Db, range: CodeRange, sha256: string): (StoredSlice & { latest_sha256: string }) | undefined {
  return db.one<StoredSlice & { latest_sha256: string }>(
    `SELECT ${COLUMNS},
       (SELECT latest.sha256 FROM code_refs AS latest
         WHERE latest.path = code_refs.path AND latest.start_line = code_refs.start_line AND latest.end_line = code_refs.end_line
         ORDER BY latest.id DESC LIMIT 1) AS latest_sha256
     FROM code_refs WHERE path = ? AND start_line = ? AND end_line = ? AND sha256 = ?`,
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
