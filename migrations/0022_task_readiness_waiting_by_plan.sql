-- 0022_task_readiness_waiting_by_plan: the first waiting tasks of one plan (docs/tasks.md, the ready
-- queue): `tasks_ready {plan}` with nothing ready names what that plan's waiting tasks wait for, with one
-- index range however many tasks of other plans wait.
CREATE INDEX task_readiness_waiting_by_plan ON task_readiness (plan_id, rank, id_len, task_id) WHERE workable = 1 AND open_blockers > 0;
