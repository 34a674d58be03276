/**
 * How every job mutation lands: the row's new state (revision + 1, or 0 at creation), one job event
 * numbered per job (`JOB-001@<seq>`) carrying the tick of the operation, and one journal note, so the
 * workspace tick advances exactly once per job write. No-ops never come here.
 */
import type { CommandContext } from "../../commands/context";
import { clip } from "../../shared/text";
import type { JobEvent, JobEventType } from "./jobs.schema";
import { insertEvent, insertJob, type JobRow, operationTick, saveJob, toEvent } from "./jobs.store";

/** Journal summaries quote at most this much of a title or message. */
const SUMMARY_QUOTE_CHARS = 60;

export interface JobChange {
  type: JobEventType;
  /** The event's text: a progress message, a summary, a reason. */
  message?: string | undefined;
  payload: Record<string, unknown>;
  /** The journal row's summary (short). */
  summary: string;
}

export interface Applied {
  row: JobRow;
  event: JobEvent;
  tick: number;
}

export function quote(text: string): string {
  return clip(text, SUMMARY_QUOTE_CHARS);
}

function record(ctx: CommandContext, row: JobRow, tick: number, change: JobChange): JobEvent {
  const event = {
    job_id: row.id,
    seq: row.last_event_seq,
    tick,
    ts_ms: ctx.nowMs,
    agent_id: ctx.principal.agent_id,
    type: change.type,
    message: change.message ?? null,
    payload: change.payload,
  };
  insertEvent(ctx.db, event);
  ctx.journal({ target: row.id, summary: change.summary });
  return toEvent({ ...event, message_chars: event.message?.length ?? null, payload_json: JSON.stringify(event.payload) });
}

/** Stores a new job (revision 0) with its `job_created` event (seq 1). `build` gets the operation's tick. */
export function createJob(ctx: CommandContext, build: (tick: number) => JobRow, change: JobChange): Applied {
  const tick = operationTick(ctx.db);
  const row = { ...build(tick), revision: 0, last_event_seq: 1 };
  insertJob(ctx.db, row);
  return { row, event: record(ctx, row, tick, change), tick };
}

/**
 * Applies a change to a job: `update` gets the operation's tick and the new revision and returns the
 * columns that change; the revision grows by one and the job's next event is written.
 */
export function changeJob(
  ctx: CommandContext,
  before: JobRow,
  update: (tick: number, revision: number) => Partial<JobRow>,
  change: JobChange,
): Applied {
  const tick = operationTick(ctx.db);
  const revision = before.revision + 1;
  const row: JobRow = {
    ...before,
    ...update(tick, revision),
    revision,
    last_event_seq: before.last_event_seq + 1,
    updated_at_ms: ctx.nowMs,
  };
  saveJob(ctx.db, row);
  return { row, event: record(ctx, row, tick, change), tick };
}

/** The claim columns cleared (cancel, requeue). */
export const NO_CLAIM: Partial<JobRow> = {
  holder: null,
  claim_revision: null,
  claimed_tick: null,
  expires_tick: null,
  ttl_ticks: null,
};
