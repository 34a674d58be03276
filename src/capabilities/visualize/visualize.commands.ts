/**
 * `visualize`: what a host's app (docs/app.md) needs to start drawing the caller's memory, as an
 * ordinary bounded answer. A host that renders MCP Apps shows the app the Worker attaches to this tool;
 * any other host shows the answer as text, so it carries the board in words too (`summary`).
 *
 * It names the workspace, the caller and its role, the scope (the target asked for, else the caller's
 * focus, else none) and the reads the app makes: each a suggested call rendered for the connection
 * that asked (its portal envelope, or its flat tool), carrying `budget_profile` where the command's own
 * arguments go. The app adds its arguments beside `budget_profile`, so it calls only tools the
 * connection lists and needs no rule of its own about toolsets. Read-only: it writes nothing.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { focusOf } from "../../place/focus.store";
import { targetFields } from "../../place/target.schema";
import { explicitTarget } from "../../place/targets";
import { type EntityRow, requireEntity } from "../../place/targets.store";
import { suggest, suggestionSchema } from "../../shared/suggestion";
import { nowTick } from "../tasks/leases.store";
import { boardSummary } from "./board-summary";

/** The views the app draws; `graph` and `session` come with the views that draw them. */
export const VISUAL_VIEWS = ["tasks"] as const;

/** The budget the app reads with: a person reads more than an agent's context holds. */
const APP_BUDGET_PROFILE = "audit";

/** The reads the task board makes, by command, with why it makes each. */
const BOARD_READS = {
  "tasks.context": "Plans and tasks of the workspace, paged.",
  "tasks.resume_super": "A plan's or task's radar, capsule, steps and events.",
  open: "One step with its checkpoints and live lease.",
  "system.status": "The workspace tick now (leases expire on it).",
} as const;

const boardTargetSchema = z.object({
  id: z.string(),
  kind: z.enum(["plan", "task"]),
  title: z.string(),
  status: z.string(),
  plan_id: z.string().optional(),
});

function boardTarget(entity: EntityRow): z.input<typeof boardTargetSchema> {
  return {
    id: entity.id,
    kind: entity.kind,
    title: entity.title,
    status: entity.status,
    ...(entity.plan_id === null ? {} : { plan_id: entity.plan_id }),
  };
}

function scopeOf(asked: string | undefined, focused: string | undefined): "argument" | "focus" | "none" {
  if (asked !== undefined) return "argument";
  return focused === undefined ? "none" : "focus";
}

export const visualize = defineCommand({
  name: "visualize",
  tool: "visualize",
  title: "Show the task board",
  // Every session pays for this line in the default listing: the answer says the rest.
  description: "The task board as an app in the chat: plan, tasks, steps, leases, missing proof.",
  kind: "read",
  input: {
    what: z.enum(VISUAL_VIEWS).default("tasks").describe("Which view: tasks (plan → tasks → steps)."),
    ...targetFields,
  },
  output: {
    what: z.enum(VISUAL_VIEWS),
    workspace: z.string(),
    agent_id: z.string(),
    role: z.enum(["read", "write", "admin"]),
    tick: z.number().describe("The workspace tick now: leases expire on it."),
    target: boardTargetSchema.nullable().describe("The plan or task shown first: the one asked for, else your focus, else none."),
    scope: z.enum(["argument", "focus", "none"]).describe("Where target came from."),
    summary: z.string().describe("The board in words, for hosts that show no app."),
    reads: z
      .record(z.string(), suggestionSchema)
      .describe("The calls the app reads through, by command; its own arguments go beside budget_profile."),
  },
  handler: (ctx, args) => {
    const asked = explicitTarget(args);
    const focused = asked === undefined ? focusOf(ctx.db, ctx.principal.agent_id) : undefined;
    const id = asked ?? focused;
    const target = id === undefined ? undefined : requireEntity(ctx.db, id);
    const reads = Object.fromEntries(
      Object.entries(BOARD_READS).map(([command, why]) => [command, suggest(command, { budget_profile: APP_BUDGET_PROFILE }, why)]),
    );
    return {
      what: args.what,
      workspace: ctx.workspace,
      agent_id: ctx.principal.agent_id,
      role: ctx.principal.role,
      tick: nowTick(ctx.db),
      target: target === undefined ? null : boardTarget(target),
      scope: scopeOf(asked, focused),
      summary: boardSummary(ctx, target),
      reads: reads as Record<string, never>,
    };
  },
});
