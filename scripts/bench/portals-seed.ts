/**
 * The portals suite's workspace, seeded through ordinary flat calls: a plan, a task under it with three
 * steps (the agent's focus), SEEDED_MAIN_NOTES notes on `main` and SEEDED_TASK_NOTES notes on the task.
 * Small on purpose: every measured read is a bounded page or a fixed-size view, so the numbers are the
 * cost of the call path, not of the store. Then one checked call of every op, recording what each
 * answer holds (characters of its `structuredContent`, its budget; for `tools/list`, the whole body).
 */
import { performance } from "node:perf_hooks";
import type { Json, McpClient } from "../lib/mcp-http.ts";
import {
  callOp,
  checkAnswer,
  type Listing,
  PORTAL_OPS,
  type PortalOpName,
  type PortalsTarget,
  type PortalsWorld,
  SHOW_LIMIT,
} from "./portals-measure.ts";

/** Notes on `main`/`notes`: more than a `show` page, so the page is full and its seqs known. */
export const SEEDED_MAIN_NOTES = 30;
/** Notes on the focused task (its notes doc on its reasoning branch), read by the snapshot. */
export const SEEDED_TASK_NOTES = 4;
export const STEP_TITLES = ["Seed the workspace", "Measure the pairs", "Write the report"] as const;

export interface PortalsSeeding {
  ms: number;
  calls: number;
  main_notes: number;
  task_notes: number;
  steps: number;
}

/** What one checked answer held: the characters of its payload, its budget, and for listings the body. */
export interface AnswerSize {
  /** `structuredContent` as compact JSON (for `tools/list`: the `result.tools` array). */
  chars: number;
  /** Characters of the capsule inside it (0 without one). */
  capsule_chars: number;
  budget_used_chars: number | null;
  budget_max_chars: number | null;
  /** `tools/list` only: the response body, in characters and in UTF-8 bytes, and the number of tools. */
  body_chars?: number;
  body_bytes?: number;
  tools?: number;
}

/** 70-110 characters of varied text: a page of 20 with the capsule fits the portal profile (6,000) untrimmed. */
function noteContent(index: number, label: string): string {
  const words = ["cache", "layer", "reads", "writes", "branch", "seq", "index", "page", "budget", "capsule", "focus", "step"];
  let text = `${label} ${index}:`;
  const length = 70 + ((index * 37) % 41);
  for (let k = 0; text.length < length; k++) text += ` ${words[(index * 7 + k * 5) % words.length]}`;
  return text.slice(0, length);
}

async function call(client: McpClient, tool: string, args: Json, counter: { calls: number }): Promise<Json> {
  counter.calls++;
  return (await client.callTool(tool, args)).value;
}

export async function seedPortals(
  client: McpClient,
  workspace: string,
  agent: string,
): Promise<{ world: PortalsWorld; seeding: PortalsSeeding }> {
  const counter = { calls: 0 };
  const started = performance.now();
  const plan = await call(client, "tasks_create", { workspace, title: "Bench plan: what the portals cost" }, counter);
  if (plan.id !== "PLAN-001") throw new Error(`workspace ${workspace} is not fresh: its first plan is ${String(plan.id)}`);
  const task = await call(
    client,
    "tasks_create",
    {
      workspace,
      parent: plan.id,
      title: "Measure portal overhead",
      description: "Flat tools against their portals, same calls",
      steps: STEP_TITLES.map((title) => ({ title })),
    },
    counter,
  );
  const steps = (task.steps ?? []) as { id: string; path: string }[];
  const first = steps[0];
  if (typeof task.id !== "string" || steps.length !== STEP_TITLES.length || first === undefined) {
    throw new Error(`tasks_create on ${workspace}: expected a task with ${STEP_TITLES.length} steps, got ${JSON.stringify(task)}`);
  }
  const showSeqs: number[] = [];
  let lastSeq = 0;
  for (let i = 0; i < SEEDED_MAIN_NOTES; i++) {
    const { entry } = (await call(client, "notes_commit", { workspace, doc: "notes", content: noteContent(i, "main note") }, counter)) as {
      entry: { seq: number; branch: string };
    };
    if (entry.branch !== "main") throw new Error(`notes_commit doc notes on ${workspace} went to ${entry.branch}, not main`);
    showSeqs.push(entry.seq);
    lastSeq = entry.seq;
  }
  for (let i = 0; i < SEEDED_TASK_NOTES; i++) {
    const { entry } = (await call(
      client,
      "notes_commit",
      { workspace, target: task.id, content: noteContent(i, "task note") },
      counter,
    )) as {
      entry: { seq: number };
    };
    lastSeq = entry.seq;
  }
  await call(client, "tasks_focus_set", { workspace, target: task.id }, counter);
  const world: PortalsWorld = {
    workspace,
    agent,
    plan: plan.id,
    task: task.id,
    step: { id: first.id, path: first.path },
    showSeqs: showSeqs.slice(-SHOW_LIMIT),
    lastSeq,
  };
  const seeding: PortalsSeeding = {
    ms: performance.now() - started,
    calls: counter.calls,
    main_notes: SEEDED_MAIN_NOTES,
    task_notes: SEEDED_TASK_NOTES,
    steps: steps.length,
  };
  return { world, seeding };
}

function sizeOf(op: PortalOpName, value: Json, listing: Listing | undefined): AnswerSize {
  const budget = value.budget as { used_chars?: number; max_chars?: number } | undefined;
  const size: AnswerSize = {
    chars: JSON.stringify(listing === undefined ? value : value.tools).length,
    capsule_chars: op.startsWith("list_") || value.capsule === undefined ? 0 : JSON.stringify(value.capsule).length,
    budget_used_chars: budget?.used_chars ?? null,
    budget_max_chars: budget?.max_chars ?? null,
  };
  if (listing !== undefined) {
    size.body_chars = listing.chars;
    size.body_bytes = listing.bytes;
    size.tools = listing.names.length;
  }
  return size;
}

/** One checked call of every op before measuring (the writes among them land like measured ones); what each answer held. */
export async function checkPortals(target: PortalsTarget, world: PortalsWorld): Promise<Record<PortalOpName, AnswerSize>> {
  const sizes = {} as Record<PortalOpName, AnswerSize>;
  for (const op of PORTAL_OPS) {
    const result = await callOp(target, world, op, -1);
    checkAnswer(op, result, world);
    sizes[op] = sizeOf(op, result.value, op.startsWith("list_") ? (result as Listing) : undefined);
  }
  return sizes;
}
