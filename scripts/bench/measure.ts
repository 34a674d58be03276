/**
 * What the notes suite measures: `GET /health` as a reference outside the targets, `ping` as the
 * floor, `notes_commit`, `show` on `main`, and `show` on the chain branches at each measured depth
 * (`--depths`, by default 1, 10 and 30: how the cost of a read grows with the branch's depth).
 * Sampling and summaries are the generic ones of `sampling.ts`.
 */
import { shutdownSignal } from "../lib/dev-server.ts";
import { type Call, type McpClient, requestSignal, timedFetch } from "../lib/mcp-http.ts";
import { chainBranchName, noteText, PAGE_LIMIT } from "./layout.ts";
import { type CallOrder, type OpSet, sampleRounds } from "./sampling.ts";

/** `show_chain_<depth>` per measured depth, after these. */
const FIXED_OPS = ["health", "ping", "notes_commit", "show_main"] as const;
export type OpName = (typeof FIXED_OPS)[number] | `show_chain_${number}`;
export const FLOOR: OpName = "ping";
/** Shown for reference, outside the targets: `GET /health` is answered by the Worker alone (no MCP, no Durable Object). */
export const REFERENCE: OpName = "health";

/** Where the ops go: the MCP client and the server's `/health` URL. */
export interface Target {
  client: McpClient;
  healthUrl: string;
}

const showOp = (depth: number): OpName => `show_chain_${depth}`;

export function notesOpSet(depths: readonly number[]): OpSet<OpName> {
  const ops: OpName[] = [...FIXED_OPS, ...depths.map(showOp)];
  const labels = {
    health: "GET /health",
    ping: "ping (floor)",
    notes_commit: "notes_commit",
    show_main: "show main",
  } as Record<OpName, string>;
  for (const depth of depths) labels[showOp(depth)] = `show ${chainBranchName(depth)}`;
  return { ops, floor: FLOOR, reference: [REFERENCE], labels };
}

async function healthCall(healthUrl: string): Promise<Call> {
  const { ms, response, text } = await timedFetch(healthUrl, { signal: requestSignal(shutdownSignal) });
  if (response.status !== 200) throw new Error(`GET /health: HTTP ${response.status}: ${text.slice(0, 500)}`);
  return { ms, value: {} };
}

function opCall(target: Target, op: OpName, workspace: string, round: number): Promise<Call> {
  const { client } = target;
  switch (op) {
    case "health":
      return healthCall(target.healthUrl);
    case "ping":
      return client.callTool("ping", { workspace });
    case "notes_commit":
      return client.callTool("notes_commit", { workspace, content: noteText(1_000_000 + round, "bench commit") });
    case "show_main":
      return client.callTool("show", { workspace, branch: "main", doc: "notes", limit: PAGE_LIMIT });
    default: {
      const branch = chainBranchName(Number(op.slice("show_chain_".length)));
      return client.callTool("show", { workspace, branch, doc: "notes", limit: PAGE_LIMIT });
    }
  }
}

/** Rounds of one call per op, the order rotated each round so no op always follows the same one. */
export function measure(
  target: Target,
  set: OpSet<OpName>,
  workspace: string,
  warmup: number,
  samples: number,
  order?: CallOrder<OpName>,
): Promise<Record<OpName, number[]>> {
  return sampleRounds(set.ops, (op, round) => opCall(target, op, workspace, round), warmup, samples, order);
}
