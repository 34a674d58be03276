-- 0005_step_leases: one agent at a time on a step (docs/tasks.md "Step leases").

-- A live lease (expires_tick above the workspace tick) makes step mutations by anyone but its holder
-- fail STEP_LEASE_HELD. Expiry runs on the tick clock, never on wall time: a lease lasts a number of
-- journaled operations of the workspace.
CREATE TABLE step_leases (
  step_id TEXT PRIMARY KEY REFERENCES steps (id),
  task_id TEXT NOT NULL REFERENCES tasks (id),
  holder TEXT NOT NULL,
  acquired_tick INTEGER NOT NULL,
  expires_tick INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX step_leases_by_expiry ON step_leases (expires_tick);
