-- 0020_jobs_queue_by_addressee: the queued jobs addressed to one agent, oldest first (docs/jobs.md
-- "Addressed jobs"): a job's `meta.for_agent` names who it is for (the hand_off prompt sets it), and the
-- portal capsule offers an agent the job addressed to it before older ones, with one seek however many
-- jobs are queued. Malformed meta (only a crafted restore could hold it) counts as unaddressed.
CREATE INDEX jobs_queue_by_addressee
  ON jobs ((CASE WHEN json_valid(meta_json) THEN json_extract(meta_json, '$.for_agent') END), queued_tick)
  WHERE status = 'QUEUED';
