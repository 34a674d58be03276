/**
 * `tasks_diagnostics`: a bounded health check of tasks and their reasoning, each issue with a severity,
 * a code, a recovery hint and one suggested call. It reads only: checks run over at most
 * `MAX_DIAGNOSED_TASKS` tasks (the target's, or the workspace's in id order).
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import type { ErrorAction } from "../../shared/errors";
import { findBranch } from "../branches/branches.store";
import { missingCheckpoints, proofSummary } from "./proof";
import { explicitTarget, reasoningRef, resolveTarget } from "./targets";
import { targetSchema } from "./tasks.schema";
import { type EntityRow, findEntity, focusOf, listEntities, orderedSteps, tasksOfPlan } from "./tasks.store";

/** Tasks one call examines, and issues it reports at most. */
const MAX_DIAGNOSED_TASKS = 200;
const DEFAULT_MAX_ISSUES = 50;
/** ACTIVE tasks a plan should carry at once (as in tasks_radar). */
const ACTIVE_LIMIT = 3;

type Severity = "error" | "warning" | "info";
interface Issue {
  severity: Severity;
  code: string;
  message: string;
  recovery: string;
  target?: string;
  action?: ErrorAction;
}

const issueSchema = z.object({
  severity: z.enum(["error", "warning", "info"]),
  code: z.string(),
  message: z.string(),
  recovery: z.string(),
  target: z.string().optional(),
  action: z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() }).optional(),
});

function taskIssues(ctx: CommandContext, task: EntityRow, out: Issue[]): number {
  const steps = orderedSteps(ctx.db, task.id);
  const open = steps.filter((step) => step.completed === 0);
  if (findBranch(ctx.db, reasoningRef(task.id).branch) === undefined) {
    out.push({
      severity: "error",
      code: "REASONING_BRANCH_MISSING",
      message: `${task.id} has no reasoning branch ${reasoningRef(task.id).branch}.`,
      recovery: "Any task mutation recreates it, e.g. a note.",
      target: task.id,
      action: { tool: "tasks_note", args: { task: task.id, note: "Resumed." }, why: "Recreate the reasoning branch." },
    });
  }
  if (steps.length === 0 && task.status !== "DONE" && task.status !== "CANCELED") {
    out.push({
      severity: "warning",
      code: "NO_STEPS",
      message: `${task.id} has no steps.`,
      recovery: "Break it into steps with success criteria and tests.",
      target: task.id,
      action: {
        tool: "tasks_decompose",
        args: { task: task.id, steps: [{ title: "<first step>", success_criteria: ["<done when>"], tests: ["<how to check>"] }] },
        why: "Give the task steps.",
      },
    });
  }
  if (task.status === "ACTIVE" && steps.length > 0 && open.length === 0) {
    out.push({
      severity: "warning",
      code: "ACTIVE_NO_OPEN_STEPS",
      message: `${task.id} is ACTIVE but every step is completed.`,
      recovery: "Finish the task, or add the remaining steps.",
      target: task.id,
      action: { tool: "tasks_complete", args: { task: task.id }, why: "Mark it DONE." },
    });
  }
  for (const step of open) {
    if (JSON.parse(step.success_criteria_json).length === 0 || JSON.parse(step.tests_json).length === 0) {
      out.push({
        severity: "info",
        code: "STEP_UNDEFINED",
        message: `${task.id} ${step.path} lacks success criteria or tests.`,
        recovery: "Define what done means and how to check it before closing the step.",
        target: task.id,
        action: {
          tool: "tasks_define",
          args: { task: task.id, path: step.path, success_criteria: ["<done when>"], tests: ["<how to check>"] },
          why: "Define the step.",
        },
      });
    }
    if (step.blocked === 1) {
      out.push({
        severity: "warning",
        code: "BLOCKED_STEP",
        message: `${task.id} ${step.path} is blocked${step.block_reason ? `: ${step.block_reason}` : ""}.`,
        recovery: "Resolve the blocker, then unblock the step.",
        target: task.id,
        action: { tool: "tasks_block", args: { task: task.id, path: step.path, blocked: false }, why: "Unblock once resolved." },
      });
    }
  }
  const first = open[0];
  if (first && task.status === "ACTIVE") {
    const missing = missingCheckpoints(first, proofSummary(ctx.db, first));
    if (missing.length > 0) {
      out.push({
        severity: "info",
        code: "NEXT_STEP_UNVERIFIED",
        message: `${task.id} ${first.path} still needs: ${missing.join(", ")}.`,
        recovery: "Verify and close it when its checks pass.",
        target: task.id,
        action: { tool: "tasks_close_step", args: { task: task.id, path: first.path }, why: "Verify and close the next step." },
      });
    }
  }
  return steps.length;
}

export const tasksDiagnostics = defineCommand({
  name: "tasks.diagnostics",
  tool: "tasks_diagnostics",
  title: "Check tasks and their reasoning",
  description: `Bounded health check: reasoning branches present, tasks without steps, ACTIVE tasks with nothing open or plans over ${ACTIVE_LIMIT} ACTIVE tasks, blocked or undefined steps, your focus on a finished task. Each issue has a recovery hint and one suggested call. Target (optional) narrows it to one plan or task; at most ${MAX_DIAGNOSED_TASKS} tasks per call.`,
  kind: "read",
  input: {
    target: targetSchema.optional().describe("Check one plan or task only (default: the whole workspace; your focus is not used)."),
    max_issues: z.number().int().min(1).max(500).default(DEFAULT_MAX_ISSUES),
  },
  output: {
    summary: z.object({ errors: z.number(), warnings: z.number(), info: z.number(), total: z.number() }),
    issues: z.array(issueSchema),
    checked: z.object({ tasks: z.number(), steps: z.number(), truncated: z.boolean() }),
  },
  budget: { lists: ["issues"], keep: ["severity", "code", "target"], newestFirst: false },
  handler: (ctx, args) => {
    const issues: Issue[] = [];
    const focus = focusOf(ctx.db, ctx.principal.agent_id);
    const focused = focus === undefined ? undefined : findEntity(ctx.db, focus);
    if (focused && (focused.status === "DONE" || focused.status === "CANCELED")) {
      issues.push({
        severity: "warning",
        code: "FOCUS_FINISHED",
        message: `Your focus ${focused.id} is ${focused.status}.`,
        recovery: "Focus on the next task, or clear the focus.",
        target: focused.id,
        action: { tool: "tasks_focus_clear", args: {}, why: "Stop acting on a finished task." },
      });
    }
    const scoped = explicitTarget(args) === undefined ? undefined : resolveTarget(ctx, args, "tasks_diagnostics");
    const plans = scoped
      ? scoped.kind === "plan"
        ? [scoped]
        : []
      : listEntities(ctx.db, { kind: "plan" }, MAX_DIAGNOSED_TASKS).slice(0, MAX_DIAGNOSED_TASKS);
    for (const plan of plans) {
      const active = tasksOfPlan(ctx.db, plan.id).filter((task) => task.status === "ACTIVE").length;
      if (active > ACTIVE_LIMIT) {
        issues.push({
          severity: "warning",
          code: "ACTIVE_LIMIT_EXCEEDED",
          message: `${plan.id} has ${active} ACTIVE tasks (limit ${ACTIVE_LIMIT}).`,
          recovery: "Park what is not being worked on now.",
          target: plan.id,
          action: { tool: "tasks_context", args: { tasks_parent: plan.id, tasks_status: ["ACTIVE"] }, why: "See which tasks are ACTIVE." },
        });
      }
    }
    const candidates = scoped
      ? scoped.kind === "task"
        ? [scoped]
        : tasksOfPlan(ctx.db, scoped.id)
      : listEntities(ctx.db, { kind: "task" }, MAX_DIAGNOSED_TASKS);
    const tasks = candidates.slice(0, MAX_DIAGNOSED_TASKS);
    let steps = 0;
    for (const task of tasks) steps += taskIssues(ctx, task, issues);
    const order: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
    issues.sort(
      (a, b) => order[a.severity] - order[b.severity] || a.code.localeCompare(b.code) || (a.target ?? "").localeCompare(b.target ?? ""),
    );
    const count = (severity: Severity) => issues.filter((issue) => issue.severity === severity).length;
    return {
      summary: { errors: count("error"), warnings: count("warning"), info: count("info"), total: issues.length },
      issues: issues.slice(0, args.max_issues),
      checked: { tasks: tasks.length, steps, truncated: candidates.length > MAX_DIAGNOSED_TASKS || issues.length > args.max_issues },
    };
  },
});
