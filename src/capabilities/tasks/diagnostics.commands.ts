/**
 * `tasks_lint` and `tasks_diagnostics` (read-only). Lint reports one plan or task (default: your focus)
 * with patches, the calls that fix what one call can fix. Diagnostics runs the same rules over the
 * workspace (at most `MAX_DIAGNOSED_TASKS` tasks per call) and adds checks of the caller's own state.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { focusOf } from "../../place/focus.store";
import { targetFields, targetSchema } from "../../place/target.schema";
import { explicitTarget, resolveTarget } from "../../place/targets";
import { findEntity } from "../../place/targets.store";
import { suggest, suggestionSchema } from "../../shared/suggestion";
import {
  ACTIVE_LIMIT,
  issueSchema,
  type LintIssue,
  lintPlan,
  lintTask,
  type Patch,
  sortIssues,
  summary,
  summarySchema,
} from "./lint.rules";
import { listEntities, tasksOfPlan } from "./tasks.store";

/** Tasks one diagnostics call examines, issues it reports by default, patches lint returns by default. */
const MAX_DIAGNOSED_TASKS = 200;
const DEFAULT_MAX_ISSUES = 50;
const DEFAULT_PATCHES = 10;

export const tasksLint = defineCommand({
  name: "tasks.lint",
  tool: "tasks_lint",
  title: "Lint a plan or task",
  description:
    "Read-only review of one plan or task (default: your focus): steps without success criteria or tests, required proof without receipts, blocked steps, an ACTIVE task with nothing open or no next action, plans over 3 ACTIVE tasks. Each issue has a recovery; patches are ready-to-send calls (fill the <fill: …> parts).",
  kind: "read",
  input: { ...targetFields, patches_limit: z.number().int().min(0).max(50).default(DEFAULT_PATCHES) },
  output: {
    target: z.string(),
    summary: summarySchema,
    issues: z.array(issueSchema),
    patches: z.array(z.object({ id: z.string(), apply: suggestionSchema })),
  },
  budget: { lists: ["patches", "issues"], keep: ["severity", "code", "target", "path", "id"], trimFromEnd: true },
  handler: (ctx, args) => {
    const entity = resolveTarget(ctx, args, "tasks_lint");
    const issues = sortIssues(entity.kind === "plan" ? lintPlan(ctx, entity) : lintTask(ctx, entity));
    const patches = issues
      .filter((issue): issue is LintIssue & { patch: Patch } => issue.patch !== undefined)
      .map((issue) => ({ id: `${issue.code}:${issue.target}${issue.path ? `:${issue.path}` : ""}`, apply: issue.patch }))
      .slice(0, args.patches_limit)
      .sort((a, b) => a.id.localeCompare(b.id));
    return { target: entity.id, summary: summary(issues), issues, patches };
  },
});

export const tasksDiagnostics = defineCommand({
  name: "tasks.diagnostics",
  tool: "tasks_diagnostics",
  title: "Check tasks and their reasoning",
  description: `Bounded health check of the workspace with the lint rules (reasoning branches present, steps defined and proven, blocked steps, ACTIVE tasks with nothing open, plans over ${ACTIVE_LIMIT} ACTIVE tasks) plus your own state (a focus on a finished task). Each issue has a recovery and, where one call fixes it, a patch. Target (optional) narrows it to one plan or task; at most ${MAX_DIAGNOSED_TASKS} tasks per call.`,
  kind: "read",
  input: {
    target: targetSchema.optional().describe("Check one plan or task only (default: the whole workspace; your focus is not used)."),
    max_issues: z.number().int().min(1).max(500).default(DEFAULT_MAX_ISSUES),
  },
  output: {
    summary: summarySchema,
    issues: z.array(issueSchema),
    checked: z.object({ plans: z.number(), tasks: z.number(), truncated: z.boolean() }),
  },
  budget: { lists: ["issues"], keep: ["severity", "code", "target", "path"], trimFromEnd: true },
  handler: (ctx, args) => {
    const issues: LintIssue[] = [];
    const focus = focusOf(ctx.db, ctx.principal.agent_id);
    const focused = focus === undefined ? undefined : findEntity(ctx.db, focus);
    if (focused && (focused.status === "DONE" || focused.status === "CANCELED")) {
      issues.push({
        severity: "warning",
        kind: "context",
        code: "FOCUS_FINISHED",
        message: `Your focus ${focused.id} is ${focused.status}.`,
        recovery: "Focus on the next task, or clear the focus.",
        target: focused.id,
        patch: suggest("tasks_focus_clear", {}, "Stop acting on a finished task"),
      });
    }
    const scoped = explicitTarget(args) === undefined ? undefined : resolveTarget(ctx, args, "tasks_diagnostics");
    const plans = scoped ? (scoped.kind === "plan" ? [scoped] : []) : listEntities(ctx.db, { kind: "plan" }, MAX_DIAGNOSED_TASKS);
    const candidates = scoped
      ? scoped.kind === "task"
        ? [scoped]
        : tasksOfPlan(ctx.db, scoped.id)
      : listEntities(ctx.db, { kind: "task" }, MAX_DIAGNOSED_TASKS);
    const shownPlans = plans.slice(0, MAX_DIAGNOSED_TASKS);
    const tasks = candidates.slice(0, MAX_DIAGNOSED_TASKS);
    for (const plan of shownPlans) issues.push(...lintPlan(ctx, plan));
    for (const task of tasks) issues.push(...lintTask(ctx, task));
    sortIssues(issues);
    return {
      summary: summary(issues),
      issues: issues.slice(0, args.max_issues),
      checked: {
        plans: shownPlans.length,
        tasks: tasks.length,
        truncated: candidates.length > MAX_DIAGNOSED_TASKS || plans.length > MAX_DIAGNOSED_TASKS || issues.length > args.max_issues,
      },
    };
  },
});
