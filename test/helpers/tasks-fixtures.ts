/** A plan holding one task (with the given steps), as the tasks tests start from: tasks_create twice. */
import { ok } from "./mcp";

export async function planWithTask(workspace: string, steps: { title: string; success_criteria?: string[]; tests?: string[] }[] = []) {
  const plan = await ok("tasks_create", { workspace, title: "Ship the cache" });
  const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Add an LRU layer", description: "Reads are slow", steps });
  return { plan: plan.id as string, task: task.id as string, created: task };
}
