-- 0021_task_dependencies: work that waits on other work, tasks a team member has taken, and the ready
-- queue over both (docs/tasks.md "Dependencies, taking a task and the ready queue").

-- A task waits for each of its blockers (a task of any plan of the workspace) until the blocker is DONE
-- or CANCELED. The blocker side is indexed: finishing a task finds the tasks waiting on it with one seek.
CREATE TABLE task_dependencies (
  task_id TEXT NOT NULL REFERENCES tasks (id),
  blocker_id TEXT NOT NULL REFERENCES tasks (id),
  added_tick INTEGER NOT NULL,
  PRIMARY KEY (task_id, blocker_id),
  CHECK (task_id <> blocker_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX task_dependencies_by_blocker ON task_dependencies (blocker_id, task_id);

-- A task someone has taken (`tasks_take`): one holder for the whole task until it is done, released or
-- the claim expires on the tick clock. Live while the workspace tick is below `expires_tick`; the
-- trigger below removes a claim in the write that moves the tick to its expiry, so a claim row that
-- exists is live.
CREATE TABLE task_claims (
  task_id TEXT PRIMARY KEY REFERENCES tasks (id),
  holder TEXT NOT NULL,
  acquired_tick INTEGER NOT NULL,
  expires_tick INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX task_claims_by_expiry ON task_claims (expires_tick);
CREATE INDEX task_claims_by_holder ON task_claims (holder, expires_tick);

CREATE TRIGGER task_claims_expire AFTER UPDATE OF value ON clocks WHEN NEW.name = 'tick'
BEGIN
  DELETE FROM task_claims WHERE expires_tick <= NEW.value;
END;

-- What makes a task ready, kept per task by the triggers below from the rows above and `tasks` and
-- `steps` (derived: never exported; a restore rebuilds it as the rows arrive). A task is ready when it
-- is workable (TODO or ACTIVE), waits on no unfinished blocker, has no step marked blocked, and nobody
-- holds it; `rank` orders by priority (HIGH first), then `(id_len, task_id)` by id.
CREATE TABLE task_readiness (
  task_id TEXT PRIMARY KEY,
  plan_id TEXT NOT NULL,
  rank INTEGER NOT NULL,
  id_len INTEGER NOT NULL,
  workable INTEGER NOT NULL,
  open_blockers INTEGER NOT NULL,
  blocked_steps INTEGER NOT NULL,
  holder TEXT
) STRICT, WITHOUT ROWID;
-- Ready and held by nobody: a page of the ready queue is one range of one of these.
CREATE INDEX task_readiness_free ON task_readiness (rank, id_len, task_id)
  WHERE workable = 1 AND open_blockers = 0 AND blocked_steps = 0 AND holder IS NULL;
CREATE INDEX task_readiness_free_by_plan ON task_readiness (plan_id, rank, id_len, task_id)
  WHERE workable = 1 AND open_blockers = 0 AND blocked_steps = 0 AND holder IS NULL;
-- Ready and held: the caller's own claims still count as ready for the caller.
CREATE INDEX task_readiness_held ON task_readiness (holder, rank, id_len, task_id)
  WHERE workable = 1 AND open_blockers = 0 AND blocked_steps = 0 AND holder IS NOT NULL;
-- Waiting on a blocker: what the HUD says when nothing is ready.
CREATE INDEX task_readiness_waiting ON task_readiness (rank, id_len, task_id) WHERE workable = 1 AND open_blockers > 0;

CREATE TRIGGER task_readiness_insert AFTER INSERT ON tasks WHEN NEW.kind = 'task'
BEGIN
  INSERT INTO task_readiness (task_id, plan_id, rank, id_len, workable, open_blockers, blocked_steps, holder)
  VALUES (
    NEW.id,
    NEW.plan_id,
    CASE NEW.priority WHEN 'HIGH' THEN 0 WHEN 'MEDIUM' THEN 1 ELSE 2 END,
    length(NEW.id),
    NEW.status IN ('TODO', 'ACTIVE'),
    (SELECT COUNT(*) FROM task_dependencies d JOIN tasks b ON b.id = d.blocker_id
      WHERE d.task_id = NEW.id AND b.status NOT IN ('DONE', 'CANCELED')),
    (SELECT COUNT(*) FROM steps WHERE task_id = NEW.id AND blocked = 1 AND completed = 0),
    (SELECT holder FROM task_claims WHERE task_id = NEW.id)
  );
END;

CREATE TRIGGER task_readiness_update AFTER UPDATE OF status, priority, plan_id ON tasks WHEN NEW.kind = 'task'
BEGIN
  UPDATE task_readiness
  SET plan_id = NEW.plan_id,
      rank = CASE NEW.priority WHEN 'HIGH' THEN 0 WHEN 'MEDIUM' THEN 1 ELSE 2 END,
      workable = NEW.status IN ('TODO', 'ACTIVE')
  WHERE task_id = NEW.id;
END;

-- A blocker finishing (DONE or CANCELED) or coming back releases or holds every task waiting on it.
CREATE TRIGGER task_readiness_blocker_status AFTER UPDATE OF status ON tasks
  WHEN (OLD.status IN ('DONE', 'CANCELED')) <> (NEW.status IN ('DONE', 'CANCELED'))
BEGIN
  UPDATE task_readiness
  SET open_blockers = open_blockers + CASE WHEN NEW.status IN ('DONE', 'CANCELED') THEN -1 ELSE 1 END
  WHERE task_id IN (SELECT task_id FROM task_dependencies WHERE blocker_id = NEW.id);
END;

CREATE TRIGGER task_readiness_delete AFTER DELETE ON tasks
BEGIN
  DELETE FROM task_readiness WHERE task_id = OLD.id;
END;

CREATE TRIGGER task_readiness_dependency_added AFTER INSERT ON task_dependencies
  WHEN (SELECT status FROM tasks WHERE id = NEW.blocker_id) NOT IN ('DONE', 'CANCELED')
BEGIN
  UPDATE task_readiness SET open_blockers = open_blockers + 1 WHERE task_id = NEW.task_id;
END;

CREATE TRIGGER task_readiness_dependency_removed AFTER DELETE ON task_dependencies
  WHEN (SELECT status FROM tasks WHERE id = OLD.blocker_id) NOT IN ('DONE', 'CANCELED')
BEGIN
  UPDATE task_readiness SET open_blockers = open_blockers - 1 WHERE task_id = OLD.task_id;
END;

CREATE TRIGGER task_readiness_step_added AFTER INSERT ON steps WHEN NEW.blocked = 1 AND NEW.completed = 0
BEGIN
  UPDATE task_readiness SET blocked_steps = blocked_steps + 1 WHERE task_id = NEW.task_id;
END;

CREATE TRIGGER task_readiness_step_removed AFTER DELETE ON steps WHEN OLD.blocked = 1 AND OLD.completed = 0
BEGIN
  UPDATE task_readiness SET blocked_steps = blocked_steps - 1 WHERE task_id = OLD.task_id;
END;

CREATE TRIGGER task_readiness_step_changed AFTER UPDATE OF blocked, completed ON steps
  WHEN (OLD.blocked = 1 AND OLD.completed = 0) <> (NEW.blocked = 1 AND NEW.completed = 0)
BEGIN
  UPDATE task_readiness
  SET blocked_steps = blocked_steps + CASE WHEN NEW.blocked = 1 AND NEW.completed = 0 THEN 1 ELSE -1 END
  WHERE task_id = NEW.task_id;
END;

CREATE TRIGGER task_readiness_claimed AFTER INSERT ON task_claims
BEGIN
  UPDATE task_readiness SET holder = NEW.holder WHERE task_id = NEW.task_id;
END;

CREATE TRIGGER task_readiness_claim_moved AFTER UPDATE OF holder ON task_claims
BEGIN
  UPDATE task_readiness SET holder = NEW.holder WHERE task_id = NEW.task_id;
END;

CREATE TRIGGER task_readiness_released AFTER DELETE ON task_claims
BEGIN
  UPDATE task_readiness SET holder = NULL WHERE task_id = OLD.task_id;
END;

-- The tasks that exist already: no dependencies or claims yet, so only their status and blocked steps.
INSERT INTO task_readiness (task_id, plan_id, rank, id_len, workable, open_blockers, blocked_steps, holder)
SELECT
  t.id,
  t.plan_id,
  CASE t.priority WHEN 'HIGH' THEN 0 WHEN 'MEDIUM' THEN 1 ELSE 2 END,
  length(t.id),
  t.status IN ('TODO', 'ACTIVE'),
  0,
  (SELECT COUNT(*) FROM steps s WHERE s.task_id = t.id AND s.blocked = 1 AND s.completed = 0),
  NULL
FROM tasks t
WHERE t.kind = 'task';
