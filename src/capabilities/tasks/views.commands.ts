/**
 * Read views of tasks: radar (now / why / verify / next / blockers of one plan or task, with its
 * reasoning_ref), context (paged lists of plans and tasks, each task with what it waits for and who
 * has taken it), and delta (task events since a tick). Reads derive everything; they never create
 * branches or documents.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { focusOf } from "../../place/focus.store";
import { reasoningRefSchema, TASK_STATUSES, targetFields, targetSchema } from "../../place/target.schema";
import { explicitTarget, reasoningRef, resolveTarget } from "../../place/targets";
import type { EntityRow } from "../../place/targets.store";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "../../shared/limits";
import { pagination, paginationSchema, repairPagination } from "../docs/paging";
import { type TaskMarks, taskMarks } from "./dependency-view";
import { radarSchema, radarView } from "./radar";
import { eventsAfter } from "./task-events.store";
import { entitySchema, eventSchema, stepSchema } from "./tasks.schema";
import { countEntities, listEntities, toEntity } from "./tasks.store";

export const tasksRadar = defineCommand({
  name: "tasks.radar",
  tool: "tasks_radar",
  title: "Where a task stands",
  description:
    "One plan or task at a glance: now (what it is), why (description or contract), verify (missing checkpoints), next (the single next move), blockers, step counts, its reasoning_ref. Target defaults to your focus.",
  kind: "read",
  input: { ...targetFields },
  // The radar's lists give way first, the least urgent (the later lines) first; the target and its ref stay.
  // Its small form leaves out the target's long fields, the steps and the horizon: what it is and what next.
  budget: {
    lists: ["radar.next", "radar.verify", "radar.blockers"],
    keep: [],
    trimFromEnd: true,
    stubs: (original) => {
      const target = original.target as Record<string, unknown>;
      const radar = original.radar as { now: string; next: string[]; blockers: string[] };
      return [
        {
          requested: original.requested,
          focus: original.focus,
          target: Object.fromEntries(["id", "kind", "title", "status", "revision"].map((key) => [key, target[key]])),
          reasoning_ref: original.reasoning_ref,
          radar: { now: radar.now, next: radar.next.slice(0, 1), blockers: radar.blockers.slice(0, 1) },
        },
      ];
    },
  },
  output: {
    requested: z.object({ target: z.string().nullable() }),
    focus: z.string().nullable(),
    target: entitySchema,
    reasoning_ref: reasoningRefSchema,
    radar: radarSchema,
    steps: z
      .object({
        total: z.number(),
        open: z.number(),
        completed: z.number(),
        blocked: z.number(),
        missing: z.record(z.string(), z.number()),
        first_open: stepSchema.optional(),
      })
      .optional(),
    horizon: z
      .object({
        active: z.number(),
        backlog: z.number(),
        parked: z.number(),
        done: z.number(),
        canceled: z.number(),
        total: z.number(),
        active_limit: z.number(),
        over_active_limit: z.boolean(),
      })
      .optional(),
  },
  handler: (ctx, args) => {
    const entity = resolveTarget(ctx, args, "tasks_radar");
    const focus = focusOf(ctx.db, ctx.principal.agent_id) ?? null;
    const requested = { target: typeof args.target === "string" ? args.target : (args.target?.id ?? args.task ?? args.plan ?? null) };
    return { requested, focus, target: toEntity(entity), reasoning_ref: reasoningRef(entity.id), ...radarView(ctx, entity) };
  },
});

const itemSchema = z.object({
  id: z.string(),
  kind: z.enum(["plan", "task"]),
  plan_id: z.string().optional(),
  title: z.string(),
  status: z.enum(TASK_STATUSES),
  revision: z.number(),
  created_at_ms: z.number(),
  updated_at_ms: z.number(),
  blocked_by: z.array(z.string()).optional().describe("Task: the unfinished tasks it waits for (when there are any)."),
  taken_by: z.string().optional().describe("Task: the agent that has taken it (tasks_take), while its claim lasts."),
});

function listItem(row: EntityRow, marks: TaskMarks | undefined) {
  const entity = toEntity(row);
  return {
    id: entity.id,
    kind: entity.kind,
    ...(entity.plan_id ? { plan_id: entity.plan_id } : {}),
    title: entity.title,
    status: entity.status,
    revision: entity.revision,
    created_at_ms: entity.created_at_ms,
    updated_at_ms: entity.updated_at_ms,
    ...marks,
  };
}

/** Pagination of an id-ordered list: the cursor is the last id shown. */
const idPaginationSchema = z.object({
  cursor: z.string().nullable(),
  next_cursor: z.string().optional(),
  has_more: z.boolean(),
  limit: z.number(),
  count: z.number(),
});

/** Budget hook for the two id-ordered lists: after items were dropped from a list's end, its cursor continues after the last one shown. */
function repairIdPages(payload: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> {
  const repaired = { ...payload };
  for (const [listKey, pageKey] of [
    ["plans", "plans_pagination"],
    ["tasks", "tasks_pagination"],
  ] as const) {
    const list = payload[listKey] as { id: string }[] | undefined;
    const before = original[listKey] as unknown[] | undefined;
    const page = payload[pageKey] as { cursor: string | null; next_cursor?: string; count: number } | undefined;
    if (!list || !before || !page || list.length === before.length) continue;
    const last = list[list.length - 1]?.id ?? page.cursor;
    const { next_cursor: _dropped, ...rest } = page;
    repaired[pageKey] = { ...rest, count: list.length, has_more: true, ...(last ? { next_cursor: last } : {}) };
  }
  return repaired;
}

const idCursor = z
  .string()
  .regex(/^(PLAN|TASK)-[0-9]{3,}$/)
  .optional();

export const tasksContext = defineCommand({
  name: "tasks.context",
  tool: "tasks_context",
  title: "List plans and tasks",
  description:
    "Paged lists of plans and tasks in id order, with counts; a task shows blocked_by (what it waits for) and taken_by. Filters: plans_status, tasks_status, tasks_parent (a plan). Continue with plans_cursor / tasks_cursor = next_cursor. Ignores your focus.",
  kind: "read",
  input: {
    plans_status: z.array(z.enum(TASK_STATUSES)).max(5).optional(),
    tasks_status: z.array(z.enum(TASK_STATUSES)).max(5).optional(),
    tasks_parent: z
      .string()
      .regex(/^PLAN-[0-9]{3,}$/)
      .optional(),
    plans_limit: z.number().int().min(0).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
    tasks_limit: z.number().int().min(0).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
    plans_cursor: idCursor,
    tasks_cursor: idCursor,
  },
  output: {
    counts: z.object({ plans: z.number(), tasks: z.number(), capped: z.boolean() }),
    plans: z.array(itemSchema),
    tasks: z.array(itemSchema),
    plans_pagination: idPaginationSchema,
    tasks_pagination: idPaginationSchema,
  },
  budget: { lists: ["tasks", "plans"], keep: ["id", "kind", "status"], trimFromEnd: true, repair: repairIdPages },
  handler: (ctx, args) => {
    const page = (
      kind: "plan" | "task",
      limit: number,
      cursor: string | undefined,
      filter: { planId?: string | undefined; statuses?: string[] | undefined },
    ) => {
      const rows = limit === 0 ? [] : listEntities(ctx.db, { kind, ...filter, after: cursor }, limit);
      const shown = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      // What the page's tasks wait for and who holds them: two statements for the whole page.
      const ids = kind === "task" ? shown.map((row) => row.id) : [];
      const marks = taskMarks(ctx.db, ids);
      return {
        items: shown.map((row) => listItem(row, marks.get(row.id))),
        pagination: {
          cursor: cursor ?? null,
          ...(hasMore ? { next_cursor: shown[shown.length - 1]?.id as string } : {}),
          has_more: hasMore,
          limit,
          count: shown.length,
        },
      };
    };
    const plans = page("plan", args.plans_limit, args.plans_cursor, { statuses: args.plans_status });
    const tasks = page("task", args.tasks_limit, args.tasks_cursor, { planId: args.tasks_parent, statuses: args.tasks_status });
    return {
      counts: countEntities(ctx.db),
      plans: plans.items,
      tasks: tasks.items,
      plans_pagination: plans.pagination,
      tasks_pagination: tasks.pagination,
    };
  },
});

export const tasksDelta = defineCommand({
  name: "tasks.delta",
  tool: "tasks_delta",
  title: "Task events since a tick",
  description:
    "Task events of the whole workspace after tick `since` (default 0), oldest first, at most `limit`. Continue with since = next_cursor. Ignores your focus; filter with target.",
  kind: "read",
  input: {
    since: z.number().int().min(0).default(0).describe("A tick: events with a greater tick are returned."),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
    target: targetSchema.optional().describe("Only this plan's or task's events (also after it was deleted)."),
  },
  output: { since: z.number(), events: z.array(eventSchema), pagination: paginationSchema },
  // Forward pages: the budget drops from the end, and the cursor continues after the last event shown.
  budget: {
    lists: ["events"],
    keep: ["event_id", "tick", "type", "task", "path"],
    trimFromEnd: true,
    repair: repairPagination("events", { trimFromEnd: true, seqKey: "tick" }),
  },
  handler: (ctx, args) => {
    const target = explicitTarget({ target: args.target });
    const rows = eventsAfter(ctx.db, args.since, args.limit + 1, target);
    const events = rows.slice(0, args.limit);
    const last = events[events.length - 1];
    return {
      since: args.since,
      events,
      pagination: pagination(args.since, rows.length > args.limit, last?.tick, args.limit, events.length),
    };
  },
});
