/**
 * What the end-to-end tests look at, written through MCP over HTTP (`?toolset=full`) as agents would:
 * a small workspace with notes, a branch merged back (a merge marker and a graph conflict), cards with
 * evidence and a pin, a checkout, a plan and task whose first step is leased, a task that waits for it
 * and one another agent has taken, and Record-Sync records;
 * and a large workspace of LARGE_NODES nodes for the large-graph check. Each agent has its own token.
 */
import { createMcpClient, type Json, type McpClient } from "../../../scripts/lib/mcp-http";
import { mintToken, newTokenId, type TokenRole } from "../../../src/worker/token";

export const WORKSPACE = "e2e/app";
export const LARGE_WORKSPACE = "e2e/large";
export const LARGE_NODES = 5_000;
export const LARGE_EDGES = 2_000;
/** graph_apply's largest batch. */
const OPS_PER_CALL = 500;

export async function tokenFor(
  secret: string,
  agent: string,
  role: TokenRole,
  expiresInSeconds = 3_600,
  workspaces = ["e2e/**"],
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return mintToken(secret, { v: 1, kid: "k1", jti: newTokenId(), sub: agent, ws: workspaces, role, iat: now, exp: now + expiresInSeconds });
}

async function agent(base: string, secret: string, name: string): Promise<(tool: string, args: Json) => Promise<Json>> {
  const client: McpClient = createMcpClient({
    endpoint: `${base}/mcp?toolset=full`,
    agentId: name,
    token: await tokenFor(secret, name, "write"),
    clientName: "branchmind-e2e",
  });
  return async (tool, args) => (await client.callTool(tool, { workspace: WORKSPACE, ...args })).value;
}

/** What the seed wrote, for the assertions. */
export interface Seeded {
  /** main, try/cache, and the reasoning branches of the plan and its three tasks. */
  branches: number;
  nodesOnMain: number;
  edgesOnMain: number;
  conflictKey: string;
  taskId: string;
  leasedStep: string;
  leaseHolder: string;
  leaseExpiresTick: number;
  /** A task that waits for `taskId`. */
  waitingTaskId: string;
  /** A task carol has taken, and when her claim expires. */
  takenTaskId: string;
  claimExpiresTick: number;
  tick: number;
}

export async function seedWorkspace(base: string, secret: string): Promise<Seeded> {
  const alice = await agent(base, secret, "alice");
  const bob = await agent(base, secret, "bob");
  const carol = await agent(base, secret, "carol");

  await alice("notes_commit", { content: "Storage: start with SQLite in each Durable Object." });
  await alice("think_card", { card: { id: "H1", type: "hypothesis", title: "A read cache halves latency", tags: ["perf"] } });
  await alice("think_card", { card: { id: "E1", type: "evidence", title: "Benchmark: p50 down 52%" }, supports: ["H1"] });
  await alice("think_card", { card: { id: "Q1", type: "question", title: "Does the cache survive eviction?" }, blocks: ["H1"] });
  await alice("think_pin", { card_id: "E1" });
  await alice("branch_create", { name: "try/cache" });
  await alice("notes_commit", { branch: "try/cache", content: "Tried an LRU cache in front of the reads." });
  // Changing H1 on either side is an explicit revision: a changed card under its id alone is refused (ALREADY_EXISTS).
  await alice("think_card", {
    branch: "try/cache",
    card: { id: "H1", type: "hypothesis", title: "A read cache halves p50 only", tags: ["perf"] },
    revise: true,
  });
  await alice("think_card", {
    card: { id: "H1", type: "hypothesis", title: "A read cache halves p99 too", tags: ["perf"] },
    revise: true,
  });
  await alice("merge", { from: "try/cache", into: "main" });
  const merged = await alice("graph_merge", { from: "try/cache", into: "main" });
  const conflictKey = ((merged.conflicts as { key: string }[])[0] as { key: string }).key;
  // After the merge: a test only on the branch, for the diff overlay.
  await alice("think_card", {
    branch: "try/cache",
    card: { id: "T1", type: "test", title: "Evict half the cache under load" },
    supports: ["H1"],
  });
  await bob("checkout", { ref: "try/cache" });

  const plan = await alice("tasks_create", { title: "Ship the cache" });
  const task = await alice("tasks_create", {
    parent: plan.id,
    title: "Cache layer",
    steps: [{ title: "Write the cache", tests: ["unit"] }, { title: "Load test it" }],
  });
  const claim = await bob("tasks_step_lease_claim", { task: task.id, step: "focus" });
  const lease = claim.lease as { step_id: string; holder: string; expires_tick: number };
  const waiting = await alice("tasks_create", { parent: plan.id, title: "Benchmark the cache", blocked_by: [task.id] });
  const docs = await alice("tasks_create", { parent: plan.id, title: "Document the cache" });
  const taken = await carol("tasks_take", { task: docs.id });

  await carol("create_record", { project_id: WORKSPACE, type: "epic", title: "Caching", summary: "Everything about the cache", body: "…" });
  await carol("create_record", {
    project_id: WORKSPACE,
    parent_id: "R001",
    type: "story",
    title: "Eviction policy",
    summary: "Pick LRU or LFU",
    body: "…",
    state: "LATER",
    reason: "after the load test",
  });
  const status = await alice("status", {});
  return {
    branches: 6,
    nodesOnMain: 3,
    edgesOnMain: 2,
    conflictKey,
    taskId: task.id as string,
    leasedStep: lease.step_id,
    leaseHolder: lease.holder,
    leaseExpiresTick: lease.expires_tick,
    waitingTaskId: waiting.id as string,
    takenTaskId: docs.id as string,
    claimExpiresTick: (taken.claim as { expires_tick: number }).expires_tick,
    tick: status.tick as number,
  };
}

/** LARGE_NODES nodes of six types and LARGE_EDGES edges, in graph_apply batches. */
export async function seedLargeGraph(base: string, secret: string): Promise<void> {
  const client = createMcpClient({
    endpoint: `${base}/mcp?toolset=full`,
    agentId: "loader",
    token: await tokenFor(secret, "loader", "write"),
    clientName: "branchmind-e2e",
  });
  const types = ["hypothesis", "evidence", "test", "decision", "question", "note"];
  const ops: Json[] = [];
  for (let index = 0; index < LARGE_NODES; index++) {
    ops.push({ op: "node_upsert", id: `N${index}`, type: types[index % types.length] as string, title: `Node ${index}` });
  }
  for (let index = 1; index <= LARGE_EDGES; index++) {
    ops.push({ op: "edge_upsert", from: `N${index}`, rel: index % 3 === 0 ? "blocks" : "supports", to: `N${Math.floor(index / 2)}` });
  }
  for (let start = 0; start < ops.length; start += OPS_PER_CALL) {
    await client.callTool("graph_apply", { workspace: LARGE_WORKSPACE, ops: ops.slice(start, start + OPS_PER_CALL) });
  }
}
