/**
 * Puts the cards suite's workspace together: the focused task by ordinary calls (a plan, a task, its
 * steps, the focus: what `tasks_snapshot` answers gives the open step's tag), then every card, edge,
 * branch and note of the layout through `workspace_import` alone, in order, each call under the
 * server's limits and made by the agent whose lane the cards are in (drafts of `agent/alice` can only
 * be written by alice). Every call's counts are checked against what it sent, and the time is kept.
 */
import { performance } from "node:perf_hooks";
import { log } from "../lib/dev-server.ts";
import type { Json, McpClient } from "../lib/mcp-http.ts";
import { BENCH_AGENT, type CardStep, type GraphOp, PLACES, TASK_ID } from "./cards-layout.ts";

/** Server limits of one import call (workspace.commands.ts, graph.schema.ts), and a body safely under 1 MiB. */
const MAX_ITEMS = 2_000;
const MAX_GRAPH_OPS_PER_CALL = 5_000;
const MAX_OPS_PER_ITEM = 500;
const MAX_BODY_BYTES = 900_000;
const ITEM_OVERHEAD_BYTES = 96;
const TASK_STEPS = ["Profile the slow reads", "Try the term index", "Measure at 100,000 cards"];

type ImportItem =
  | { op: "branch"; name: string; from: string }
  | { op: "note"; branch: string; doc: string; title: string; content: string }
  | { op: "graph"; branch: string; doc: string; ops: GraphOp[] };

interface Batch {
  agent: string;
  items: ImportItem[];
  graphOps: number;
  branches: number;
  notes: number;
}

export interface CardsSeeding {
  /** The task by ordinary calls. */
  setup_ms: number;
  setup_calls: number;
  /** The imports. */
  ms: number;
  calls: number;
  graph_ops: number;
  branches: number;
  notes: number;
  graph_ops_per_s: number;
  max_call_ms: number;
}

/** What the measured ops refer to. */
export interface CardsWorld {
  workspace: string;
  task: string;
  step: string;
  stepTag: string;
}

/** The next call's worth of steps (one agent's), from `at`; returns the batch and where the next one starts. */
function nextBatch(steps: readonly CardStep[], at: number): { batch: Batch; next: number } | undefined {
  const first = steps[at];
  if (first === undefined) return undefined;
  const agent = first.kind === "graph" ? first.agent : BENCH_AGENT;
  const batch: Batch = { agent, items: [], graphOps: 0, branches: 0, notes: 0 };
  let bytes = 0;
  let i = at;
  for (; i < steps.length; i++) {
    const step = steps[i] as CardStep;
    if ((step.kind === "graph" ? step.agent : BENCH_AGENT) !== agent) break;
    const last = batch.items[batch.items.length - 1];
    const joins =
      step.kind === "graph" &&
      last?.op === "graph" &&
      last.branch === step.branch &&
      last.doc === step.doc &&
      last.ops.length < MAX_OPS_PER_ITEM;
    const stepBytes = Buffer.byteLength(JSON.stringify(step.kind === "graph" ? step.op : step)) + (joins ? 1 : ITEM_OVERHEAD_BYTES);
    const full =
      bytes + stepBytes > MAX_BODY_BYTES ||
      (!joins && batch.items.length >= MAX_ITEMS) ||
      (step.kind === "graph" && batch.graphOps >= MAX_GRAPH_OPS_PER_CALL);
    if (full && batch.items.length > 0) break;
    bytes += stepBytes;
    if (step.kind === "branch") {
      batch.items.push({ op: "branch", name: step.name, from: step.from });
      batch.branches++;
    } else if (step.kind === "note") {
      batch.items.push({ op: "note", branch: step.branch, doc: step.doc, title: step.title, content: step.content });
      batch.notes++;
    } else {
      batch.graphOps++;
      if (joins && last?.op === "graph") last.ops.push(step.op);
      else batch.items.push({ op: "graph", branch: step.branch, doc: step.doc, ops: [step.op] });
    }
  }
  return { batch, next: i };
}

/** Imports `steps` in order, each batch by its agent's client; checks every call's counts. */
export async function importSteps(
  workspace: string,
  steps: readonly CardStep[],
  clientOf: (agent: string) => McpClient,
): Promise<Omit<CardsSeeding, "setup_ms" | "setup_calls">> {
  const totals = { calls: 0, graph_ops: 0, branches: 0, notes: 0, max_call_ms: 0 };
  const started = performance.now();
  let current = nextBatch(steps, 0);
  while (current !== undefined) {
    const { batch } = current;
    const call = clientOf(batch.agent).callTool("workspace_import", { workspace, ops: batch.items });
    const following = nextBatch(steps, current.next);
    const { ms, value } = await call;
    if (value.graph_ops_applied !== batch.graphOps || value.branches_created !== batch.branches || value.notes_imported !== batch.notes) {
      throw new Error(
        `seeding ${workspace}, call ${totals.calls + 1} (${batch.agent}): sent ${batch.graphOps} graph ops, ${batch.branches} branches, ` +
          `${batch.notes} notes; the server applied ${String(value.graph_ops_applied)}, ${String(value.branches_created)}, ${String(value.notes_imported)}`,
      );
    }
    totals.calls++;
    totals.graph_ops += batch.graphOps;
    totals.branches += batch.branches;
    totals.notes += batch.notes;
    totals.max_call_ms = Math.max(totals.max_call_ms, ms);
    if (totals.calls % 25 === 0 || following === undefined) {
      const seconds = (performance.now() - started) / 1000;
      log(
        `  imported ${totals.graph_ops.toLocaleString("en-US")} graph ops in ${seconds.toFixed(1)} s (${Math.round(totals.graph_ops / seconds)}/s)`,
      );
    }
    current = following;
  }
  const ms = performance.now() - started;
  return { ...totals, ms, graph_ops_per_s: totals.graph_ops / (ms / 1000) };
}

function text(value: unknown, what: string): string {
  if (typeof value !== "string") throw new Error(`${what}: expected a string, got ${JSON.stringify(value)}`);
  return value;
}

/** The focused task with an open step, by ordinary calls, in a fresh workspace; answers the step and its tag. */
export async function setupTask(client: McpClient, workspace: string): Promise<{ world: CardsWorld; ms: number; calls: number }> {
  const started = performance.now();
  let calls = 0;
  const call = async (tool: string, args: Json): Promise<Json> => {
    calls++;
    return (await client.callTool(tool, { workspace, ...args })).value;
  };
  const plan = await call("tasks_create", { title: "Keep card reads flat" });
  if (plan.id !== "PLAN-001") throw new Error(`workspace ${workspace} is not fresh: its first plan is ${String(plan.id)}`);
  const task = text((await call("tasks_create", { parent: plan.id, title: "Read 100,000 cards as fast as 1,000" })).id, "tasks_create");
  if (task !== TASK_ID) throw new Error(`the task is ${task}, expected ${TASK_ID} (PLACES.task names its reasoning ref)`);
  await call("tasks_decompose", { task, steps: TASK_STEPS.map((title) => ({ title })) });
  await call("tasks_focus_set", { target: task });
  const snapshot = await call("tasks_snapshot", {});
  const focus = snapshot.step_focus as { step?: { id?: unknown } } | null;
  const step = text(focus?.step?.id, "tasks_snapshot step_focus.step.id");
  const reasoning = snapshot.reasoning_ref as { branch?: unknown; graph_doc?: unknown } | undefined;
  if (reasoning?.branch !== PLACES.task.branch || reasoning.graph_doc !== PLACES.task.graphDoc) {
    throw new Error(
      `tasks_snapshot: reasoning ref ${JSON.stringify(reasoning)}, expected ${PLACES.task.branch} and ${PLACES.task.graphDoc}`,
    );
  }
  return { world: { workspace, task, step, stepTag: `step:${step.toLowerCase()}` }, ms: performance.now() - started, calls };
}
