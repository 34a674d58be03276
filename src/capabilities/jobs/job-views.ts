/**
 * How a job shows in answers: the whole job (`toJob`, with its claim and whether it is live at the
 * workspace's tick) and the list item (`toItem`). The rows come from jobs.store.ts; what a job stores
 * changes there, what an agent reads of it changes here.
 */
import type { Job, JobItem } from "./jobs.schema";
import type { JobRow } from "./jobs.store";
import { claimLive } from "./lifecycle";

/** The job as commands show it; `prompt: false` leaves the prompt out (write answers other than claim). */
export function toJob(row: JobRow, now: number, options: { prompt: boolean; text?: number | undefined }): Job {
  const job: Job = {
    id: row.id,
    title: row.title,
    prompt_chars: row.prompt_chars,
    status: row.status,
    priority: row.priority,
    revision: row.revision,
    attempts: row.attempts,
    queued_tick: row.queued_tick,
    last_event_seq: row.last_event_seq,
    created_by: row.created_by,
    created_at_ms: row.created_at_ms,
    updated_at_ms: row.updated_at_ms,
  };
  if (options.prompt) {
    job.prompt = row.prompt;
    if (options.text !== undefined && row.prompt_chars > options.text) job.prompt_truncated = true;
  }
  if (row.task_id !== null) job.task = row.task_id;
  if (row.step_id !== null) job.step = row.step_id;
  if (row.meta_json !== null) job.meta = JSON.parse(row.meta_json) as Record<string, unknown>;
  if (
    row.holder !== null &&
    row.claim_revision !== null &&
    row.claimed_tick !== null &&
    row.expires_tick !== null &&
    row.ttl_ticks !== null
  ) {
    job.claim = {
      holder: row.holder,
      claim_revision: row.claim_revision,
      claimed_tick: row.claimed_tick,
      expires_tick: row.expires_tick,
      ttl_ticks: row.ttl_ticks,
      live: claimLive(row, now),
    };
  }
  if (row.percent !== null) job.percent = row.percent;
  if (row.progress_message !== null) job.progress_message = row.progress_message;
  if (row.artifact_ref !== null) job.artifact_ref = row.artifact_ref;
  if (row.summary !== null) job.summary = row.summary;
  if (row.reason !== null) job.reason = row.reason;
  return job;
}

export function toItem(row: JobRow, now: number): JobItem {
  const item: JobItem = {
    id: row.id,
    title: row.title,
    status: row.status,
    priority: row.priority,
    revision: row.revision,
    last_event_seq: row.last_event_seq,
    queued_tick: row.queued_tick,
    updated_at_ms: row.updated_at_ms,
  };
  if (row.task_id !== null) item.task = row.task_id;
  if (row.holder !== null && row.expires_tick !== null) {
    item.holder = row.holder;
    item.expires_tick = row.expires_tick;
    item.claim_live = claimLive(row, now);
  }
  if (row.percent !== null) item.percent = row.percent;
  return item;
}
