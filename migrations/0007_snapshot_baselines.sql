-- 0007_snapshot_baselines: where each agent's last tasks_snapshot with delta left off, per target
-- (docs/tasks.md "Resume views"). Bookkeeping of a read: it advances no clock and writes no journal row.
CREATE TABLE snapshot_baselines (
  agent_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  PRIMARY KEY (agent_id, target_id)
) STRICT, WITHOUT ROWID;
