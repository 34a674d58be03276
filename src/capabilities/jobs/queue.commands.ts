/**
 * Managing the queue: `jobs.cancel` (QUEUED, RUNNING or FAILED → CANCELED, by any writer: the worker's
 * next report then fails INVALID_TRANSITION) and `jobs.requeue` (FAILED, CANCELED, or RUNNING with an
 * expired claim or the caller's own → QUEUED, at the back of the queue). Both clear the claim and take
 * an optional `expected_revision`.
 */
import { defineCommand } from "../../commands/registry";
import { changeJob, NO_CLAIM, quote } from "./job-changes";
import { expectedRevisionSchema, jobAliases, jobIdSchema, jobLineSchema, jobWriteOutput } from "./jobs.schema";
import { currentTick, type JobRow, requireJob, toJob } from "./jobs.store";
import { checkRevision, claimHeld, claimLive, requireTransition } from "./lifecycle";

const queueInput = {
  job: jobIdSchema,
  reason: jobLineSchema.optional(),
  expected_revision: expectedRevisionSchema,
};

/** What the event records of the state a cancel or requeue left. */
function origin(row: JobRow, reason: string | undefined): Record<string, unknown> {
  return {
    from: row.status,
    ...(row.status === "RUNNING" ? { previous_holder: row.holder } : {}),
    ...(reason === undefined ? {} : { reason }),
  };
}

export const jobsCancel = defineCommand({
  name: "jobs.cancel",
  tool: "jobs_cancel",
  aliases: jobAliases("cancel"),
  title: "Cancel a job",
  description:
    "Cancel a QUEUED, RUNNING or FAILED job (CANCELED; its claim is dropped, so the worker's next report fails). DONE and CANCELED jobs are refused (INVALID_TRANSITION). jobs_requeue brings it back.",
  kind: "write",
  example: { job: "JOB-001", reason: "No longer needed" },
  input: queueInput,
  output: jobWriteOutput,
  handler: (ctx, args) => {
    const row = requireJob(ctx.db, args.job);
    requireTransition(row, "cancel");
    checkRevision(row, args.expected_revision);
    const applied = changeJob(ctx, row, () => ({ ...NO_CLAIM, status: "CANCELED", reason: args.reason ?? null }), {
      type: "job_canceled",
      message: args.reason,
      payload: origin(row, args.reason),
      summary: `canceled${args.reason === undefined ? "" : `: ${quote(args.reason)}`}`,
    });
    return { job: toJob(applied.row, applied.tick, { prompt: false }), event: applied.event, now_tick: applied.tick };
  },
});

export const jobsRequeue = defineCommand({
  name: "jobs.requeue",
  tool: "jobs_requeue",
  aliases: jobAliases("requeue"),
  title: "Requeue a job",
  description:
    "Put a job back in the queue (QUEUED, at its back): a FAILED or CANCELED job, a RUNNING one whose claim expired, or your own claim handed back. Another agent's live claim is JOB_CLAIM_HELD. Clears the claim, progress and outcome.",
  kind: "write",
  example: { job: "JOB-001", reason: "Retry after the fix" },
  input: queueInput,
  output: jobWriteOutput,
  handler: (ctx, args) => {
    const row = requireJob(ctx.db, args.job);
    requireTransition(row, "requeue");
    checkRevision(row, args.expected_revision);
    const now = currentTick(ctx.db);
    if (claimLive(row, now) && row.holder !== ctx.principal.agent_id) claimHeld(row, now);
    const applied = changeJob(
      ctx,
      row,
      (tick) => ({
        ...NO_CLAIM,
        status: "QUEUED",
        queued_tick: tick,
        percent: null,
        progress_message: null,
        artifact_ref: null,
        summary: null,
        reason: null,
      }),
      {
        type: "job_requeued",
        message: args.reason,
        payload: origin(row, args.reason),
        summary: `requeued${args.reason === undefined ? "" : `: ${quote(args.reason)}`}`,
      },
    );
    return { job: toJob(applied.row, applied.tick, { prompt: false }), event: applied.event, now_tick: applied.tick };
  },
});
