/**
 * The task board in one paragraph of words: what `visualize` answers a host that renders no app (and
 * what the app shows above its tables). It names the scope's plan and task, how many steps are done,
 * and the first open step with its lease (holder and expiry on the tick clock) and its missing proof.
 * Bounded: titles are cut, and the paragraph never grows with the number of tasks or steps.
 */
import type { CommandContext } from "../../commands/context";
import { firstOpenStep } from "../../place/targets";
import { type EntityRow, findEntity, orderedSteps } from "../../place/targets.store";
import { liveLease, nowTick } from "../tasks/leases.store";
import { missingCheckpoints, proofSummary } from "../tasks/proof";
import { countEntities, tasksOfPlan } from "../tasks/tasks.store";

/** Titles are cut to this in the paragraph: the app shows them whole. */
const MAX_TITLE_CHARS = 80;

function titled(entity: EntityRow): string {
  const title = entity.title.length > MAX_TITLE_CHARS ? `${entity.title.slice(0, MAX_TITLE_CHARS - 1)}…` : entity.title;
  return `${entity.id} "${title}" (${entity.status})`;
}

/** "1 of 3 steps done; next s:1 "Write tests": leased by bob until tick 42 (12 ticks left), missing proof: tests." */
function stepsSentence(ctx: CommandContext, task: EntityRow): string {
  const steps = orderedSteps(ctx.db, task.id);
  if (steps.length === 0) return "It has no steps.";
  const done = steps.filter((step) => step.completed === 1).length;
  const counted = `${done} of ${steps.length} steps done`;
  const open = firstOpenStep(ctx.db, task.id);
  if (open === undefined) return `${counted}.`;
  const now = nowTick(ctx.db);
  const lease = liveLease(ctx.db, open.id);
  const held =
    lease === undefined
      ? "no lease"
      : `leased by ${lease.holder} until tick ${lease.expires_tick} (${lease.expires_tick - now} ticks left)`;
  const missing = missingCheckpoints(open, proofSummary(ctx.db, open));
  const proof = missing.length === 0 ? "no proof missing" : `missing proof: ${missing.join(", ")}`;
  const blocked = open.blocked === 1 ? ", blocked" : "";
  return `${counted}; next ${open.path} "${open.title.slice(0, MAX_TITLE_CHARS)}"${blocked}: ${held}, ${proof}.`;
}

/** The paragraph for the scope: a task, a plan, or none. */
export function boardSummary(ctx: CommandContext, target: EntityRow | undefined): string {
  if (target === undefined) {
    const counts = countEntities(ctx.db);
    const more = counts.capped ? " or more" : "";
    return `No plan or task is in focus for ${ctx.principal.agent_id}. ${ctx.workspace} has ${counts.plans}${more} plans and ${counts.tasks}${more} tasks: pick one, or pass target.`;
  }
  if (target.kind === "plan") {
    const tasks = tasksOfPlan(ctx.db, target.id);
    const done = tasks.filter((task) => task.status === "DONE").length;
    return `Plan ${titled(target)}: ${tasks.length} tasks, ${done} done.`;
  }
  const plan = target.plan_id === null ? undefined : findEntity(ctx.db, target.plan_id);
  const within = plan === undefined ? "" : ` in plan ${titled(plan)}`;
  return `Task ${titled(target)}${within}. ${stepsSentence(ctx, target)}`;
}
