/**
 * The workspace states the suggestion crawler visits (test/suggestions.test.ts): each is built through
 * MCP as agents would write it, deterministically, so that building it again under another name gives
 * the same ids (TASK-001, STEP-00000001, R001, JOB-001, …) and so the same suggestions.
 *
 * `owner` writes the state and holds its focus; `other` is a second agent that takes part (holds a
 * lease, drafts a card); the crawler also reads each state as a `newcomer` and as a `reader`.
 */
import { as, ok, type RpcOptions } from "../helpers/mcp";

export const OWNER = "crawl-owner";
export const OTHER = "crawl-other";
export const NEWCOMER = "crawl-newcomer";
export const READER = "crawl-reader";

const FULL = { path: "/mcp?toolset=full" };

export interface State {
  name: string;
  /** A ref that `open` reads in this state (the focus, a card, a record…), when there is one. */
  ref?: string;
  /** Bad calls this state makes natural, as flat calls: their errors carry actions (the crawler sends them through the portal on the portal toolset). */
  probes?: { code: string; tool: string; args: Record<string, unknown> }[];
  build(workspace: string): Promise<void>;
}

const agents = new Map<string, Promise<RpcOptions>>();

async function agent(name: string): Promise<RpcOptions> {
  let options = agents.get(name);
  if (!options) {
    options = as(name).then((token) => ({ ...FULL, ...token }));
    agents.set(name, options);
  }
  return options;
}

async function write(name: string, args: Record<string, unknown>, who = OWNER): Promise<Record<string, any>> {
  return ok(name, args, await agent(who));
}

const node = (id: string, title: string) => ({ op: "node_upsert", id, type: "hypothesis", title });

/** A plan whose third task waits for the first two (TASK-003 blocked_by TASK-001, TASK-002), each with two steps. */
async function waitingPlan(workspace: string): Promise<void> {
  await write("tasks_create", { workspace, title: "Ship the importer" });
  const steps = [{ title: "Write it" }, { title: "Test it" }];
  await write("tasks_create", { workspace, parent: "PLAN-001", title: "Parser", steps });
  await write("tasks_create", { workspace, parent: "PLAN-001", title: "Writer", steps });
  await write("tasks_create", { workspace, parent: "PLAN-001", title: "Release", steps, blocked_by: ["TASK-001", "TASK-002"] });
}

async function taskWithSteps(workspace: string): Promise<void> {
  await write("tasks_create", { workspace, title: "Ship search" });
  await write("tasks_macro_start", { workspace, plan: "PLAN-001", title: "Index the docs" });
}

export const STATES: readonly State[] = [
  { name: "empty", build: async () => {} },
  {
    name: "plan-only",
    ref: "PLAN-001",
    build: async (workspace) => {
      await write("tasks_create", { workspace, title: "Ship search" });
    },
  },
  {
    name: "task-with-steps",
    ref: "TASK-001",
    probes: [
      { code: "CHECKPOINTS_NOT_CONFIRMED", tool: "tasks_done", args: { task: "TASK-001", path: "s:0" } },
      { code: "UNKNOWN_ID (branch)", tool: "checkout", args: { branch: "no-such-branch" } },
    ],
    build: taskWithSteps,
  },
  {
    name: "step-leased-by-another",
    ref: "TASK-001",
    probes: [{ code: "STEP_LEASE_HELD", tool: "tasks_note", args: { task: "TASK-001", path: "s:0", note: "mine now" } }],
    build: async (workspace) => {
      await taskWithSteps(workspace);
      await write("tasks_step_lease_claim", { workspace, task: "TASK-001", path: "s:0" }, OTHER);
    },
  },
  {
    name: "graph-conflict",
    ref: "notes@1",
    build: async (workspace) => {
      await write("notes_commit", { workspace, content: "Exploring the ranking" });
      await write("graph_apply", { workspace, ops: [node("H", "base title")] });
      await write("branch_create", { workspace, name: "idea" });
      await write("graph_apply", { workspace, branch: "idea", ops: [node("H", "theirs title")] });
      await write("graph_apply", { workspace, ops: [node("H", "ours title")] });
      await write("graph_merge", { workspace, from: "idea" });
    },
  },
  {
    name: "another-agents-drafts",
    ref: "D1",
    build: async (workspace) => {
      await write("think_add_decision", { workspace, id: "D1", title: "Use BM25", tags: ["pinned"], lane: "agent" }, OTHER);
      await write("think_add_hypothesis", { workspace, id: "H1", title: "Recall drops on short queries" }, OTHER);
    },
  },
  {
    name: "stale-evidence",
    ref: "T1",
    build: async (workspace) => {
      await write("think_add_hypothesis", { workspace, id: "H1", title: "The cache is cold" });
      await write("think_add_test", {
        workspace,
        id: "T1",
        title: "Measure misses",
        supports: ["H1"],
        meta: { cmd: "npm run bench -- --suites cache", stale_after_ms: 1 },
      });
      await write("think_add_evidence", {
        workspace,
        id: "E1",
        title: "12% misses",
        text: "CMD: npm run bench\nLINK: https://ci.example/1",
        supports: ["T1"],
      });
      await write("think_add_note", { workspace, id: "N1", title: "Later thoughts", text: "The cache was warmed since." });
    },
  },
  {
    name: "changed-assumption",
    ref: "A1",
    build: async (workspace) => {
      await write("think_add_hypothesis", { workspace, id: "H1", title: "Sharding fixes the latency" });
      await write("think_add_note", { workspace, id: "A1", title: "Reads dominate", tags: ["assumption"], supports: ["H1"] });
      await write("think_set_status", { workspace, card_id: "A1", status: "rejected" });
    },
  },
  {
    name: "knowledge-cards",
    ref: "a:storage",
    build: async (workspace) => {
      const card = ["Claim: SQLite runs in WAL mode", "Scope: storage", "Apply: keep readers off the writer"].join("\n");
      await write("knowledge_upsert", { workspace, anchor: "a:storage", key: "wal-mode", card });
      await write("knowledge_upsert", { workspace, anchor: "a:storage", key: "page-size", card: "Claim: 4 KiB pages" });
    },
  },
  {
    name: "record-sync-session",
    ref: "R001",
    probes: [
      { code: "NOT_ACTIVATED", tool: "update_record", args: { id: "R002", summary: "Yes, for reads" } },
      { code: "RECORD_NOT_FOUND", tool: "get_record_ref", args: { id: "R404" } },
    ],
    build: async (workspace) => {
      await write("create_record", { workspace, type: "question", title: "Cache?", summary: "Do we cache?", body: "Open question." });
      await write("create_record", {
        workspace,
        type: "decision",
        title: "Cache reads",
        summary: "Yes",
        body: "Decided.",
        parent_id: "R001",
      });
      await write("activate", { workspace, id: "R001" });
    },
  },
  {
    name: "queued-job",
    ref: "JOB-001",
    probes: [{ code: "JOB_NOT_CLAIMED", tool: "jobs_report", args: { job: "JOB-001", message: "halfway" } }],
    build: async (workspace) => {
      await write("jobs_create", { workspace, title: "Review the parser", prompt: "List the edge cases" }, OTHER);
    },
  },
  {
    // Three agents: another has taken TASK-001, TASK-002 is ready, TASK-003 waits for both.
    name: "tasks-waiting-and-taken",
    ref: "TASK-003",
    probes: [
      { code: "TASK_TAKEN", tool: "tasks_note", args: { task: "TASK-001", path: "s:1", note: "mine now" } },
      { code: "TASK_NOT_READY", tool: "tasks_take", args: { task: "TASK-003" } },
    ],
    build: async (workspace) => {
      await waitingPlan(workspace);
      await write("tasks_take", { workspace, task: "TASK-001" }, OTHER);
    },
  },
  {
    // Nothing ready: TASK-001 and TASK-002 are taken (by another agent and by the owner), TASK-003 waits.
    name: "nothing-ready",
    ref: "TASK-003",
    probes: [{ code: "TASK_NOT_READY", tool: "tasks_take", args: {} }],
    build: async (workspace) => {
      await waitingPlan(workspace);
      await write("tasks_take", { workspace, task: "TASK-001" }, OTHER);
      await write("tasks_take", { workspace, task: "TASK-002" });
    },
  },
  {
    name: "focus-on-deleted-task",
    build: async (workspace) => {
      await taskWithSteps(workspace);
      await write("tasks_delete", { workspace, target: "TASK-001" });
    },
  },
];

/** The state of that name (a test's typo fails loudly). */
export function stateNamed(name: string): State {
  const found = STATES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no state ${name}`);
  return found;
}
