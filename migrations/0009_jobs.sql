-- 0009_jobs: delegation jobs between agents and their events (docs/jobs.md, docs/storage.md "Jobs").

-- Id counter: JOB-001 (3-digit minimum, wider past 999).
INSERT INTO clocks (name, value) VALUES ('job', 0);

-- One row per job, updated in place; its history is `job_events`. `revision` starts at 0 and grows by
-- one per change. While RUNNING, the claim columns say who holds the job and until which workspace tick
-- (never wall time). `task_id` and `step_id` are plain ids, not foreign keys: deleting a task keeps the
-- jobs that named it.
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  prompt TEXT NOT NULL,
  task_id TEXT,
  step_id TEXT,
  priority TEXT NOT NULL CHECK (priority IN ('LOW', 'MEDIUM', 'HIGH')),
  meta_json TEXT,
  status TEXT NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELED')),
  revision INTEGER NOT NULL,
  queued_tick INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  holder TEXT,
  claim_revision INTEGER,
  claimed_tick INTEGER,
  expires_tick INTEGER,
  ttl_ticks INTEGER,
  percent INTEGER CHECK (percent BETWEEN 0 AND 100),
  progress_message TEXT,
  artifact_ref TEXT,
  summary TEXT,
  reason TEXT,
  last_event_seq INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  CHECK (status <> 'RUNNING' OR (holder IS NOT NULL AND claim_revision IS NOT NULL AND claimed_tick IS NOT NULL
    AND expires_tick IS NOT NULL AND ttl_ticks IS NOT NULL))
) STRICT;
-- Lists run in numeric id order (JOB-999 before JOB-1000), i.e. by (length(id), id).
CREATE INDEX jobs_by_order ON jobs (length(id), id);
-- jobs_list with a status, and the radar's per-status counts.
CREATE INDEX jobs_by_status ON jobs (status, length(id), id);
-- jobs_list with a task.
CREATE INDEX jobs_by_task ON jobs (task_id, length(id), id) WHERE task_id IS NOT NULL;
-- The queue: jobs_claim without a job takes the job queued longest ago; the radar shows it.
CREATE INDEX jobs_queue ON jobs (queued_tick) WHERE status = 'QUEUED';
-- The radar's running jobs (live claims) and stale ones (expired claims), by expiry.
CREATE INDEX jobs_running ON jobs (expires_tick) WHERE status = 'RUNNING';

-- One row per change of a job, numbered per job from 1 (`JOB-001@3` is JOB-001's third event). `tick`
-- is the workspace tick of the operation that wrote it (its journal row).
CREATE TABLE job_events (
  job_id TEXT NOT NULL REFERENCES jobs (id),
  seq INTEGER NOT NULL,
  tick INTEGER NOT NULL,
  ts_ms INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('job_created', 'job_claimed', 'job_progress', 'job_completed', 'job_failed', 'job_canceled', 'job_requeued')),
  message TEXT,
  payload_json TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)
) STRICT;
