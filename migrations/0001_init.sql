-- 0001_init: the workspace core. Every table is described in docs/storage.md.

-- Facts about the workspace: name, creation time, project guard.
CREATE TABLE workspace_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

-- Monotonic counters: `seq` (document entries, later graph versions), `tick` (journal), `branch` (ids).
CREATE TABLE clocks (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;
INSERT INTO clocks (name, value) VALUES ('seq', 0), ('tick', 0), ('branch', 0);

-- One row per operation that changed domain rows; `tick` is the workspace event sequence.
CREATE TABLE journal (
  tick INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  ts_ms INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  command TEXT NOT NULL,
  target TEXT NOT NULL,
  summary TEXT NOT NULL
) STRICT;

-- Branches: immutable ids, renameable names, a base (branch id + seq cutoff) for no-copy snapshots.
CREATE TABLE branches (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  base_id TEXT REFERENCES branches (id),
  base_seq INTEGER,
  depth INTEGER NOT NULL,
  created_seq INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  created_by TEXT NOT NULL
) STRICT;
CREATE INDEX branches_by_base ON branches (base_id);

-- Per-agent checkout; an agent without a row is on the workspace default (`main`).
CREATE TABLE checkouts (
  agent_id TEXT PRIMARY KEY,
  branch_id TEXT NOT NULL REFERENCES branches (id),
  updated_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX checkouts_by_branch ON checkouts (branch_id);

-- Append-only document entries (notes and trace). `identity_seq` is the seq of the original entry:
-- a merged copy carries its source's identity, so diff and merge treat it as present.
CREATE TABLE doc_entries (
  seq INTEGER PRIMARY KEY,
  branch_id TEXT NOT NULL REFERENCES branches (id),
  doc TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('note', 'event')),
  ts_ms INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  title TEXT,
  format TEXT,
  meta_json TEXT,
  content TEXT NOT NULL,
  identity_seq INTEGER NOT NULL,
  source_event_id TEXT
) STRICT;
CREATE INDEX doc_entries_by_doc ON doc_entries (branch_id, doc, seq);
CREATE INDEX doc_entries_by_branch ON doc_entries (branch_id, seq);
CREATE INDEX doc_entries_by_identity ON doc_entries (identity_seq);
CREATE UNIQUE INDEX doc_entries_by_source ON doc_entries (branch_id, doc, source_event_id)
  WHERE source_event_id IS NOT NULL;

-- Documents written directly on each branch (docs_list without scanning entries).
CREATE TABLE documents (
  branch_id TEXT NOT NULL REFERENCES branches (id),
  doc TEXT NOT NULL,
  first_seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  entry_count INTEGER NOT NULL,
  PRIMARY KEY (branch_id, doc)
) STRICT;

-- VCS pointer of a branch after a `reset`; without a row the head is the branch's newest entry.
CREATE TABLE branch_heads (
  branch_id TEXT PRIMARY KEY REFERENCES branches (id),
  seq INTEGER NOT NULL
) STRICT;

-- Lightweight tags: a name pointing at an entry seq seen from a branch.
CREATE TABLE tags (
  name TEXT PRIMARY KEY,
  branch_id TEXT NOT NULL REFERENCES branches (id),
  seq INTEGER NOT NULL,
  message TEXT,
  created_at_ms INTEGER NOT NULL,
  created_by TEXT NOT NULL
) STRICT;

-- Movements of refs (branch heads and tags).
CREATE TABLE reflog (
  id INTEGER PRIMARY KEY,
  ref_id TEXT NOT NULL,
  ref_name TEXT NOT NULL,
  action TEXT NOT NULL,
  old_seq INTEGER,
  new_seq INTEGER,
  agent_id TEXT NOT NULL,
  tick INTEGER NOT NULL,
  ts_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX reflog_by_ref ON reflog (ref_id, id);

-- Idempotency keys, scoped to (agent, key): a replay returns the stored result.
CREATE TABLE idempotency_keys (
  agent_id TEXT NOT NULL,
  key TEXT NOT NULL,
  command TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  result_json TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  PRIMARY KEY (agent_id, key)
) STRICT;
