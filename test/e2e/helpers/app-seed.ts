/**
 * Workspaces the app's graph and session views are checked on, written through MCP over HTTP
 * (`?toolset=full`) as agents would: a reasoning graph with an open question, an untested and a tested
 * hypothesis, another agent's draft and a merge conflict; and a Record-Sync project where alice's
 * session sees bob change a record after her last sync. Stored text tries to run script everywhere a
 * person reads it.
 */
import { createMcpClient, type Json } from "../../../scripts/lib/mcp-http";
import type { TokenRole } from "../../../src/worker/token";
import { tokenFor } from "./seed";

/** Stored text that would run script if it were ever parsed as HTML. */
export const VIEW_PAYLOADS = {
  question: 'Which cache wins <img src=x onerror="window.__xss=5">?',
  hypothesis: "<script>window.__xss=6</script> LRU beats LFU",
  record: '<img src=x onerror="window.__xss=7"> Which store?',
  summary: '<svg onload="window.__xss=8"></svg> bob measured it',
  body: "<script>window.__xss=9</script> body text",
};

/** The title bob's draft carries: it must never show to another agent. */
export const DRAFT_TITLE = "Bob's private hunch";

export type Call = (tool: string, args: Json) => Promise<Json>;

export async function agentIn(base: string, secret: string, workspace: string, name: string, role: TokenRole = "write"): Promise<Call> {
  const client = createMcpClient({
    endpoint: `${base}/mcp?toolset=full`,
    agentId: name,
    token: await tokenFor(secret, name, role),
    clientName: "branchmind-e2e",
  });
  return async (tool, args) => (await client.callTool(tool, { workspace, ...args })).value;
}

function node(id: string, title: string) {
  return { op: "node_upsert", id, type: "hypothesis", title };
}

/** The graph: Q1 (open), H2 (untested, supports Q1), H3 tested by T1, bob's draft E9 on Q1, and a conflict on H. */
export async function seedGraph(base: string, secret: string, workspace: string): Promise<{ conflict: string }> {
  const alice = await agentIn(base, secret, workspace, "alice");
  const bob = await agentIn(base, secret, workspace, "bob");
  await alice("think_add_question", { id: "Q1", title: VIEW_PAYLOADS.question });
  await alice("think_add_hypothesis", { id: "H2", title: VIEW_PAYLOADS.hypothesis, supports: ["Q1"] });
  await alice("think_add_hypothesis", { id: "H3", title: "Misses dominate" });
  await alice("think_add_test", { id: "T1", title: "Replay a day of reads", supports: ["H3"] });
  await bob("think_add_evidence", { id: "E9", title: DRAFT_TITLE, supports: ["Q1"], lane: "agent" });
  await alice("graph_apply", { ops: [node("H", "base title")] });
  await alice("branch_create", { name: "idea" });
  await alice("graph_apply", { branch: "idea", ops: [node("H", "theirs title")] });
  await alice("graph_apply", { ops: [node("H", "ours title")] });
  await alice("graph_merge", { from: "idea" });
  const open = await alice("graph_conflicts", { into: "main", status: "open" });
  return { conflict: (open.conflicts as { conflict_id: string }[])[0]?.conflict_id as string };
}

/** Records R001 (root) and R002 under it by alice; bob activates R002 and changes it after alice's last sync. */
export async function seedSession(base: string, secret: string, workspace: string): Promise<{ session: string }> {
  const alice = await agentIn(base, secret, workspace, "alice");
  const bob = await agentIn(base, secret, workspace, "bob");
  const root = await alice("create_record", {
    parent_id: null,
    type: "question",
    title: VIEW_PAYLOADS.record,
    summary: "where the cache lives",
    body: VIEW_PAYLOADS.body,
  });
  const session = root.session_id as string;
  await alice("create_record", { session_id: session, parent_id: "R001", type: "option", title: "Redis", summary: "", body: "x" });
  const theirs = await bob("activate", { id: "R002" });
  await bob("update_record", { session_id: theirs.session_id, id: "R002", summary: VIEW_PAYLOADS.summary, body: VIEW_PAYLOADS.body });
  return { session };
}
