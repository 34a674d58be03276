/**
 * The seeded workspace the budget properties run on (test/budget-ladder.test.ts, test/budget-paging.test.ts),
 * the read commands they call, and what they count in an answer: its ids.
 */
import { COMMANDS } from "../../src/catalog/catalog";
import { ok } from "./mcp";

export const FULL = { path: "/mcp?toolset=full" };

export type Answer = Record<string, any>;

/** Every workspace read that takes a character budget: the budget properties' command list. */
export const READS = COMMANDS.filter(
  (command) => command.kind === "read" && command.scope === "workspace" && "max_chars" in command.input.shape,
);

/** A seeded state: `scale` multiplies its notes, step notes and cards (1: modest, 3: a working week). */
export async function seed(workspace: string, scale: number): Promise<void> {
  const long = (label: string) => `${label}: ${"a measured observation with its context ".repeat(12)}`;
  const start = await ok("tasks_macro_start", { workspace, title: "Speed up search" }, FULL);
  for (let i = 1; i <= 10 * scale; i++) await ok("notes_commit", { workspace, content: long(`note ${i}`) }, FULL);
  for (let i = 1; i <= 4 * scale; i++) await ok("tasks_note", { workspace, task: start.task_id, note: long(`step note ${i}`) }, FULL);
  for (let i = 1; i <= 5 * scale; i++) {
    await ok("think_add_hypothesis", { workspace, id: `H${i}`, title: `Hypothesis ${i}`, text: long("why") }, FULL);
    await ok("think_add_evidence", { workspace, id: `E${i}`, title: `Evidence ${i}`, text: long("seen"), supports: [`H${i}`] }, FULL);
  }
  await ok("trace_step", { workspace, step: "explore", content: long("trace") }, FULL);
  // What the example calls of docs/commands.md name: a branch, CARD-1, JOB-001, a code slice, R001 in two versions.
  await ok("branch_create", { workspace, name: "experiment" }, FULL);
  await ok("notes_commit", { workspace, branch: "experiment", content: long("on the branch") }, FULL);
  await ok("think_card", { workspace, card: { id: "CARD-1", type: "decision", title: "Use BM25", text: long("because") } }, FULL);
  await ok("jobs_create", { workspace, title: "Review the ranking", prompt: long("prompt") }, FULL);
  const text = "export const a = 1;\nexport const b = 2;\n";
  await ok("code_ref_attach", { workspace, path: "src/app.ts", start_line: 1, end_line: 2, text }, FULL);
  await ok("create_record", { workspace, type: "decision", title: "Ranking", summary: "BM25", body: long("body") }, FULL);
  await ok("update_record", { workspace, id: "R001", body: long("revised") }, FULL);
}

/** Items seedPages adds to each list: more than one page of each holds at budgets from 800 to 2,000 characters. */
const PAGED_ITEMS = 16;

/**
 * More items for the lists the paging properties follow (test/budget-paging*.test.ts) than one page holds
 * at a small budget: commits (and the reflog they write), tags, branches, merge conflicts into main,
 * record versions (and their activity), knowledge cards and anchors. Runs after `seed`.
 */
export async function seedPages(workspace: string): Promise<void> {
  const w = { workspace };
  const words = (label: string) => `${label}: ${"a line of detail ".repeat(6)}`;
  const node = (i: number, title: string) => ({ op: "node_upsert", id: `K${i}`, type: "hypothesis", title });
  const keys = Array.from({ length: PAGED_ITEMS }, (_, index) => index + 1);
  await ok("graph_apply", { ...w, branch: "main", ops: keys.map((i) => node(i, words(`base ${i}`))) }, FULL);
  await ok("branch_create", { ...w, name: "clash", from: "main" }, FULL);
  await ok("graph_apply", { ...w, branch: "clash", ops: keys.map((i) => node(i, words(`theirs ${i}`))) }, FULL);
  await ok("graph_apply", { ...w, branch: "main", ops: keys.map((i) => node(i, words(`ours ${i}`))) }, FULL);
  await ok("graph_merge", { ...w, from: "clash", into: "main" }, FULL);
  for (const i of keys) {
    const made = await ok("commit", { ...w, artifact: words(`commit ${i}`), message: words(`release ${i}`) }, FULL);
    await ok(
      "tag_create",
      { ...w, name: `release-candidate-${String(i).padStart(2, "0")}`, seq: made.commit.seq, message: words(`tag ${i}`) },
      FULL,
    );
    await ok("branch_create", { ...w, name: `lane/${String(i).padStart(2, "0")}` }, FULL);
    await ok("update_record", { ...w, id: "R001", body: words(`revision ${i}`) }, FULL);
    await ok(
      "knowledge_upsert",
      { ...w, anchor: "a:storage", key: `fact-${i}`, card: `Claim: ${words(`fact ${i}`)}\nScope: storage` },
      FULL,
    );
  }
  const anchors = keys.map((i) => ({ id: `a:part-${i}`, title: words(`part ${i}`), kind: "component", refs: [`path:src/part${i}`] }));
  await ok("anchors_bootstrap", { ...w, anchors }, FULL);
}

const ID_KEYS = new Set(["id", "seq", "card_id", "event_id", "step_id", "record_id", "session_id", "job", "conflict_id"]);

/** The ids an answer names (outside its warnings, budget and capsule): what a larger budget must keep. */
export function idsOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) idsOf(item, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "warnings" || key === "budget" || key === "capsule") continue;
      if (ID_KEYS.has(key) && (typeof inner === "string" || typeof inner === "number")) out.add(`${key}:${inner}`);
      else idsOf(inner, out);
    }
  }
  return out;
}
