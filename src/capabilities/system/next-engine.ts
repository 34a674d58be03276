/**
 * The next-action engine of the `status` portal and `tasks.execute.next` (seed 002 NextEngine), and the
 * portal capsule it fills (seed 003 "capsule as HUD"): where the caller is (workspace, checkout, focus,
 * step focus with its lease, lane), why (at most MAX_WHY short lines), and next (1 best + 1 backup
 * action, written as portal calls so they can be pasted as they are). With a focus: open it, then
 * snapshot it; with none: create a plan, and as the backup claim the oldest queued job if there is one,
 * else list the tasks to pick one. Read-only and deterministic.
 */
import type { CommandContext } from "../../commands/context";
import { checkoutOf } from "../branches/branches.store";
import { type JobRow, oldestQueued } from "../jobs/jobs.store";
import { liveLease } from "../tasks/leases.store";
import { firstOpenStep } from "../tasks/targets";
import { type EntityRow, findEntity, focusOf } from "../tasks/tasks.store";

/** Lines of `why`: enough for the focus and its step, small enough for a 300-character capsule. */
const MAX_WHY = 2;
/** Titles are cut in `why` lines so the capsule stays small whatever the titles are. */
const MAX_TITLE_CHARS = 60;

export interface NextAction {
  tool: string;
  args: Record<string, unknown>;
  purpose: string;
}

export interface StepFocus {
  step_id: string;
  path: string;
  title: string;
  lease?: { holder: string; expires_tick: number };
}

export interface NextState {
  where: {
    workspace: string;
    branch: string;
    focus: string | null;
    step_focus: StepFocus | null;
    lane: string;
  };
  why: string[];
  next: { action: NextAction; backup: NextAction };
}

function short(text: string): string {
  return text.length <= MAX_TITLE_CHARS ? text : `${text.slice(0, MAX_TITLE_CHARS - 1)}…`;
}

function focusedEntity(ctx: CommandContext): EntityRow | undefined {
  const focus = focusOf(ctx.db, ctx.principal.agent_id);
  return focus === undefined ? undefined : findEntity(ctx.db, focus);
}

function stepFocusOf(ctx: CommandContext, entity: EntityRow): StepFocus | null {
  if (entity.kind !== "task") return null;
  const step = firstOpenStep(ctx.db, entity.id);
  if (step === undefined) return null;
  const lease = liveLease(ctx.db, step.id);
  return {
    step_id: step.id,
    path: step.path,
    title: short(step.title),
    ...(lease ? { lease: { holder: lease.holder, expires_tick: lease.expires_tick } } : {}),
  };
}

function whyOf(ctx: CommandContext, entity: EntityRow | undefined, step: StepFocus | null, queued: JobRow | undefined): string[] {
  if (entity === undefined) {
    return [
      "no focus: create a plan, or pick a task and set it as your focus",
      ...(queued ? [`${queued.id} is queued for any agent: ${short(queued.title)}`] : []),
    ];
  }
  const lines = [`focus ${entity.id} (${entity.kind}, ${entity.status}): ${short(entity.title)}`];
  if (step?.lease && step.lease.holder !== ctx.principal.agent_id) lines.push(`step ${step.path} is leased by ${step.lease.holder}`);
  else if (step) lines.push(`step ${step.path} is open: ${step.title}`);
  else if (entity.kind === "task") lines.push("no open step");
  return lines.slice(0, MAX_WHY);
}

function nextOf(entity: EntityRow | undefined, queued: JobRow | undefined): NextState["next"] {
  if (entity === undefined) {
    return {
      action: { tool: "tasks", args: { op: "plan.create", args: { title: "<fill: plan title>" } }, purpose: "Create a plan" },
      // An agent with nothing to do may take delegated work before picking a task (seed 002's queue hint).
      backup: queued
        ? { tool: "jobs", args: { op: "claim", args: { job: queued.id } }, purpose: `Claim ${queued.id}, queued for any agent` }
        : { tool: "tasks", args: { op: "call", cmd: "tasks.context", args: {} }, purpose: "List plans and tasks to pick a focus" },
    };
  }
  return {
    action: { tool: "open", args: { id: entity.id }, purpose: `Open your focus ${entity.id}` },
    backup: {
      tool: "tasks",
      args: { op: "snapshot", args: { target: entity.id, view: "smart" } },
      purpose: `Snapshot ${entity.id} (smart view)`,
    },
  };
}

export function nextState(ctx: CommandContext): NextState {
  const entity = focusedEntity(ctx);
  const step = entity ? stepFocusOf(ctx, entity) : null;
  const queued = entity === undefined ? oldestQueued(ctx.db, false) : undefined;
  return {
    where: {
      workspace: ctx.workspace,
      branch: checkoutOf(ctx.db, ctx.principal.agent_id).name,
      focus: entity?.id ?? null,
      step_focus: step,
      lane: `shared + agent/${ctx.principal.agent_id}`,
    },
    why: whyOf(ctx, entity, step, queued),
    next: nextOf(entity, queued),
  };
}

/** The capsule for the tightest budgets: where in one line of ids, and the best action. */
export function compactCapsule(state: NextState) {
  return {
    where: {
      workspace: state.where.workspace,
      branch: state.where.branch,
      focus: state.where.focus,
      step: state.where.step_focus?.path ?? null,
    },
    next: { action: { tool: state.next.action.tool, args: state.next.action.args } },
  };
}
