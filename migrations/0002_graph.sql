-- 0002_graph: the versioned typed graph (docs/storage.md, "Graph").

-- Every version of every node and edge, on the workspace `seq` clock shared with document entries, so
-- a branch's `base_seq` cuts notes and graph consistently. `superseded_seq` is the seq of the next
-- version of the same key on the same branch (NULL while the version is the branch's current one): a
-- version is the branch's latest as of cutoff c when seq <= c and (superseded_seq IS NULL or > c).
CREATE TABLE graph_versions (
  seq INTEGER PRIMARY KEY,
  branch_id TEXT NOT NULL REFERENCES branches (id),
  doc TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('node', 'edge')),
  key TEXT NOT NULL,
  node_type TEXT,
  title TEXT,
  text TEXT,
  status TEXT,
  tags_json TEXT,
  from_id TEXT,
  rel TEXT,
  to_id TEXT,
  meta_json TEXT,
  deleted INTEGER NOT NULL CHECK (deleted IN (0, 1)),
  ts_ms INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  superseded_seq INTEGER
) STRICT;
-- Recent-first scans of a branch as of a cutoff.
CREATE INDEX graph_versions_by_seq ON graph_versions (branch_id, doc, kind, seq);
-- Recent-first scans of a branch's current, live versions (the common case: no cutoff).
CREATE INDEX graph_versions_current ON graph_versions (branch_id, doc, kind, seq)
  WHERE superseded_seq IS NULL AND deleted = 0;
-- The versions of one key across branches, newest first (the effective version of a key in a view).
CREATE INDEX graph_versions_by_key ON graph_versions (doc, kind, key, seq);
-- Edges touching given nodes across branches (edges of a query page, tombstoning on node delete): one
-- statement covers every source of a view, since the endpoint list is the selective part.
CREATE INDEX graph_edges_by_from ON graph_versions (doc, from_id, seq) WHERE kind = 'edge';
CREATE INDEX graph_edges_by_to ON graph_versions (doc, to_id, seq) WHERE kind = 'edge';

-- Per branch, document and key: the first and the latest version written on that branch. A key is
-- visible from a source (branch, cutoff) when first_seq <= cutoff; a nearer source that sees the key
-- shadows every farther one.
CREATE TABLE graph_heads (
  branch_id TEXT NOT NULL REFERENCES branches (id),
  doc TEXT NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  first_seq INTEGER NOT NULL,
  head_seq INTEGER NOT NULL,
  PRIMARY KEY (branch_id, doc, kind, key)
) STRICT, WITHOUT ROWID;

-- Every new version supersedes the branch's previous version of its key and becomes the head. Kept in
-- the database so no writer can forget it (and one statement per version instead of three).
CREATE TRIGGER graph_versions_head AFTER INSERT ON graph_versions
BEGIN
  UPDATE graph_versions SET superseded_seq = NEW.seq
    WHERE seq = (SELECT head_seq FROM graph_heads
                 WHERE branch_id = NEW.branch_id AND doc = NEW.doc AND kind = NEW.kind AND key = NEW.key);
  INSERT INTO graph_heads (branch_id, doc, kind, key, first_seq, head_seq)
    VALUES (NEW.branch_id, NEW.doc, NEW.kind, NEW.key, NEW.seq, NEW.seq)
    ON CONFLICT (branch_id, doc, kind, key) DO UPDATE SET head_seq = excluded.head_seq;
END;

-- Merge conflicts, first-class: base/theirs/ours snapshots, open until resolved. `signature` leaves out
-- ours_seq, so a conflict that was resolved never comes back for the same change of `from`.
CREATE TABLE graph_conflicts (
  ordinal INTEGER PRIMARY KEY,
  conflict_id TEXT NOT NULL UNIQUE,
  signature TEXT NOT NULL UNIQUE,
  from_branch_id TEXT NOT NULL,
  into_branch_id TEXT NOT NULL,
  doc TEXT NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  base_cutoff INTEGER NOT NULL,
  theirs_seq INTEGER NOT NULL,
  ours_seq INTEGER,
  base_json TEXT,
  theirs_json TEXT NOT NULL,
  ours_json TEXT,
  status TEXT NOT NULL CHECK (status IN ('open', 'resolved')),
  resolution TEXT,
  created_at_ms INTEGER NOT NULL,
  resolved_at_ms INTEGER
) STRICT;
CREATE INDEX graph_conflicts_by_into ON graph_conflicts (into_branch_id, doc, status, ordinal);
