/**
 * `tasks.execute.next` (seed 002's golden op `tasks execute.next`): the next-action engine on its own —
 * where you are, why, and 1 best + 1 backup action as portal calls. The `status` portal and every
 * portal capsule show the same answer.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { nextState } from "../system/next-engine";

const actionSchema = z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()), purpose: z.string() });

export const nextStateSchema = {
  where: z.object({
    workspace: z.string(),
    branch: z.string(),
    focus: z.string().nullable(),
    step_focus: z
      .object({
        step_id: z.string(),
        path: z.string(),
        title: z.string(),
        lease: z.object({ holder: z.string(), expires_tick: z.number() }).optional(),
      })
      .nullable(),
    lane: z.string(),
  }),
  why: z.array(z.string()),
  next: z.object({ action: actionSchema, backup: actionSchema }),
};

export const tasksExecuteNext = defineCommand({
  name: "tasks.execute.next",
  tool: "tasks_execute_next",
  title: "Next action",
  description:
    "Where you are (checkout, focus, step focus and its lease) and what to do next: 1 best + 1 backup action as portal calls. With a focus: open it, then snapshot it; with none: create a plan, or list tasks to pick one.",
  kind: "read",
  input: {},
  output: nextStateSchema,
  handler: (ctx) => nextState(ctx),
});
