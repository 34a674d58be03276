-- 0013_records: the Record-Sync API (seed 004; docs/records.md, docs/storage.md "Record-Sync tables").

-- Clocks: `record` numbers records (R001…), `record_session` numbers sessions (S001…), and
-- `project_tick` is seed 004's project tick: it advances only on create_record, update_record,
-- transition and save_session (never on reasoning writes, never on activate/sync/close).
INSERT INTO clocks (name, value) VALUES ('record', 0), ('record_session', 0), ('project_tick', 0);

-- One row per record, updated in place; every version is also a row of `record_versions`. `num` is
-- the record's number (R007 → 7) and the rowid the full-text index points at. `path` lists the
-- ancestors and the record itself, each followed by '/' (`R001/R004/`): a subtree is one index range.
-- `children_count` and `open_children_count` are kept by the writes that change them (a child created,
-- a child's state moved to or from OPEN). Records are never deleted or moved to another parent.
CREATE TABLE records (
  num INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('OPEN', 'LATER', 'RESOLVED', 'DISCARDED')),
  state_reason TEXT,
  parent_id TEXT REFERENCES records (id),
  path TEXT NOT NULL UNIQUE,
  depth INTEGER NOT NULL CHECK (depth >= 1),
  resolved_by TEXT REFERENCES records (id),
  related_json TEXT NOT NULL,
  metadata_json TEXT,
  version INTEGER NOT NULL CHECK (version >= 1),
  children_count INTEGER NOT NULL DEFAULT 0,
  open_children_count INTEGER NOT NULL DEFAULT 0,
  created_tick INTEGER NOT NULL,
  modified_tick INTEGER NOT NULL,
  modified_by_session TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  modified_at_ms INTEGER NOT NULL,
  CHECK ((state = 'RESOLVED') = (resolved_by IS NOT NULL))
) STRICT;
-- Children of a record, and roots (parent_id IS NULL), in number order.
CREATE INDEX records_by_parent ON records (parent_id, num);
-- Records of a state in number order: the overview's open and later lists, list_records by state.
CREATE INDEX records_by_state ON records (state, num);

-- Full-text index over title, summary and body (external content: the text lives in `records`).
-- The triggers keep it in step inside the transaction of the record write.
CREATE VIRTUAL TABLE records_fts USING fts5(
  title, summary, body,
  content = 'records', content_rowid = 'num',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER records_fts_insert AFTER INSERT ON records
BEGIN
  INSERT INTO records_fts (rowid, title, summary, body) VALUES (NEW.num, NEW.title, NEW.summary, NEW.body);
END;
CREATE TRIGGER records_fts_update AFTER UPDATE OF title, summary, body ON records
BEGIN
  INSERT INTO records_fts (records_fts, rowid, title, summary, body) VALUES ('delete', OLD.num, OLD.title, OLD.summary, OLD.body);
  INSERT INTO records_fts (rowid, title, summary, body) VALUES (NEW.num, NEW.title, NEW.summary, NEW.body);
END;

-- Every version of every record, never updated or deleted: version 1 is the creation, each update or
-- transition adds the next. A whole snapshot per version, so history and diff read two rows.
CREATE TABLE record_versions (
  record_id TEXT NOT NULL REFERENCES records (id),
  version INTEGER NOT NULL,
  tick INTEGER NOT NULL,
  change_type TEXT NOT NULL CHECK (change_type IN ('created', 'modified', 'state_changed')),
  change_summary TEXT NOT NULL,
  session_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  ts_ms INTEGER NOT NULL,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('OPEN', 'LATER', 'RESOLVED', 'DISCARDED')),
  state_reason TEXT,
  resolved_by TEXT,
  related_json TEXT NOT NULL,
  metadata_json TEXT,
  forced INTEGER NOT NULL DEFAULT 0 CHECK (forced IN (0, 1)),
  PRIMARY KEY (record_id, version)
) STRICT;
-- sync_session: the changes after a tick, in tick order (one version per tick at most).
CREATE INDEX record_versions_by_tick ON record_versions (tick);
-- save_session / close_session: the records a session changed after its last save.
CREATE INDEX record_versions_by_session ON record_versions (session_id, tick);

-- Sessions: domain objects (the MCP transport is stateless). `status` is stored as open or closed;
-- stale is derived on read from the project tick (tick - last_sync_tick > stale_after_ticks).
CREATE TABLE record_sessions (
  num INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  agent_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
  parent_session TEXT REFERENCES record_sessions (id),
  stale_after_ticks INTEGER NOT NULL CHECK (stale_after_ticks >= 1),
  created_tick INTEGER NOT NULL,
  last_sync_tick INTEGER NOT NULL,
  last_save_tick INTEGER,
  last_save_at_ms INTEGER,
  closed_tick INTEGER,
  created_at_ms INTEGER NOT NULL,
  last_activity_at_ms INTEGER NOT NULL,
  closed_at_ms INTEGER
) STRICT;
-- An agent's open sessions (selection when a call names none).
CREATE INDEX record_sessions_open_by_agent ON record_sessions (agent_id, num) WHERE status = 'open';
-- Every open session (overview, get_active_sessions without a record, the Directory summary count).
CREATE INDEX record_sessions_open ON record_sessions (num) WHERE status = 'open';

-- The records a session has active. Rows exist only while the session is open (close deletes them).
-- `loaded_version` is the version the session's last activation returned; `base_tick` starts the
-- conflict window (the project tick at activation, moved on by the session's own writes to the record).
CREATE TABLE session_records (
  session_id TEXT NOT NULL REFERENCES record_sessions (id),
  record_id TEXT NOT NULL REFERENCES records (id),
  loaded_version INTEGER NOT NULL,
  base_tick INTEGER NOT NULL,
  activated_tick INTEGER NOT NULL,
  activated_at_ms INTEGER NOT NULL,
  PRIMARY KEY (session_id, record_id)
) STRICT, WITHOUT ROWID;
-- Which open sessions have a record active (activation conflicts, get_active_sessions).
CREATE INDEX session_records_by_record ON session_records (record_id, session_id);

-- The project's activity log, never updated or deleted; `id` orders it. `at_tick` is the project tick
-- after the operation (advancing operations carry their own tick; activate, sync and close the current one).
CREATE TABLE record_activity (
  id INTEGER PRIMARY KEY,
  at_tick INTEGER NOT NULL,
  ts_ms INTEGER NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('record_created', 'record_updated', 'state_transition', 'session_started', 'session_saved',
    'session_closed', 'session_branched', 'session_synced', 'activation', 'conflict_detected', 'conflict_resolved')),
  session_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  record_id TEXT,
  summary TEXT NOT NULL,
  details_json TEXT
) STRICT;
CREATE INDEX record_activity_by_record ON record_activity (record_id, id) WHERE record_id IS NOT NULL;
CREATE INDEX record_activity_by_type ON record_activity (type, id);
