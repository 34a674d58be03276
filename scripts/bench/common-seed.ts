/**
 * The common suite's workspace: the notes suite's store of `size` notes (with a one-deep chain, so
 * `diff` has a branch to compare) through the bulk path, then a small working set made by ordinary
 * calls, as an agent would: a plan and a focused task with steps, thinking cards, knowledge cards,
 * queued jobs, and Record-Sync records (by `workspace_import` record ops) of which a known few share a
 * rare word. The working set is the same at every size, so a command that grows with the size grows
 * with the number of notes.
 */
import { performance } from "node:perf_hooks";
import type { Json, McpClient } from "../lib/mcp-http.ts";
import { buildLayout } from "./layout.ts";
import { type Seeding, seed, verifyPage } from "./seed.ts";

/** The chain of the common suite's store: `chain/1`, for `diff`. */
export const COMMON_CHAIN_DEPTH = 1;
export const COMMON_STEPS = 5;
export const COMMON_CARDS = 50;
export const COMMON_KNOWLEDGE_CARDS = 10;
export const COMMON_JOBS = 20;
export const COMMON_RECORDS = 200;
/** One record in this many has the search word: `search_records` answers about 10 hits. */
export const SEARCH_WORD_EVERY = 20;
export const SEARCH_WORD = "lighthouse";
export const SEARCH_HITS = COMMON_RECORDS / SEARCH_WORD_EVERY;

/** What the measured ops refer to, as the seeding calls answered it. */
export interface CommonSetup {
  workspace: string;
  task: string;
  card: string;
  job: string;
  seeding: Seeding & { working_set_calls: number; working_set_ms: number };
}

function idOf(value: Json, field: string, what: string): string {
  const id = value[field];
  if (typeof id !== "string") throw new Error(`${what}: the answer has no ${field}`);
  return id;
}

function recordText(index: number): { title: string; summary: string; body: string } {
  const word = index % SEARCH_WORD_EVERY === 0 ? ` ${SEARCH_WORD}` : "";
  return {
    title: `Record ${index}: storage question${word}`,
    summary: `Which index serves query shape ${index % 17}?`,
    body: `Measured under load; shape ${index % 17}, variant ${index % 5}.${word}`,
  };
}

export async function seedCommon(client: McpClient, workspace: string, size: number): Promise<CommonSetup> {
  const layout = buildLayout(size, COMMON_CHAIN_DEPTH);
  const notes = await seed(client, workspace, layout);
  await verifyPage(client, workspace, layout, "main");
  const started = performance.now();
  let calls = 0;
  const call = async (tool: string, args: Json): Promise<Json> => {
    calls++;
    return (await client.callTool(tool, { workspace, ...args })).value;
  };
  const plan = idOf(await call("tasks_create", { title: "Benchmark plan" }), "id", "tasks_create plan");
  const task = idOf(await call("tasks_create", { parent: plan, title: "Benchmark task" }), "id", "tasks_create task");
  await call("tasks_decompose", { task, steps: Array.from({ length: COMMON_STEPS }, (_, i) => ({ title: `Step ${i + 1}` })) });
  await call("tasks_focus_set", { target: task });
  let card = "";
  for (let i = 0; i < COMMON_CARDS; i++) {
    card = idOf(await call("think_card", { card: `Hypothesis ${i}: the index covers shape ${i % 17}` }), "card_id", "think_card");
  }
  for (let i = 0; i < COMMON_KNOWLEDGE_CARDS; i++) {
    await call("knowledge_upsert", { anchor: "a:storage", key: `fact-${i}`, card: `Claim: fact ${i} about storage holds` });
  }
  let job = "";
  for (let i = 0; i < COMMON_JOBS; i++) {
    const created = await call("jobs_create", { title: `Review ${i}`, prompt: `Review part ${i} of the parser.` });
    job = idOf(created.job as Json, "id", "jobs_create");
  }
  const records = Array.from({ length: COMMON_RECORDS }, (_, i) => ({ op: "record", type: "question", ...recordText(i) }));
  const imported = await call("workspace_import", { ops: records });
  if (imported.records_imported !== COMMON_RECORDS) {
    throw new Error(`seeding ${workspace}: imported ${String(imported.records_imported)} records, expected ${COMMON_RECORDS}`);
  }
  return {
    workspace,
    task,
    card,
    job,
    seeding: { ...notes, working_set_calls: calls, working_set_ms: performance.now() - started },
  };
}
