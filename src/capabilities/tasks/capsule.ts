/**
 * The capsule (seed 003 "capsule as HUD"): one type for every answer that carries one, the portal
 * answers (where the caller stands: its checkout and focus) and the resume views (where a plan or
 * task stands). Fields:
 *
 * - `where`: workspace, the branch and docs the view is about, the caller's focus, the target (the
 *   viewed plan or task, else the focus), the step focus with its lease, the lanes read;
 * - `why`: at most MAX_WHY short lines, most important first;
 * - `next`: 1 best + 1 backup action, both suggestions (rendered for the caller's connection).
 *
 * The compact form keeps what the smallest budgets can carry: the ids of `where` and the best action,
 * whole and pasteable but for its purpose. Deterministic: the same store gives the same capsule.
 */
import type { CommandContext } from "../../commands/context";
import { fill, type RenderedSuggestion, type Suggestion, suggest } from "../../shared/suggestion";
import { checkoutOf } from "../branches/branches.store";
import { DEFAULT_DOCS } from "../docs/docs.schema";
import { firstOpenConflict } from "../graph/conflicts.store";
import { type JobRow, oldestQueued } from "../jobs/jobs.store";
import { type LeaseRow, liveLease } from "./leases.store";
import { proofMode, proofSummary, requiredCheckpoints } from "./proof";
import { orderedSteps, type StepRow } from "./steps.store";
import { mostRecentlyActive } from "./task-events.store";
import { PROOF_CHECKPOINTS, type ReasoningRef } from "./tasks.schema";
import { type EntityRow, findEntity, focusOf, tasksOfPlan } from "./tasks.store";

/** Lines of `why`: the focus, its step and one signal; small enough for a 300-character capsule. */
export const MAX_WHY = 3;
/** Titles are cut in `where` and `why` so the capsule stays small whatever the titles are. */
const MAX_TITLE_CHARS = 60;

export interface StepFocus {
  step_id: string;
  path: string;
  title: string;
  lease?: { holder: string; expires_tick: number };
}

export interface CapsuleTarget {
  id: string;
  kind: string;
  title: string;
  status: string;
  revision: number;
}

export interface CapsuleWhere {
  workspace: string;
  /** The branch the view is about: the caller's checkout (portal answers) or the target's reasoning branch. */
  branch: string;
  docs: { notes: string; trace: string; graph: string };
  /** The caller's focus (a plan or task id), or null. */
  focus: string | null;
  /** The plan or task the view is about: the viewed one, else the focus; null with neither. */
  target: CapsuleTarget | null;
  step_focus: StepFocus | null;
  lane: string;
}

/** A type, not an interface: answers' zod types take it as a record. */
export type Capsule = {
  where: CapsuleWhere;
  why: string[];
  next: { action: Suggestion; backup: Suggestion };
};

function short(text: string): string {
  return text.length <= MAX_TITLE_CHARS ? text : `${text.slice(0, MAX_TITLE_CHARS - 1)}…`;
}

function targetOf(entity: EntityRow): CapsuleTarget {
  return { id: entity.id, kind: entity.kind, title: short(entity.title), status: entity.status, revision: entity.revision };
}

function stepFocusOf(step: StepRow | undefined, lease: LeaseRow | undefined): StepFocus | null {
  if (step === undefined) return null;
  return {
    step_id: step.id,
    path: step.path,
    title: short(step.title),
    ...(lease ? { lease: { holder: lease.holder, expires_tick: lease.expires_tick } } : {}),
  };
}

function laneOf(ctx: CommandContext, allLanes = false): string {
  return allLanes ? "all" : `shared + agent/${ctx.principal.agent_id}`;
}

// ---------------------------------------------------------------------------------------------
// The portal capsule: where the caller stands

/** A plan's next task: its first ACTIVE one, else its first TODO one (id order). */
export function nextTaskOf(ctx: CommandContext, plan: EntityRow): EntityRow | undefined {
  if (plan.kind !== "plan") return undefined;
  const tasks = tasksOfPlan(ctx.db, plan.id);
  return tasks.find((task) => task.status === "ACTIVE") ?? tasks.find((task) => task.status === "TODO");
}

/** Where a plan or task stands: its steps, the first open one and who holds it. */
function standing(ctx: CommandContext, entity: EntityRow): NextInput {
  const steps = entity.kind === "task" ? orderedSteps(ctx.db, entity.id) : [];
  const stepFocus = steps.find((step) => step.completed === 0);
  return {
    ctx,
    entity,
    steps,
    stepFocus,
    lease: stepFocus ? liveLease(ctx.db, stepFocus.id) : undefined,
    nextTask: nextTaskOf(ctx, entity),
  };
}

function stepWhy(ctx: CommandContext, step: StepFocus | null, entity: EntityRow): string[] {
  if (step?.lease && step.lease.holder !== ctx.principal.agent_id) return [`step ${step.path} is leased by ${step.lease.holder}`];
  if (step) return [`step ${step.path} is open: ${step.title}`];
  return entity.kind === "task" ? ["no open step"] : [];
}

/** With no focus and nothing open in the workspace: create a plan, or take delegated work (seed 002's queue hint). */
function emptyNext(queued: JobRow | undefined): Capsule["next"] {
  return {
    action: suggest("tasks.create", { title: fill("plan title") }, "Create a plan"),
    backup: queued
      ? suggest("jobs.claim", { job: queued.id }, `Claim ${queued.id}, queued for any agent`)
      : suggest("tasks.context", {}, "List plans and tasks"),
  };
}

/** With no focus in a workspace with open work: take up the plan or task worked on most recently. */
function takeUpNext(active: EntityRow, step: StepFocus | null): Capsule["next"] {
  const held = step?.lease ? `; its step ${step.path} is leased by ${step.lease.holder}` : "";
  return {
    action: suggest("tasks.focus.set", { target: active.id }, `Take up ${active.id}, the ${active.kind} worked on most recently${held}`),
    backup: suggest("open", { id: active.id }, `Read ${active.id} first`),
  };
}

/**
 * The capsule of every portal answer and of `tasks.execute.next` (seed 002's NextEngine). First, an
 * open graph conflict in the checkout's graph: show it (the move below becomes the backup). Then, with
 * a focus: its next move, as the resume views give it (plan → task → steps → the work on the open
 * step). With none: take up the ACTIVE or TODO plan or task worked on most recently (any agent's),
 * saying who holds its open step; in a workspace with none, create a plan, or claim the oldest queued
 * job. Read-only.
 */
export function focusCapsule(ctx: CommandContext): Capsule {
  const focus = focusOf(ctx.db, ctx.principal.agent_id);
  const focused = focus === undefined ? undefined : findEntity(ctx.db, focus);
  const activeId = focused === undefined ? mostRecentlyActive(ctx.db) : undefined;
  const entity = focused ?? (activeId === undefined ? undefined : findEntity(ctx.db, activeId));
  const stand = entity ? standing(ctx, entity) : undefined;
  const step = stand ? stepFocusOf(stand.stepFocus, stand.lease) : null;
  let why: string[];
  let next: Capsule["next"];
  if (focused && stand) {
    why = [`focus ${focused.id} (${focused.kind}, ${focused.status}): ${short(focused.title)}`, ...stepWhy(ctx, step, focused)];
    next = targetNext(stand);
  } else if (entity) {
    why = [
      `no focus; ${entity.id} (${entity.kind}, ${entity.status}) was worked on most recently: ${short(entity.title)}`,
      ...stepWhy(ctx, step, entity),
    ];
    next = takeUpNext(entity, step);
  } else {
    const queued = oldestQueued(ctx.db, false);
    why = [
      "no focus, and no open plan or task: create a plan",
      ...(queued ? [`${queued.id} is queued for any agent: ${short(queued.title)}`] : []),
    ];
    next = emptyNext(queued);
  }
  // An open graph conflict in the checkout's graph waits before anything else: it leaves merged work undecided.
  const checkout = checkoutOf(ctx.db, ctx.principal.agent_id);
  const conflict = firstOpenConflict(ctx.db, checkout.id, DEFAULT_DOCS.graph);
  if (conflict) {
    why = [`open graph conflict on ${conflict.key} (${conflict.conflict_id}) in ${checkout.name}: see it, then resolve it`, ...why];
    next = {
      action: suggest(
        "graph.conflict.show",
        { conflict_id: conflict.conflict_id },
        `See the conflict on ${conflict.key}: base, theirs and ours`,
      ),
      backup: next.action,
    };
  }
  return {
    where: {
      workspace: ctx.workspace,
      branch: checkout.name,
      docs: { ...DEFAULT_DOCS },
      focus: focused?.id ?? null,
      target: entity ? targetOf(entity) : null,
      step_focus: step,
      lane: laneOf(ctx),
    },
    why: why.slice(0, MAX_WHY),
    next,
  };
}

// ---------------------------------------------------------------------------------------------
// The resume capsule: where a plan or task stands

export interface TargetCapsuleInput {
  ctx: CommandContext;
  entity: EntityRow;
  ref: ReasoningRef;
  focus: string | null;
  steps: StepRow[];
  stepFocus: StepRow | undefined;
  lease: LeaseRow | undefined;
  allLanes: boolean;
  /** Short signal lines, most important first (blockers, missing checkpoints, …). */
  signals: string[];
  /** The plan's next task, for plans. */
  nextTask?: EntityRow | undefined;
  /** The signal engine's best call over the view's cards: it becomes the backup move. */
  engineAction?: Suggestion | undefined;
}

/** What the next move of a plan or task is decided from. */
type NextInput = Pick<TargetCapsuleInput, "ctx" | "entity" | "steps" | "stepFocus" | "lease" | "nextTask">;

/** What to do on the open step: the work first; closing only once there is evidence to close on. */
function stepNext(ctx: CommandContext, task: string, step: StepRow, lease: LeaseRow | undefined): Capsule["next"] {
  const at = { task, step_id: step.id };
  if (lease && lease.holder !== ctx.principal.agent_id) {
    return {
      action: suggest("tasks_step_lease_get", at, `${step.path} is held by ${lease.holder}`),
      backup: suggest("tasks_radar", { task }, "Find other work on the task"),
    };
  }
  const proofs = proofSummary(ctx.db, step);
  const unproven = PROOF_CHECKPOINTS.find((name) => proofMode(step, name) === "require" && proofs[name].receipts.size === 0);
  const note = suggest("tasks_note", { ...at, note: fill("what you did or found") }, "Record progress on the step");
  const capture = (checkpoint: string) =>
    suggest(
      "tasks_evidence_capture",
      { ...at, checkpoint, checks: [`CMD: ${fill("command you ran")}`, `LINK: ${fill("url of the result")}`] },
      `Attach ${checkpoint} receipts for ${step.path}`,
    );
  if (unproven) return { action: capture(unproven), backup: note };
  const evidence = Object.values(proofs).some((proof) => proof.proofs > 0);
  const required = requiredCheckpoints(step, proofs);
  const confirmed = required.some((name) => step[`${name}_confirmed`] === 1);
  // Never offer to confirm checkpoints nobody has worked on: the work comes first.
  if (!evidence && !confirmed) return { action: note, backup: capture("tests") };
  const checkpoints = Object.fromEntries(required.map((name) => [name, true]));
  return {
    action: suggest("tasks_close_step", { ...at, checkpoints }, `Verify and close ${step.path}: ${short(step.title)}`),
    backup: note,
  };
}

function targetNext(input: NextInput): Capsule["next"] {
  const { ctx, entity, steps, stepFocus, lease } = input;
  const task = entity.id;
  if (entity.kind === "plan" && entity.status !== "DONE" && entity.status !== "CANCELED") {
    const next = input.nextTask;
    return next
      ? {
          action: suggest("tasks_resume_super", { target: next.id }, `Resume ${next.id}: ${short(next.title)}`),
          backup: suggest("tasks_context", { tasks_parent: task }, "See the plan's tasks"),
        }
      : {
          action: suggest("tasks_macro_start", { plan: task, title: fill("next task") }, "Start the plan's next task"),
          backup: suggest("tasks_radar", { target: task }, "Check the plan"),
        };
  }
  if (entity.status === "DONE" || entity.status === "CANCELED") {
    return {
      action: suggest("tasks_context", { tasks_status: ["ACTIVE", "TODO"] }, "Pick the next task"),
      backup: suggest("tasks_macro_start", { title: fill("next task") }, "Start a new task"),
    };
  }
  if (steps.length === 0) {
    return {
      action: suggest(
        "tasks_decompose",
        { task, steps: [{ title: fill("first step"), success_criteria: [fill("done when")], tests: [fill("how to check")] }] },
        "Break the task into steps",
      ),
      backup: suggest("tasks_lint", { task }, "See what the task lacks"),
    };
  }
  if (stepFocus === undefined) {
    return {
      action: suggest("tasks_macro_finish", { task }, "Every step is closed: finish the task"),
      backup: suggest("tasks_lint", { task }, "Check the task before finishing"),
    };
  }
  return stepNext(ctx, task, stepFocus, lease);
}

/** The capsule of a resume view: where the viewed plan or task stands, and its next move. */
export function targetCapsule(input: TargetCapsuleInput): Capsule {
  const { ctx, entity, ref, stepFocus, lease } = input;
  const planned = targetNext(input);
  const next =
    input.engineAction && input.engineAction.tool !== planned.action.tool
      ? { action: planned.action, backup: input.engineAction }
      : planned;
  return {
    where: {
      workspace: ctx.workspace,
      branch: ref.branch,
      docs: { notes: ref.notes_doc, trace: ref.trace_doc, graph: ref.graph_doc },
      focus: input.focus,
      target: targetOf(entity),
      step_focus: stepFocusOf(stepFocus, lease),
      lane: laneOf(ctx, input.allLanes),
    },
    why: input.signals.slice(0, MAX_WHY),
    next,
  };
}

// ---------------------------------------------------------------------------------------------
// The compact form

/** A capsule as it is sent: its suggestions rendered. */
export interface RenderedCapsule {
  where: CapsuleWhere;
  next: { action: RenderedSuggestion };
}

function bestAction(capsule: RenderedCapsule): Omit<RenderedSuggestion, "purpose"> {
  const { purpose: _purpose, ...action } = capsule.next.action;
  return action;
}

/** The capsule for the last rung of a budget: the best action alone, whole and pasteable. */
export function actionOnlyCapsule(capsule: RenderedCapsule) {
  return { next: { action: bestAction(capsule) } };
}

/** The compact capsule, from a rendered one: the ids of `where` and the best action without its purpose. */
export function compactCapsule(capsule: RenderedCapsule) {
  const { where } = capsule;
  const action = bestAction(capsule);
  return {
    where: {
      workspace: where.workspace,
      branch: where.branch,
      focus: where.focus,
      target: where.target?.id ?? null,
      step_focus: where.step_focus === null ? null : { step_id: where.step_focus.step_id },
    },
    next: { action },
  };
}
