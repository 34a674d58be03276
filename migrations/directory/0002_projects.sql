-- Directory 0002: Record-Sync projects (seed 004) and the Record-Sync counts of workspace summaries
-- (docs/storage.md, docs/projects.md). A project is a workspace: `projects.id` is the workspace name.
ALTER TABLE workspaces ADD COLUMN project_tick INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workspaces ADD COLUMN open_records INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workspaces ADD COLUMN open_sessions INTEGER NOT NULL DEFAULT 0;

CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT,
  origin TEXT NOT NULL CHECK (origin IN ('created', 'default', 'workspace')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'ready')),
  created_by TEXT,
  request_key TEXT,
  request_fingerprint TEXT,
  created_at_ms INTEGER NOT NULL,
  ready_at_ms INTEGER
) STRICT;

-- An idempotency key names one create of one agent.
CREATE UNIQUE INDEX projects_by_request ON projects (created_by, request_key) WHERE request_key IS NOT NULL;

-- The counter behind generated ids: the next number to try after `base` (`base`, `base-2`, `base-3`, …).
CREATE TABLE project_id_counters (
  base TEXT PRIMARY KEY,
  next INTEGER NOT NULL
) STRICT;

-- Workspaces registered before projects existed are projects too (named after themselves).
INSERT INTO projects (id, name, origin, status, created_at_ms, ready_at_ms)
  SELECT name, name, 'workspace', 'ready', registered_at_ms, registered_at_ms FROM workspaces;
