/**
 * What waits for the caller besides its focus, each as a `why` line and the call that takes it up:
 * an open graph conflict, its Record-Sync session, a step lease it holds, what the signal engine finds
 * in its checkout (stale or weak evidence, …), a queued job (one addressed to it first). The portal
 * capsule (capsule.ts) ranks them with the focus by the order docs/portals.md states ("What waits");
 * this module only finds them, each with bounded reads. Read-only.
 */
import type { CommandContext } from "../../commands/context";
import type { Branch } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { findStep } from "../../place/targets.store";
import { type Suggestion, suggest } from "../../shared/suggestion";
import { clip } from "../../shared/text";
import { firstOpenConflict } from "../graph/conflicts.store";
import { queuedFor } from "../jobs/jobs.store";
import { projectTick, sessionStatus } from "../records/session-select";
import { countActive, openSessionsOf } from "../records/sessions.store";
import { checkoutEngine } from "../think/engine.slice";
import { heldLease } from "./leases.store";

/** One thing that waits: why it matters (one short line) and the call that takes it up. */
export interface Wait {
  why: string;
  action: Suggestion;
}

/** Titles are cut in a capsule's `where` and `why` so the capsule stays small whatever the titles are. */
const MAX_TITLE_CHARS = 60;
export const short = (text: string) => clip(text, MAX_TITLE_CHARS);

/** The oldest open conflict merged into the checkout's `graph` doc: it leaves merged work undecided. */
export function openConflict(ctx: CommandContext, checkout: Branch): Wait | undefined {
  const conflict = firstOpenConflict(ctx.db, checkout.id, DEFAULT_DOCS.graph);
  if (!conflict) return undefined;
  return {
    why: `open graph conflict on ${conflict.key} (${conflict.conflict_id}) in ${checkout.name}: see it, then resolve it`,
    action: suggest(
      "graph.conflict.show",
      { conflict_id: conflict.conflict_id },
      `See the conflict on ${conflict.key}: base, theirs and ours`,
    ),
  };
}

/**
 * The caller's open Record-Sync session (its lowest-numbered): stale, it must sync before it reasons on
 * its active records; in sync, syncing shows them with nothing missed. `stale` says which.
 */
export function recordSession(ctx: CommandContext): (Wait & { stale: boolean }) | undefined {
  const session = openSessionsOf(ctx.db, ctx.principal.agent_id, 1)[0];
  if (!session) return undefined;
  const tick = projectTick(ctx);
  const stale = sessionStatus(session, tick) === "stale";
  const active = countActive(ctx.db, session.id);
  const args = { session_id: session.id };
  const records = `${active} active record${active === 1 ? "" : "s"}`;
  return stale
    ? {
        stale,
        why: `your Record-Sync session ${session.id} is stale: ${tick - session.last_sync_tick} writes since its last sync (${records})`,
        action: suggest("records.sync", args, `Sync ${session.id}: what other sessions changed`),
      }
    : {
        stale,
        why: `your Record-Sync session ${session.id} is open with ${records}`,
        action: suggest("records.sync", args, `Go on in ${session.id}: sync it, then reason on its records`),
      };
}

/** A live step lease the caller holds: the task it holds a step of is the work to take up. */
export function heldStep(ctx: CommandContext): { task: string; why: string } | undefined {
  const lease = heldLease(ctx.db, ctx.principal.agent_id);
  if (!lease) return undefined;
  const step = findStep(ctx.db, lease.task_id, { id: lease.step_id });
  const at = step ? `${step.path} of ${lease.task_id}` : `${lease.step_id} of ${lease.task_id}`;
  return { task: lease.task_id, why: `you hold the lease on ${at} until tick ${lease.expires_tick}` };
}

/** Signals read with the engine's best move, to find the one that explains it. */
const ENGINE_SIGNALS = 10;

/** The signal engine's best move over the checkout (stale or weak evidence, …). */
export function engineFinding(ctx: CommandContext): Wait | undefined {
  const engine = checkoutEngine(ctx, { signals: ENGINE_SIGNALS, actions: 1 });
  const action = engine?.actions[0];
  const call = action?.calls[0];
  if (!action || !call) return undefined;
  const signal = engine.signals.find((candidate) => candidate.refs.some((ref) => action.refs.some((mine) => mine.id === ref.id)));
  return { why: short(signal ? `${signal.code}: ${signal.message}` : action.title), action: call };
}

/** Addressees are agents' own text (a job's meta): cut like titles, quoted in the `why` line. */
const MAX_ADDRESSEE_CHARS = 40;

/**
 * A queued job: the oldest addressed to the caller (`meta.for_agent`, as the hand_off prompt queues
 * it), else the oldest of all, whoever it is for.
 */
export function queuedJob(ctx: CommandContext): Wait | undefined {
  const queued = queuedFor(ctx.db, ctx.principal.agent_id);
  if (!queued) return undefined;
  const { job, addressee } = queued;
  const mine = addressee === ctx.principal.agent_id;
  const whom = mine ? "you" : addressee === null ? "any agent" : JSON.stringify(clip(addressee, MAX_ADDRESSEE_CHARS));
  return {
    why: `${job.id} is queued for ${whom}: ${short(job.title)}`,
    action: suggest("jobs.claim", { job: job.id }, `Claim ${job.id}, queued for ${whom}`),
  };
}
