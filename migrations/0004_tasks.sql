-- 0004_tasks: plans, tasks and steps, their proofs, per-agent focus, and task events in the journal
-- (docs/tasks.md, docs/storage.md "Tasks").

-- Id counters: PLAN-001, TASK-001 (3-digit minimum), STEP-0000000A (8 hex digits).
INSERT INTO clocks (name, value) VALUES ('plan', 0), ('task', 0), ('step', 0);

-- Plans and tasks share one table: a task always belongs to a plan. `revision` starts at 0 and grows by
-- one per change (step changes count for their task), so `expected_revision` can refuse stale writes.
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('plan', 'task')),
  plan_id TEXT REFERENCES tasks (id),
  title TEXT NOT NULL,
  description TEXT,
  context TEXT,
  contract TEXT,
  status TEXT NOT NULL CHECK (status IN ('TODO', 'ACTIVE', 'PARKED', 'DONE', 'CANCELED')),
  priority TEXT NOT NULL CHECK (priority IN ('LOW', 'MEDIUM', 'HIGH')),
  tags_json TEXT NOT NULL,
  parked_until_ms INTEGER,
  revision INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  CHECK ((kind = 'plan') = (plan_id IS NULL))
) STRICT;
-- Lists run in id order, numerically: TASK-999 before TASK-1000, i.e. by (length(id), id).
CREATE INDEX tasks_by_plan ON tasks (plan_id, length(id), id) WHERE plan_id IS NOT NULL;
CREATE INDEX tasks_by_kind ON tasks (kind, length(id), id);
-- tasks_macro_start finds a plan by its title (e.g. "Inbox").
CREATE INDEX tasks_by_title ON tasks (kind, title);

-- Steps form a tree per task. `path` (`s:0.s:1`) is made of ordinals that are never reused, so a path
-- names the same step for the task's whole life.
CREATE TABLE steps (
  id TEXT PRIMARY KEY,
  task_id TEXT NOT NULL REFERENCES tasks (id),
  parent_step_id TEXT REFERENCES steps (id),
  ordinal INTEGER NOT NULL,
  path TEXT NOT NULL,
  title TEXT NOT NULL,
  next_action TEXT,
  stop_criteria TEXT,
  success_criteria_json TEXT NOT NULL,
  tests_json TEXT NOT NULL,
  blockers_json TEXT NOT NULL,
  completed INTEGER NOT NULL CHECK (completed IN (0, 1)),
  completed_at_ms INTEGER,
  blocked INTEGER NOT NULL CHECK (blocked IN (0, 1)),
  block_reason TEXT,
  criteria_confirmed INTEGER NOT NULL CHECK (criteria_confirmed IN (0, 1)),
  tests_confirmed INTEGER NOT NULL CHECK (tests_confirmed IN (0, 1)),
  security_confirmed INTEGER NOT NULL CHECK (security_confirmed IN (0, 1)),
  perf_confirmed INTEGER NOT NULL CHECK (perf_confirmed IN (0, 1)),
  docs_confirmed INTEGER NOT NULL CHECK (docs_confirmed IN (0, 1)),
  proof_tests_mode TEXT NOT NULL CHECK (proof_tests_mode IN ('off', 'warn', 'require')),
  proof_security_mode TEXT NOT NULL CHECK (proof_security_mode IN ('off', 'warn', 'require')),
  proof_perf_mode TEXT NOT NULL CHECK (proof_perf_mode IN ('off', 'warn', 'require')),
  proof_docs_mode TEXT NOT NULL CHECK (proof_docs_mode IN ('off', 'warn', 'require')),
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX steps_by_path ON steps (task_id, path);

-- The next ordinal under each parent (`''` for a task's top level): kept after deletes, so a deleted
-- step's path is never given to another step.
CREATE TABLE step_ordinals (
  task_id TEXT NOT NULL REFERENCES tasks (id),
  parent_step_id TEXT NOT NULL,
  next_ordinal INTEGER NOT NULL,
  PRIMARY KEY (task_id, parent_step_id)
) STRICT, WITHOUT ROWID;

-- Proof attached to a checkpoint of a task or step: check lines (`CMD:` / `LINK:` receipts, or plain
-- notes) and artifacts (command output, diff, URL). A step's checkpoint with proof becomes required.
CREATE TABLE task_proofs (
  id INTEGER PRIMARY KEY,
  task_id TEXT NOT NULL REFERENCES tasks (id),
  step_id TEXT REFERENCES steps (id),
  checkpoint TEXT NOT NULL CHECK (checkpoint IN ('criteria', 'tests', 'security', 'perf', 'docs')),
  kind TEXT NOT NULL CHECK (kind IN ('check', 'artifact')),
  receipt TEXT CHECK (receipt IN ('CMD', 'LINK')),
  body_json TEXT NOT NULL,
  event_id TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX task_proofs_by_step ON task_proofs (task_id, step_id, checkpoint);

-- Each agent's focus: the plan or task its target-less calls act on.
CREATE TABLE focus (
  agent_id TEXT PRIMARY KEY,
  target_id TEXT NOT NULL REFERENCES tasks (id),
  set_at_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- Task events are journal rows with a type, the task they concern, the step path and a payload.
ALTER TABLE journal ADD COLUMN type TEXT;
ALTER TABLE journal ADD COLUMN task_id TEXT;
ALTER TABLE journal ADD COLUMN path TEXT;
ALTER TABLE journal ADD COLUMN payload_json TEXT;
CREATE INDEX journal_by_task ON journal (task_id, tick) WHERE task_id IS NOT NULL;
-- tasks_delta walks task events only, however many other journal rows lie between them.
CREATE INDEX journal_task_events ON journal (tick) WHERE type IS NOT NULL;
