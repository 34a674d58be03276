-- 0010_knowledge: the key index of knowledge cards (docs/knowledge.md, docs/storage.md "Knowledge tables").
-- The cards themselves are graph nodes of type `knowledge` on branch `kb/main`, doc `kb-graph`, with a
-- trace note in `kb-trace`; these tables only say which card is the latest of each (anchor, key, lane).

-- The latest card of each (anchor, key) per lane (`shared`, or `agent/<id>` for an agent's drafts).
-- `updated_seq` is the workspace seq of the card write that made it the latest: recall and query order
-- by it (newest first), never by wall-clock time.
CREATE TABLE knowledge_keys (
  anchor TEXT NOT NULL,
  key TEXT NOT NULL,
  lane TEXT NOT NULL,
  card_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  content_hash TEXT NOT NULL,
  expiry TEXT,
  created_seq INTEGER NOT NULL,
  updated_seq INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  updated_by TEXT NOT NULL,
  PRIMARY KEY (anchor, key, lane)
) STRICT, WITHOUT ROWID;
-- Recall and query without an anchor: the newest keys of some lanes.
CREATE INDEX knowledge_keys_recent ON knowledge_keys (lane, updated_seq);
-- Recall and query of given anchors (and their aliases).
CREATE INDEX knowledge_keys_by_anchor ON knowledge_keys (anchor, lane, updated_seq);
-- One key across anchors (key.suggest collisions, query by key).
CREATE INDEX knowledge_keys_by_key ON knowledge_keys (key, anchor);

-- Every version of every key: one row per card that became the latest of its (anchor, key, lane).
CREATE TABLE knowledge_versions (
  anchor TEXT NOT NULL,
  key TEXT NOT NULL,
  lane TEXT NOT NULL,
  seq INTEGER NOT NULL,
  version INTEGER NOT NULL,
  card_id TEXT NOT NULL,
  ts_ms INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  PRIMARY KEY (anchor, key, lane, seq)
) STRICT, WITHOUT ROWID;
