/**
 * The answers suite's working set: a modest task as an agent leaves it after a day's work, seeded
 * through ordinary flat calls. A plan, a task under it with three steps (the agent's focus, the first step
 * done), notes on the task, step notes, hypotheses with evidence, a decision card and a trace of steps.
 * Fixed sizes, so the characters of the measured answers compare across revisions of the server.
 */
import type { Json, McpClient } from "../lib/mcp-http.ts";

/** Notes on the focused task (its notes document), step notes, hypothesis/evidence pairs, trace steps. */
export const ANSWERS_WORKING_SET = { taskNotes: 20, stepNotes: 8, hypotheses: 8, traceSteps: 16 } as const;
const STEP_TITLES = ["Profile the slow query", "Add the covering index", "Measure before and after"] as const;

export interface AnswersWorld {
  workspace: string;
  task: string;
}

/** 240-420 characters of varied text: what an agent's note on its work looks like. */
function prose(index: number, label: string): string {
  const words = ["query", "index", "plan", "scan", "rows", "latency", "cache", "budget", "median", "p95", "page", "branch", "seq"];
  let text = `${label} ${index}:`;
  const length = 240 + ((index * 37) % 181);
  for (let k = 0; text.length < length; k++) text += ` ${words[(index * 7 + k * 5) % words.length]}`;
  return text.slice(0, length);
}

export async function seedAnswers(client: McpClient, workspace: string): Promise<AnswersWorld> {
  const call = async (tool: string, args: Json): Promise<Json> => (await client.callTool(tool, { workspace, ...args })).value;
  const plan = await call("tasks_create", { title: "Make search fast" });
  if (plan.id !== "PLAN-001") throw new Error(`workspace ${workspace} is not fresh: its first plan is ${String(plan.id)}`);
  const task = await call("tasks_create", {
    parent: plan.id,
    title: "Speed up the search query",
    description: "The search page takes 2 s at p95; find why and fix it.",
    steps: STEP_TITLES.map((title) => ({ title })),
  });
  const taskId = String(task.id);
  const steps = (task.steps ?? []) as { id: string; path: string }[];
  if (steps.length !== STEP_TITLES.length)
    throw new Error(`tasks_create: expected ${STEP_TITLES.length} steps, got ${JSON.stringify(task)}`);
  await call("tasks_focus_set", { target: taskId });
  for (let i = 1; i <= ANSWERS_WORKING_SET.taskNotes; i++) await call("notes_commit", { target: taskId, content: prose(i, "note") });
  for (let i = 1; i <= ANSWERS_WORKING_SET.stepNotes; i++) await call("tasks_note", { task: taskId, note: prose(i, "step note") });
  for (let i = 1; i <= ANSWERS_WORKING_SET.hypotheses; i++) {
    await call("think_add_hypothesis", { id: `H${i}`, title: `Hypothesis ${i}`, text: prose(i, "because") });
    await call("think_add_evidence", { id: `E${i}`, title: `Evidence ${i}`, text: prose(i, "seen"), supports: [`H${i}`] });
  }
  await call("think_card", { card: { id: "D1", type: "decision", title: "Add a covering index", text: prose(1, "decided") } });
  for (let i = 1; i <= ANSWERS_WORKING_SET.traceSteps; i++) await call("trace_step", { step: `explore-${i}`, content: prose(i, "trace") });
  const first = steps[0];
  if (first === undefined) throw new Error("tasks_create: no first step");
  await call("tasks_close_step", { task: taskId, step_id: first.id, checkpoints: "gate" });
  return { workspace, task: taskId };
}
