/**
 * Opening a job by ref: `JOB-001` (the job and the tail of its events, paged backwards) or
 * `JOB-001@<seq>` (one event). Shared by `jobs.open` and the `open` command. A read: texts are cut to
 * the caller's read budget in SQL, and the event page is bounded.
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import { type Pagination, tailPagination } from "../docs/paging";
import { toItem, toJob } from "./job-views";
import { JOB_REF, type Job, type JobEvent, type JobItem, MAX_JOB_EVENTS } from "./jobs.schema";
import { currentTick, eventsOf, findEvent, requireJob } from "./jobs.store";

export type JobRefView =
  | { kind: "job"; ref: string; job: Job; events: JobEvent[]; pagination: Pagination; now_tick: number }
  | { kind: "job_event"; ref: string; job: JobItem; event: JobEvent; now_tick: number };

/** `JOB-001` → `{id}`, `JOB-001@3` → `{id, eventSeq: 3}`; anything else → undefined. */
export function parseJobRef(ref: string): { id: string; eventSeq?: number } | undefined {
  const match = JOB_REF.exec(ref.trim());
  if (!match) return undefined;
  const id = match[1] as string;
  return match[2] === undefined ? { id } : { id, eventSeq: Number(match[2]) };
}

/**
 * The job `id` with its newest `limit` events below `cursor` (oldest first), or its event `eventSeq`.
 * Throws UNKNOWN_ID for an unknown job or event. `limit` is clamped to 1–MAX_JOB_EVENTS.
 */
export function openJobRef(
  ctx: CommandContext,
  id: string,
  eventSeq: number | undefined,
  options: { limit: number; cursor?: number | undefined },
): JobRefView {
  const text = ctx.readLimitChars;
  const row = requireJob(ctx.db, id, text);
  const now = currentTick(ctx.db);
  if (eventSeq !== undefined) {
    const event = findEvent(ctx.db, row.id, eventSeq, text);
    if (!event) {
      fail(
        "UNKNOWN_ID",
        `Job ${row.id} has no event ${eventSeq}: its events are numbered 1 to ${row.last_event_seq}.`,
        `Open ${row.id} to see its latest events and their refs.`,
        { id: `${row.id}@${eventSeq}`, kind: "job_event", last_event_seq: row.last_event_seq },
        [suggest("jobs_open", { job: row.id }, "See the job and its latest events.")],
      );
    }
    return { kind: "job_event", ref: event.ref, job: toItem(row, now), event, now_tick: now };
  }
  const limit = Math.min(Math.max(Math.trunc(options.limit), 1), MAX_JOB_EVENTS);
  const rows = eventsOf(ctx.db, row.id, options.cursor, limit, text);
  const events = rows.slice(0, limit).reverse();
  return {
    kind: "job",
    ref: row.id,
    job: toJob(row, now, { prompt: true, text }),
    events,
    pagination: tailPagination(
      events.map((event) => event.seq),
      rows.length > limit,
      options.cursor,
      limit,
    ),
    now_tick: now,
  };
}
