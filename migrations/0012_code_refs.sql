-- 0012_code_refs: code slices attached by agents (docs/think.md "Code refs"). The server cannot read the
-- agent's repository, so the caller sends the lines; each distinct (path, range, sha256) is stored once.
-- Slices are workspace-wide, not per branch: a slice is named by its content, the same on every branch.
CREATE TABLE code_refs (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  start_line INTEGER NOT NULL CHECK (start_line >= 1),
  end_line INTEGER NOT NULL CHECK (end_line >= start_line AND end_line - start_line < 240),
  sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
  text TEXT NOT NULL,
  repo TEXT,
  created_by TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL
) STRICT;
-- One row per slice: an attach of a stored slice finds it here and writes nothing.
CREATE UNIQUE INDEX code_refs_by_slice ON code_refs (path, start_line, end_line, sha256);
-- The latest slice of a path and range (a ref without a sha) in one seek, however many were stored.
CREATE INDEX code_refs_by_range ON code_refs (path, start_line, end_line, id);
