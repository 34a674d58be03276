/**
 * Storage of delegation jobs (migration 0009): ids from the `job` clock, job rows, their per-job
 * numbered events, and the bounded reads of the list, the radar and `open`. Every function runs inside
 * the caller's transaction; nothing here journals (job-changes.ts does).
 */
import { fail } from "../../shared/errors";
import { codePoints, decodePrefix, nulFreeCharsSql, prefixSql } from "../../shared/stored-text";
import { suggest } from "../../shared/suggestion";
import { advance, read } from "../../storage/clocks";
import type { Db } from "../../storage/db";
import { JOB_STATUSES, type JobEvent, type JobEventType, type JobPriority, type JobStatus, MAX_COUNTED_JOBS } from "./jobs.schema";

export interface JobRow {
  id: string;
  title: string;
  prompt: string;
  prompt_chars: number;
  task_id: string | null;
  step_id: string | null;
  priority: JobPriority;
  meta_json: string | null;
  status: JobStatus;
  revision: number;
  queued_tick: number;
  attempts: number;
  holder: string | null;
  claim_revision: number | null;
  claimed_tick: number | null;
  expires_tick: number | null;
  ttl_ticks: number | null;
  percent: number | null;
  progress_message: string | null;
  artifact_ref: string | null;
  summary: string | null;
  reason: string | null;
  last_event_seq: number;
  created_by: string;
  created_at_ms: number;
  updated_at_ms: number;
}

interface EventRow {
  job_id: string;
  seq: number;
  tick: number;
  ts_ms: number;
  agent_id: string;
  type: JobEventType;
  message: string | null;
  /** Unread: a cut message says so itself (see `toEvent`). */
  message_chars?: number | null;
  payload_json: string;
}

type SqlRow<T> = T & Record<string, string | number | null>;

/**
 * Columns of a job row. `text` cuts the prompt to that many characters (reads load no more than they
 * show) as UTF-8 bytes, and counts it in SQL unless it holds a NUL (a text `substr` or `length` stops
 * at one); `withPrompt` decodes the cut and completes the count.
 */
function jobColumns(text: number | undefined): string {
  const prompt =
    text === undefined
      ? "prompt, NULL AS prompt_chars"
      : `${prefixSql("prompt", text)} AS prompt, ${nulFreeCharsSql("prompt")} AS prompt_chars`;
  return `id, title, ${prompt}, task_id, step_id, priority, meta_json, status, revision, queued_tick, attempts, holder, claim_revision, claimed_tick, expires_tick, ttl_ticks, percent, progress_message, artifact_ref, summary, reason, last_event_seq, created_by, created_at_ms, updated_at_ms`;
}

/**
 * A job row read with `jobColumns(text)`: its prompt decoded and its length in code points. A cut
 * prompt that holds a NUL is counted from the whole prompt, read again (at most MAX_JOB_TEXT_CHARS).
 */
function withPrompt(db: Db, read: ReadJobRow | undefined, text: number | undefined): JobRow | undefined {
  if (read === undefined) return undefined;
  if (text === undefined) return { ...read, prompt_chars: codePoints(read.prompt) };
  const prompt = decodePrefix(read.prompt, text)?.text ?? "";
  if (read.prompt_chars !== null) return { ...read, prompt, prompt_chars: read.prompt_chars };
  const whole = db.one<{ prompt: string }>("SELECT prompt FROM jobs WHERE id = ?", read.id)?.prompt ?? prompt;
  return { ...read, prompt, prompt_chars: codePoints(whole) };
}

/** A job row as `jobColumns` reads it: the prompt maybe cut (a BLOB) and maybe not counted. */
type ReadJobRow = SqlRow<Omit<JobRow, "prompt_chars"> & { prompt_chars: number | null }>;

/** List columns: no prompt (so no length: an item's prompt is empty), no long texts. */
const ITEM_COLUMNS =
  "id, title, '' AS prompt, 0 AS prompt_chars, task_id, step_id, priority, NULL AS meta_json, status, revision, queued_tick, attempts, holder, claim_revision, claimed_tick, expires_tick, ttl_ticks, percent, NULL AS progress_message, NULL AS artifact_ref, NULL AS summary, NULL AS reason, last_event_seq, created_by, created_at_ms, updated_at_ms";

/** Event columns; `text` cuts the message like `jobColumns` cuts the prompt (decoded, and said cut, by `toEvent`). */
function eventColumns(text: number | undefined): string {
  const message = text === undefined ? "message" : `${prefixSql("message", text)} AS message`;
  return `job_id, seq, tick, ts_ms, agent_id, type, ${message}, payload_json`;
}

/** The workspace tick now: claims are live while it is below their `expires_tick`. */
export function currentTick(db: Db): number {
  return read(db, "tick");
}

/**
 * The tick of the journal row the current write will get. A job write journals exactly one note and
 * emits no task event, so the executor appends exactly one summary row after the handler: the next tick.
 */
export function operationTick(db: Db): number {
  return currentTick(db) + 1;
}

/** Next job id from the `job` clock (migration 0009): JOB-001, zero-padded to 3 digits, wider past 999. */
export function nextJobId(db: Db): string {
  return `JOB-${String(advance(db, "job")).padStart(3, "0")}`;
}

export function findJob(db: Db, id: string, text?: number): JobRow | undefined {
  return withPrompt(db, db.one<ReadJobRow>(`SELECT ${jobColumns(text)} FROM jobs WHERE id = ?`, id), text);
}

export function requireJob(db: Db, id: string, text?: number): JobRow {
  const row = findJob(db, id, text);
  if (!row) {
    fail("UNKNOWN_ID", `No job ${id} in this workspace.`, "Call `jobs_list` to see the jobs.", { id, kind: "job" }, [
      suggest("jobs_list", {}, "List the jobs of this workspace."),
    ]);
  }
  return row;
}

export function insertJob(db: Db, row: JobRow): void {
  db.run(
    `INSERT INTO jobs (id, title, prompt, task_id, step_id, priority, meta_json, status, revision, queued_tick, attempts, holder, claim_revision, claimed_tick, expires_tick, ttl_ticks, percent, progress_message, artifact_ref, summary, reason, last_event_seq, created_by, created_at_ms, updated_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.id,
    row.title,
    row.prompt,
    row.task_id,
    row.step_id,
    row.priority,
    row.meta_json,
    row.status,
    row.revision,
    row.queued_tick,
    row.attempts,
    row.holder,
    row.claim_revision,
    row.claimed_tick,
    row.expires_tick,
    row.ttl_ticks,
    row.percent,
    row.progress_message,
    row.artifact_ref,
    row.summary,
    row.reason,
    row.last_event_seq,
    row.created_by,
    row.created_at_ms,
    row.updated_at_ms,
  );
}

/** Writes the mutable columns of a job (title, prompt, refs, meta and creation never change). */
export function saveJob(db: Db, row: JobRow): void {
  db.run(
    `UPDATE jobs SET status = ?, revision = ?, queued_tick = ?, attempts = ?, holder = ?, claim_revision = ?, claimed_tick = ?,
       expires_tick = ?, ttl_ticks = ?, percent = ?, progress_message = ?, artifact_ref = ?, summary = ?, reason = ?,
       last_event_seq = ?, updated_at_ms = ? WHERE id = ?`,
    row.status,
    row.revision,
    row.queued_tick,
    row.attempts,
    row.holder,
    row.claim_revision,
    row.claimed_tick,
    row.expires_tick,
    row.ttl_ticks,
    row.percent,
    row.progress_message,
    row.artifact_ref,
    row.summary,
    row.reason,
    row.last_event_seq,
    row.updated_at_ms,
    row.id,
  );
}

export interface NewJobEvent {
  job_id: string;
  seq: number;
  tick: number;
  ts_ms: number;
  agent_id: string;
  type: JobEventType;
  message: string | null;
  payload: Record<string, unknown>;
}

export function insertEvent(db: Db, event: NewJobEvent): void {
  db.run(
    "INSERT INTO job_events (job_id, seq, tick, ts_ms, agent_id, type, message, payload_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    event.job_id,
    event.seq,
    event.tick,
    event.ts_ms,
    event.agent_id,
    event.type,
    event.message,
    JSON.stringify(event.payload),
  );
}

/**
 * The oldest queued job: the one that entered QUEUED first (creation or requeue), by id on a tie.
 * `whole` loads every column (a claim answers with the prompt); otherwise the list columns only.
 */
export function oldestQueued(db: Db, whole: boolean): JobRow | undefined {
  const sql = `FROM jobs INDEXED BY jobs_queue WHERE status = 'QUEUED' ORDER BY queued_tick, length(id), id LIMIT 1`;
  if (!whole) return db.one<SqlRow<JobRow>>(`SELECT ${ITEM_COLUMNS} ${sql}`);
  return withPrompt(db, db.one<ReadJobRow>(`SELECT ${jobColumns(undefined)} ${sql}`), undefined);
}

/**
 * Who a job is for: its `meta.for_agent` (the hand_off prompt sets it; docs/jobs.md "Addressed jobs").
 * The same expression as the index of migration 0020, so a seek uses it; malformed meta counts as none.
 */
const ADDRESSEE_SQL = "(CASE WHEN json_valid(meta_json) THEN json_extract(meta_json, '$.for_agent') END)";

/** A queued job for the capsule, with the agent its meta addresses it to (null: none, or not a name). */
export interface QueuedFor {
  job: JobRow;
  addressee: string | null;
}

/**
 * The queued job to offer `agent`: the oldest addressed to it, else the oldest of all (which may be
 * addressed to another agent). List columns; each a seek on a queue index.
 */
export function queuedFor(db: Db, agent: string): QueuedFor | undefined {
  const order = "ORDER BY queued_tick, length(id), id LIMIT 1";
  const mine = db.one<SqlRow<JobRow>>(
    `SELECT ${ITEM_COLUMNS} FROM jobs INDEXED BY jobs_queue_by_addressee WHERE status = 'QUEUED' AND ${ADDRESSEE_SQL} = ? ${order}`,
    agent,
  );
  if (mine) return { job: mine, addressee: agent };
  const oldest = db.one<SqlRow<JobRow & { addressee: unknown }>>(
    `SELECT ${ITEM_COLUMNS}, ${ADDRESSEE_SQL} AS addressee FROM jobs INDEXED BY jobs_queue WHERE status = 'QUEUED' ${order}`,
  );
  if (!oldest) return undefined;
  const { addressee, ...job } = oldest;
  return { job: job as JobRow, addressee: typeof addressee === "string" ? addressee : null };
}

export interface JobFilter {
  status?: JobStatus | undefined;
  task?: string | undefined;
  /** Exclusive cursor: the last id of the previous page. */
  after?: string | undefined;
}

/** Jobs in numeric id order after `after`, at most `limit + 1` (the extra row says more remain). */
export function listJobs(db: Db, filter: JobFilter, limit: number): JobRow[] {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (filter.status !== undefined) {
    parts.push("status = ?");
    params.push(filter.status);
  }
  if (filter.task !== undefined) {
    parts.push("task_id = ?");
    params.push(filter.task);
  }
  if (filter.after !== undefined) {
    parts.push("(length(id), id) > (?, ?)");
    params.push(filter.after.length, filter.after);
  }
  const where = parts.length === 0 ? "" : `WHERE ${parts.join(" AND ")}`;
  return db.all<SqlRow<JobRow>>(
    `SELECT ${ITEM_COLUMNS} FROM jobs ${where} ORDER BY length(id), id LIMIT ${Math.trunc(limit) + 1}`,
    ...params,
  );
}

/** Jobs per status, each counted up to MAX_COUNTED_JOBS (`capped` says a count stopped there). */
export function countByStatus(db: Db): { counts: Record<JobStatus, number>; capped: boolean } {
  const counts = {} as Record<JobStatus, number>;
  let capped = false;
  for (const status of JOB_STATUSES) {
    const n =
      db.one<{ n: number }>(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM jobs INDEXED BY jobs_by_status WHERE status = ? LIMIT ${MAX_COUNTED_JOBS + 1})`,
        status,
      )?.n ?? 0;
    if (n > MAX_COUNTED_JOBS) capped = true;
    counts[status] = Math.min(n, MAX_COUNTED_JOBS);
  }
  return { counts, capped };
}

/**
 * RUNNING jobs whose claim is live (`expires_tick > now`, soonest expiry first) or stale
 * (`expires_tick <= now`, longest expired first), at most `limit + 1`.
 */
export function runningJobs(db: Db, now: number, which: "live" | "stale", limit: number): JobRow[] {
  const condition = which === "live" ? "expires_tick > ?" : "expires_tick <= ?";
  return db.all<SqlRow<JobRow>>(
    `SELECT ${ITEM_COLUMNS} FROM jobs INDEXED BY jobs_running WHERE status = 'RUNNING' AND ${condition}
     ORDER BY expires_tick, length(id), id LIMIT ${Math.trunc(limit) + 1}`,
    now,
  );
}

/** The newest `limit + 1` events of a job below `before` (exclusive), newest first. */
export function eventsOf(db: Db, jobId: string, before: number | undefined, limit: number, text: number | undefined): JobEvent[] {
  const rows = db.all<SqlRow<EventRow>>(
    `SELECT ${eventColumns(text)} FROM job_events WHERE job_id = ?${before === undefined ? "" : " AND seq < ?"}
     ORDER BY seq DESC LIMIT ${Math.trunc(limit) + 1}`,
    jobId,
    ...(before === undefined ? [] : [before]),
  );
  return rows.map((row) => toEvent(row, text));
}

export function findEvent(db: Db, jobId: string, seq: number, text: number | undefined): JobEvent | undefined {
  const row = db.one<SqlRow<EventRow>>(`SELECT ${eventColumns(text)} FROM job_events WHERE job_id = ? AND seq = ?`, jobId, seq);
  return row ? toEvent(row, text) : undefined;
}

export function toEvent(row: EventRow, text?: number): JobEvent {
  const event: JobEvent = {
    ref: `${row.job_id}@${row.seq}`,
    job: row.job_id,
    seq: row.seq,
    tick: row.tick,
    ts_ms: row.ts_ms,
    agent_id: row.agent_id,
    type: row.type,
    payload: JSON.parse(row.payload_json) as Record<string, unknown>,
  };
  const message = text === undefined || row.message === null ? null : decodePrefix(row.message, text);
  if (message !== null) {
    event.message = message.text;
    if (message.cut) event.message_truncated = true;
  } else if (row.message !== null) {
    event.message = row.message;
  }
  return event;
}
