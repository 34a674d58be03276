/**
 * The radar of a plan or task: now / why / verify / next / blockers, with a task's step counts (and
 * missing checkpoints) or a plan's horizon. A task that waits for unfinished tasks says so first among
 * its blockers ("waits for TASK-001 (ACTIVE)"). Derived on every read; shared by `tasks_radar`
 * (views.commands.ts) and the resume views (resume-view.ts), whose capsule signals start from it.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { firstOpenStep } from "../../place/targets";
import { type EntityRow, orderedSteps, type StepRow } from "../../place/targets.store";
import { waitsForLine } from "./dependency-view";
import { ACTIVE_LIMIT } from "./lint.rules";
import { missingCheckpoints, type ProofSummary, proofSummariesOfTask } from "./proof";
import { blockersOf } from "./readiness.store";
import { toStep } from "./steps.store";
import { tasksOfPlan } from "./tasks.store";

/** Blocked steps shown by the radar (the original's bound), after the line of what the task waits for. */
const MAX_RADAR_BLOCKERS = 10;

interface StepStats {
  total: number;
  open: number;
  completed: number;
  blocked: number;
  missing: Record<string, number>;
}

function stepStats(steps: StepRow[], proofs: Map<string, ProofSummary>): StepStats {
  const stats: StepStats = { total: steps.length, open: 0, completed: 0, blocked: 0, missing: {} };
  for (const step of steps) {
    if (step.completed === 1) {
      stats.completed++;
      continue;
    }
    stats.open++;
    if (step.blocked === 1) stats.blocked++;
    const summary = proofs.get(step.id);
    if (summary === undefined) continue;
    for (const name of missingCheckpoints(step, summary)) stats.missing[name] = (stats.missing[name] ?? 0) + 1;
  }
  return stats;
}

function taskRadar(
  entity: EntityRow,
  steps: StepRow[],
  stats: StepStats,
  firstOpen: StepRow | undefined,
  firstOpenMissing: string[],
  waitsFor: string | undefined,
) {
  const verify = Object.entries(stats.missing).map(([name, count]) => `${count} open step(s) missing ${name}`);
  let next: string;
  if (steps.length === 0) next = `Add steps to ${entity.id} (tasks_decompose).`;
  else if (firstOpen === undefined)
    next = entity.status === "DONE" ? `${entity.id} is done.` : `Finish task ${entity.id} (tasks_complete).`;
  else if (firstOpenMissing.length > 0)
    next = `Confirm checkpoints for ${firstOpen.path} (${firstOpenMissing.join(", ")}): tasks_close_step verifies and closes.`;
  else next = `Close next step ${firstOpen.path}: ${firstOpen.title} (tasks_close_step).`;
  const stepBlockers = steps
    .filter((step) => step.completed === 0 && (step.blocked === 1 || step.blockers_json !== "[]"))
    .slice(0, MAX_RADAR_BLOCKERS)
    .map((step) => `${step.path}: ${step.block_reason ?? ((JSON.parse(step.blockers_json) as string[]).join("; ") || "blocked")}`);
  const blockers = waitsFor === undefined ? stepBlockers : [waitsFor, ...stepBlockers];
  return { now: `Task ${entity.id}: ${entity.title}`, why: entity.description ?? "", verify, next: [next], blockers };
}

/** The radar of a plan (with its horizon) or a task (with its step counts and first open step). */
export function radarView(ctx: CommandContext, entity: EntityRow) {
  if (entity.kind === "plan") {
    const tasks = tasksOfPlan(ctx.db, entity.id);
    const count = (status: string) => tasks.filter((task) => task.status === status).length;
    const horizon = {
      active: count("ACTIVE"),
      backlog: count("TODO"),
      parked: count("PARKED"),
      done: count("DONE"),
      canceled: count("CANCELED"),
      total: tasks.length,
      active_limit: ACTIVE_LIMIT,
      over_active_limit: count("ACTIVE") > ACTIVE_LIMIT,
    };
    const nextTask = tasks.find((task) => task.status === "ACTIVE") ?? tasks.find((task) => task.status === "TODO");
    const next =
      tasks.length === 0
        ? `Add tasks to ${entity.id} (tasks_create with parent).`
        : nextTask
          ? `Work on ${nextTask.id}: ${nextTask.title}.`
          : `Finish plan ${entity.id} (tasks_complete).`;
    return {
      radar: {
        now: `Plan ${entity.id}: ${entity.title}`,
        why: entity.contract ?? entity.description ?? "",
        verify: [],
        next: [next],
        blockers: [],
      },
      horizon,
    };
  }
  const steps = orderedSteps(ctx.db, entity.id);
  // Every step's proofs in one statement: the counts and the first open step's missing checkpoints.
  const proofs = proofSummariesOfTask(ctx.db, entity.id, steps);
  const stats = stepStats(steps, proofs);
  const firstOpen = firstOpenStep(ctx.db, entity.id);
  // The first open step is one of `steps`, so its proofs are in the map.
  const firstOpenProofs = firstOpen === undefined ? undefined : proofs.get(firstOpen.id);
  return {
    radar: taskRadar(
      entity,
      steps,
      stats,
      firstOpen,
      firstOpen && firstOpenProofs ? missingCheckpoints(firstOpen, firstOpenProofs) : [],
      waitsForLine(blockersOf(ctx.db, entity.id)),
    ),
    steps: { ...stats, ...(firstOpen ? { first_open: toStep(firstOpen) } : {}) },
  };
}

/** The radar lines of a plan or task (also part of the resume views). */
export const radarSchema = z.object({
  now: z.string(),
  why: z.string(),
  verify: z.array(z.string()),
  next: z.array(z.string()),
  blockers: z.array(z.string()),
});
