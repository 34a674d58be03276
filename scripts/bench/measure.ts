/**
 * What the notes suite measures: `GET /health` as a reference outside the targets, `ping` as the
 * floor, `notes_commit`, and `show` on `main` and on the deepest chain branch. Sampling and summaries
 * are the generic ones of `sampling.ts`.
 */
import { shutdownSignal } from "../lib/dev-server.ts";
import { type Call, type McpClient, requestSignal, timedFetch } from "../lib/mcp-http.ts";
import { noteText, PAGE_LIMIT } from "./layout.ts";
import { type OpSet, sampleRounds } from "./sampling.ts";

export const OPS = ["health", "ping", "notes_commit", "show_main", "show_deepest"] as const;
export type OpName = (typeof OPS)[number];
export const FLOOR: OpName = "ping";
/** Shown for reference, outside the targets: `GET /health` is answered by the Worker alone (no MCP, no Durable Object). */
export const REFERENCE: OpName = "health";

/** Where the ops go: the MCP client and the server's `/health` URL. */
export interface Target {
  client: McpClient;
  healthUrl: string;
}

/** Report labels of the ops; the deepest branch's name depends on the chain depth. */
export function opLabels(deepest: string): Record<OpName, string> {
  return {
    health: "GET /health",
    ping: "ping (floor)",
    notes_commit: "notes_commit",
    show_main: "show main",
    show_deepest: `show ${deepest}`,
  };
}

export function notesOpSet(deepest: string): OpSet<OpName> {
  return { ops: OPS, floor: FLOOR, reference: [REFERENCE], labels: opLabels(deepest) };
}

async function healthCall(healthUrl: string): Promise<Call> {
  const { ms, response, text } = await timedFetch(healthUrl, { signal: requestSignal(shutdownSignal) });
  if (response.status !== 200) throw new Error(`GET /health: HTTP ${response.status}: ${text.slice(0, 500)}`);
  return { ms, value: {} };
}

function opCall(target: Target, op: OpName, workspace: string, deepest: string, round: number): Promise<Call> {
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
    case "show_deepest":
      return client.callTool("show", { workspace, branch: deepest, doc: "notes", limit: PAGE_LIMIT });
  }
}

/** Rounds of one call per op, the order rotated each round so no op always follows the same one. */
export function measure(
  target: Target,
  workspace: string,
  deepest: string,
  warmup: number,
  samples: number,
): Promise<Record<OpName, number[]>> {
  return sampleRounds(OPS, (op, round) => opCall(target, op, workspace, deepest, round), warmup, samples);
}
