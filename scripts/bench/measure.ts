/**
 * What the benchmark measures and how: the operations (`GET /health` as a reference outside the
 * targets, `ping` as the floor, `notes_commit`, `show` on `main` and on the deepest chain branch), their
 * labels, the sampling loop, which rotates the order each round so that no op always follows the
 * same one, and the per-op summary (stats and ratio to the floor) of the samples.
 */
import { shutdownSignal } from "../lib/dev-server.ts";
import { type Call, type McpClient, requestSignal, timedFetch } from "../lib/mcp-http.ts";
import { noteText, PAGE_LIMIT } from "./layout.ts";
import { type Stats, statsOf } from "./stats.ts";

export const OPS = ["health", "ping", "notes_commit", "show_main", "show_deepest"] as const;
export type OpName = (typeof OPS)[number];
export const FLOOR: OpName = "ping";
/** Shown for reference, outside the targets: `GET /health` is answered by the Worker alone (no MCP, no Durable Object). */
export const REFERENCE: OpName = "health";

export interface OpResult extends Stats {
  ratio_to_floor: number;
  samples_ms: number[];
}

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

/** Stats per op, each median's ratio to the floor's, and the samples rounded to microseconds. */
export function summarize(times: Record<OpName, number[]>): Record<OpName, OpResult> {
  const floor = statsOf(times[FLOOR]).median_ms;
  const ops = {} as Record<OpName, OpResult>;
  for (const op of OPS) {
    const stats = statsOf(times[op]);
    ops[op] = { ...stats, ratio_to_floor: stats.median_ms / floor, samples_ms: times[op].map((ms) => Math.round(ms * 1000) / 1000) };
  }
  return ops;
}

/** Rounds of one call per op, the order rotated each round so no op always follows the same one. */
export async function measure(
  target: Target,
  workspace: string,
  deepest: string,
  warmup: number,
  samples: number,
): Promise<Record<OpName, number[]>> {
  const times: Record<OpName, number[]> = { health: [], ping: [], notes_commit: [], show_main: [], show_deepest: [] };
  for (let round = 0; round < warmup + samples; round++) {
    for (let k = 0; k < OPS.length; k++) {
      const op = OPS[(round + k) % OPS.length] ?? FLOOR;
      const { ms } = await opCall(target, op, workspace, deepest, round);
      if (round >= warmup) times[op].push(ms);
    }
  }
  return times;
}
