/**
 * `visualize`: what a host's app (docs/app.md) needs to start drawing the caller's memory, as an
 * ordinary bounded answer. A host that renders MCP Apps shows the app the Worker attaches to this tool;
 * any other host shows the answer as text, so it carries the view in words too (`summary`).
 *
 * Three views: `tasks` (the task board), `graph` (the reasoning graph: frontier, untested hypotheses,
 * conflicts) and `session` (a Record-Sync session: its active records, staleness, what others changed).
 * Each answer names the workspace, the caller and its role, the view's scope and the reads the app
 * makes: each a suggested call rendered for the connection that asked (its portal envelope, or its
 * flat tool), carrying `budget_profile` where the command's own arguments go. The app adds its
 * arguments beside `budget_profile`, so it calls only tools the connection lists and needs no rule of
 * its own about toolsets. Read-only: it writes nothing; the graph view's one write (deciding a
 * conflict) is offered as `writes` only to a role that may write.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { focusOf } from "../../place/focus.store";
import { targetFields } from "../../place/target.schema";
import { explicitTarget } from "../../place/targets";
import { type EntityRow, requireEntity } from "../../place/targets.store";
import { suggest, suggestionSchema } from "../../shared/suggestion";
import { branchArg, docSchema } from "../docs/docs.schema";
import { sessionIdSchema } from "../records/records.schema";
import { nowTick } from "../tasks/leases.store";
import { boardSummary } from "./board-summary";
import { graphFacts } from "./graph-facts";
import { sessionFacts } from "./session-facts";

/** The views the app draws. */
export const VISUAL_VIEWS = ["tasks", "graph", "session"] as const;

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

const graphPlaceSchema = z.object({ branch: z.string(), graph_doc: z.string(), target: z.string().optional() });

const sessionFactsSchema = z.object({
  session_id: z.string(),
  agent_id: z.string(),
  status: z.enum(["active", "stale", "closed"]),
  last_sync_tick: z.number(),
  tick_gap: z.number(),
  project_tick: z.number(),
  active_records: z
    .array(z.object({ id: z.string(), type: z.string(), title: z.string(), state: z.string() }))
    .describe("The first active records, with their titles."),
  active_record_ids: z.array(z.string()).describe("Every active record's id, up to the session's cap."),
  active_records_total: z.number(),
  changed_by_others: z.number().describe("Records other sessions changed since this one's last sync."),
  changed_by_others_capped: z.boolean(),
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
  title: "Show the memory in the chat",
  // Every session pays for this line in the default listing: the answer says the rest.
  description: "Your memory as an app in the chat: task board, reasoning graph, Record-Sync session.",
  kind: "read",
  input: {
    what: z
      .enum(VISUAL_VIEWS)
      .default("tasks")
      .describe("tasks (plan → tasks → steps), graph (frontier, untested hypotheses, conflicts) or session (Record-Sync)."),
    ...targetFields,
    branch: branchArg.optional().describe("graph: the branch (default: your focus's reasoning branch, else your checkout)."),
    graph_doc: docSchema.optional().describe("graph: the graph doc (default `graph`)."),
    session_id: sessionIdSchema.optional().describe("session: which one (default: your newest open session)."),
  },
  output: {
    what: z.enum(VISUAL_VIEWS),
    workspace: z.string(),
    agent_id: z.string(),
    role: z.enum(["read", "write", "admin"]),
    tick: z.number().describe("The workspace tick now: leases expire on it."),
    target: boardTargetSchema
      .nullable()
      .optional()
      .describe("tasks: the plan or task shown first: the one asked for, else your focus, else none."),
    scope: z.enum(["argument", "focus", "none"]).optional().describe("tasks: where target came from."),
    graph: graphPlaceSchema.optional().describe("graph: the branch and graph doc shown."),
    session: sessionFactsSchema.nullable().optional().describe("session: the session shown, or null when you have none open."),
    summary: z.string().describe("The view in words, for hosts that show no app."),
    reads: z
      .record(z.string(), suggestionSchema)
      .describe("The calls the app reads through, by command; its own arguments go beside budget_profile."),
    writes: z.record(z.string(), suggestionSchema).optional().describe("graph, a role that may write: the call that decides a conflict."),
  },
  handler: (ctx, args) => {
    const common = {
      what: args.what,
      workspace: ctx.workspace,
      agent_id: ctx.principal.agent_id,
      role: ctx.principal.role,
      tick: nowTick(ctx.db),
    };
    const asked = explicitTarget(args);
    if (args.what === "graph") return { ...common, ...graphFacts(ctx, asked, args, APP_BUDGET_PROFILE) };
    if (args.what === "session") return { ...common, ...sessionFacts(ctx, args.session_id, APP_BUDGET_PROFILE) };
    const focused = asked === undefined ? focusOf(ctx.db, ctx.principal.agent_id) : undefined;
    const id = asked ?? focused;
    const target = id === undefined ? undefined : requireEntity(ctx.db, id);
    const reads = Object.fromEntries(
      Object.entries(BOARD_READS).map(([command, why]) => [command, suggest(command, { budget_profile: APP_BUDGET_PROFILE }, why)]),
    );
    return {
      ...common,
      target: target === undefined ? null : boardTarget(target),
      scope: scopeOf(asked, focused),
      summary: boardSummary(ctx, target),
      reads,
    };
  },
});
