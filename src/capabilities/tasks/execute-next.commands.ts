/**
 * `tasks.execute.next` (seed 002's golden op `tasks execute.next`): the portal capsule on its own —
 * where you are, why, and 1 best + 1 backup action. The `status` portal and every portal answer carry
 * the same capsule.
 */
import { defineCommand } from "../../commands/registry";
import { focusCapsule } from "./capsule";
import { capsuleShape } from "./capsule.schema";

export const tasksExecuteNext = defineCommand({
  name: "tasks.execute.next",
  tool: "tasks_execute_next",
  title: "Next action",
  description:
    "Where you are (checkout, focus, step focus and its lease) and what to do next: 1 best + 1 backup action, ready to call. With a focus: open it, then snapshot it; with none: create a plan, or list tasks to pick one.",
  kind: "read",
  input: {},
  output: capsuleShape,
  handler: (ctx) => focusCapsule(ctx),
});
