/**
 * The upgrade test's fixtures (test/e2e/upgrade.e2e.test.ts): agents on a server, the previous code
 * checked out of this repository's history, the workspace it seeds, the reads compared across the
 * upgrade, and its export.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { createMcpClient, type Json } from "../../../scripts/lib/mcp-http";
import type { TokenRole } from "../../../src/worker/token";
import { tokenFor } from "./seed";
import type { E2eServer } from "./server";

const ROOT = join(import.meta.dirname, "..", "..", "..");
/** The last commit before migrations 17 and 18: schema version 16. */
export const PREVIOUS = "6ebd5d9";
export const WORKSPACE = "e2e/upgrade";
export const FORK = "try/fork";
/** More than the previous code's bound of 1,000 versions examined per source (graph-pages.store.ts at PREVIOUS). */
export const CLOSED_NOTES = 1_200;
/** graph_apply's batch is at most 500 ops; one import takes several batches. */
export const IMPORT_BATCH = 400;
/** The largest export page: the whole workspace in one or two calls. */
export const EXPORT_PAGE_CHARS = 800_000;

export type Tool = (tool: string, args?: Json) => Promise<Json>;

export async function agentOn(server: E2eServer, name: string, role: TokenRole = "write"): Promise<Tool> {
  const client = createMcpClient({
    endpoint: `${server.base}/mcp?toolset=full`,
    agentId: name,
    token: await tokenFor(server.secret, name, role),
    clientName: "branchmind-e2e-upgrade",
  });
  return async (tool, args = {}) => (await client.callTool(tool, { workspace: WORKSPACE, ...args })).value;
}

export interface Agents {
  alice: Tool;
  bob: Tool;
  carol: Tool;
  admin: Tool;
}

export async function agentsOn(server: E2eServer): Promise<Agents> {
  return {
    alice: await agentOn(server, "alice"),
    bob: await agentOn(server, "bob"),
    carol: await agentOn(server, "carol"),
    admin: await agentOn(server, "admin", "admin"),
  };
}

/** The previous commit's files in `into`, with this checkout's node_modules (the same dependencies). */
export function checkOutPrevious(into: string, work: string): void {
  const archive = join(work, "previous.tar");
  try {
    execFileSync("git", ["-C", ROOT, "archive", "--output", archive, PREVIOUS], { stdio: "pipe" });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`git archive ${PREVIOUS} failed (a shallow clone lacks it: fetch the full history): ${stderr}`);
  }
  mkdirSync(into);
  execFileSync("tar", ["-xf", archive, "-C", into], { stdio: "pipe" });
  rmSync(archive);
  symlinkSync(join(ROOT, "node_modules"), join(into, "node_modules"), "junction");
}

export interface Seeded {
  taskId: string;
  stepId: string;
}

/**
 * Notes on main and on a branch; an open hypothesis and question, then 1,200 newer closed notes; a test
 * and a decision; a fork; after the fork main closes the test and rewrites the decision; a checkout, a
 * task with steps and a leased step; two Record-Sync records.
 */
export async function seed({ alice, bob, carol, admin }: Agents): Promise<Seeded> {
  await alice("notes_commit", { content: "Main: the store is SQLite in each Durable Object." });
  await alice("think_card", {
    card: { id: "H-OPEN", type: "hypothesis", title: "An index by term makes every filtered read exact", tags: ["storage"] },
  });
  await alice("think_card", { card: { id: "Q-OPEN", type: "question", title: "Does the index survive an upgrade?" }, blocks: ["H-OPEN"] });
  const notes = Array.from({ length: CLOSED_NOTES }, (_, index) => ({
    op: "node_upsert",
    id: `NOTE-${index}`,
    type: "note",
    title: `Closed note ${index}`,
    status: "done",
  }));
  const batches: Json[] = [];
  for (let start = 0; start < notes.length; start += IMPORT_BATCH)
    batches.push({ op: "graph", ops: notes.slice(start, start + IMPORT_BATCH) });
  const imported = await admin("workspace_import", { ops: batches });
  expect(imported.graph_ops_applied).toBe(CLOSED_NOTES);
  await alice("graph_apply", {
    ops: [
      { op: "node_upsert", id: "T-FORK", type: "test", title: "Restart on the same state" },
      { op: "edge_upsert", from: "T-FORK", rel: "supports", to: "H-OPEN" },
    ],
  });
  await alice("think_card", { card: { id: "D-FORK", type: "decision", title: "Keep the old rows as they are" } });
  await alice("notes_commit", { content: "Main: the fork starts here." });

  await alice("branch_create", { name: FORK, from: "main" });
  await alice("notes_commit", { branch: FORK, content: "Fork: tried copying the rows instead." });
  await alice("think_card", { branch: FORK, card: { id: "Q-FORK", type: "question", title: "Is a copy cheaper than an index?" } });
  await bob("checkout", { ref: FORK });

  // Main after the fork: the fork keeps the test open and the decision as it was.
  await alice("think_set_status", { branch: "main", card_id: "T-FORK", status: "done" });
  await alice("think_card", {
    branch: "main",
    card: { id: "D-FORK", type: "decision", title: "Index the old rows after the start" },
    revise: true,
  });
  await alice("notes_commit", { branch: "main", content: "Main: after the fork, the test passed." });

  const plan = await alice("tasks_create", { title: "Upgrade the store" });
  const task = await alice("tasks_create", {
    parent: plan.id,
    title: "Ship the term index",
    steps: [{ title: "Write migration 17", tests: ["unit"] }, { title: "Test the upgrade" }],
  });
  const claim = await bob("tasks_step_lease_claim", { task: task.id, step: "focus" });
  const lease = claim.lease as { step_id: string; holder: string };
  expect(lease.holder).toBe("bob");

  await carol("create_record", { project_id: WORKSPACE, type: "epic", title: "Upgrades", summary: "Schema upgrades keep data", body: "…" });
  await carol("create_record", {
    project_id: WORKSPACE,
    parent_id: "R001",
    type: "story",
    title: "Term index backfill",
    summary: "Old versions get their terms",
    body: "…",
    state: "LATER",
    reason: "after the migration",
  });
  return { taskId: task.id as string, stepId: lease.step_id };
}

/** The reads that must answer the same before and after the upgrade, by name. */
export async function reads({ alice, bob, carol }: Agents, seeded: Seeded): Promise<Record<string, Json>> {
  return {
    "status (alice, on main)": await alice("status"),
    "status (bob, on the fork)": await bob("status"),
    "show notes on main": await alice("show", { branch: "main", doc: "notes", limit: 50 }),
    "show notes on the fork": await alice("show", { branch: FORK, doc: "notes", limit: 50 }),
    "show trace on main": await alice("show", { branch: "main", doc: "trace", limit: 50 }),
    branch_list: await alice("branch_list"),
    tasks_radar: await alice("tasks_radar", { task: seeded.taskId }),
    tasks_step_lease_get: await alice("tasks_step_lease_get", { task: seeded.taskId, step: seeded.stepId }),
    "get_record_ref R001": await carol("get_record_ref", { project_id: WORKSPACE, id: "R001" }),
    "get_record_ref R002": await carol("get_record_ref", { project_id: WORKSPACE, id: "R002" }),
    list_records: await carol("list_records", { project_id: WORKSPACE }),
    "get_record_history R002": await carol("get_record_history", { project_id: WORKSPACE, id: "R002" }),
    "graph_node_show D-FORK on main": await alice("graph_node_show", { branch: "main", id: "D-FORK" }),
    "graph_node_show D-FORK on the fork": await alice("graph_node_show", { branch: FORK, id: "D-FORK" }),
  };
}

/**
 * An answer without what legitimately moves with the code: the budget the answer used, the schema
 * version, and the signal engine's findings (its card slice now sees the cards the old bound hid).
 */
export function comparable(answer: Json): Json {
  const { budget: _budget, schema_version: _schema, engine: _engine, ...rest } = answer;
  return rest;
}

/** Every line of a workspace export, paged until done. */
export async function exportLines(admin: Tool): Promise<string[]> {
  const lines: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await admin("workspace_export", { max_chars: EXPORT_PAGE_CHARS, ...(cursor === undefined ? {} : { cursor }) });
    expect(page.first_line).toBe(lines.length);
    lines.push(...(page.jsonl as string).split("\n").filter((line) => line !== ""));
    if (page.done === true) return lines;
    cursor = page.cursor as string;
  }
}

export interface Card {
  id: string;
  type: string;
  title: string;
  status?: string | null;
}
export interface FrontierAnswer {
  frontier: { questions: Card[]; hypotheses: Card[]; tests: Card[]; decisions: Card[] };
}

export async function frontier(tool: Tool, branch: string): Promise<FrontierAnswer["frontier"]> {
  return ((await tool("think_frontier", { branch, limit_per_type: 10 })) as unknown as FrontierAnswer).frontier;
}

export const ids = (cards: { id: string }[]) => cards.map((card) => card.id);
