/**
 * What the frontier suite measures, side by side in the same rotated rounds, and the check of every
 * answer against the model (frontier-model.ts): `ping` (the floor), `think_frontier_graph` (default
 * limit 200, audit budget so the 200 labelled nodes are not trimmed), `think_frontier_graph {around}`
 * (the hub question and its neighbours) and `think_frontier {limit_per_type: 50}` (the list view of
 * the same frontier, audit budget). A graph answer must list exactly the model's nodes in the model's
 * order, each with its type, title, status, tags, lane and its open, untested, conflicted and seed
 * flags; exactly the model's edges, newest first; no conflicts; the counts, untested_hypotheses,
 * frontier_capped, shown, left_out and capped; and not be trimmed. A list answer must give each type's
 * 50 newest open cards in order. Before measuring, `checkFrontier` also asks every limit from 1 to 200
 * (the view fills at every place of the build's order) and every lane (alice's drafts become seeds).
 */
import type { Call, Json, McpClient } from "../lib/mcp-http.ts";
import { FRONTIER_TYPES } from "./frontier-layout.ts";
import { type FrontierModel, GRAPH_LIMIT, type ModelGraph } from "./frontier-model.ts";
import { type CallOrder, type OpSet, sampleRounds } from "./sampling.ts";

/** Cards per type the list view is asked for: its largest page (next.commands.ts MAX_PER_TYPE). */
export const LIST_PER_TYPE = 50;
/** The budget profile every measured read asks for: 200 labelled nodes outgrow the default 20,000 characters. */
const BUDGET_PROFILE = "audit";

export const FRONTIER_OPS = ["ping", "graph", "graph_around", "list"] as const;
export type FrontierOpName = (typeof FRONTIER_OPS)[number];

export const FRONTIER_LABELS: Record<FrontierOpName, string> = {
  ping: "ping (floor)",
  graph: "think_frontier_graph",
  graph_around: "think_frontier_graph {around}",
  list: `think_frontier {limit_per_type: ${LIST_PER_TYPE}}`,
};

export function frontierOpSet(): OpSet<FrontierOpName> {
  return { ops: FRONTIER_OPS, floor: "ping", reference: [], labels: FRONTIER_LABELS };
}

export interface FrontierRequest {
  tool: string;
  args: Json;
  /** Why the answer is wrong, or undefined when it is right. */
  wrong: (value: Json) => string | undefined;
}

const object = (value: unknown): Json => (typeof value === "object" && value !== null ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const expect = (what: string, got: unknown, want: unknown): string | undefined =>
  same(got, want) ? undefined : `${what}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;

/** Where two lists first differ, with their lengths, or undefined when they are the same. */
function firstDifference(what: string, got: unknown[], want: unknown[]): string | undefined {
  const at = Array.from({ length: Math.max(got.length, want.length) }, (_, i) => i).find((i) => !same(got[i], want[i]));
  if (at === undefined) return undefined;
  return `${what}: ${got.length} listed, the model has ${want.length}; first difference at ${at}: expected ${JSON.stringify(want[at])}, got ${JSON.stringify(got[at])}`;
}

/** Why a graph answer is not the model's, or undefined. */
function graphWrong(want: ModelGraph, v: Json): string | undefined {
  // Each node with its fields in one order: the model's fields, no more and no fewer, whatever order the answer writes them in.
  const ordered = (node: Json) =>
    Object.fromEntries(
      Object.keys(node)
        .sort()
        .map((key) => [key, node[key]]),
    );
  const edges = list(v.edges).map((edge) => `${String(edge.from)}|${String(edge.rel)}|${String(edge.to)}`);
  const frontier = object(v.frontier);
  return (
    expect("branch", v.branch, "main") ??
    expect("graph_doc", v.graph_doc, "graph") ??
    expect("truncated", v.truncated, false) ??
    expect("budget.truncated", object(v.budget).truncated ?? false, false) ??
    firstDifference(
      "nodes",
      list(v.nodes).map(ordered),
      want.nodes.map((node) => ordered({ ...node })),
    ) ??
    firstDifference("edges (newest first)", edges, want.edges) ??
    expect("conflicts (the layout opens none)", v.conflicts, []) ??
    expect("frontier", frontier, want.frontier) ??
    expect("frontier_capped", v.frontier_capped, want.frontier_capped) ??
    expect("shown", v.shown, want.shown) ??
    expect("left_out", v.left_out, want.left_out) ??
    expect("capped", v.capped, want.capped)
  );
}

/** The call of think_frontier_graph (`limit`, `around`, `all_lanes` as given) and its check. */
export function graphRequest(
  model: FrontierModel,
  options: { limit?: number; around?: string[]; allLanes?: boolean } = {},
): FrontierRequest {
  const want = model.graph(options);
  const args: Json = {
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.around === undefined ? {} : { around: options.around }),
    ...(options.allLanes === true ? { all_lanes: true } : {}),
    budget_profile: BUDGET_PROFILE,
  };
  return { tool: "think_frontier_graph", args, wrong: (v) => graphWrong(want, v) };
}

const LIST_FIELDS = { question: "questions", hypothesis: "hypotheses", test: "tests", decision: "decisions" } as const;

/** The call of think_frontier at LIST_PER_TYPE and its check: each type's newest open cards, in order. */
function listRequest(model: FrontierModel): FrontierRequest {
  const want = FRONTIER_TYPES.map((type) => model.openCards(type, LIST_PER_TYPE));
  return {
    tool: "think_frontier",
    args: { limit_per_type: LIST_PER_TYPE, budget_profile: BUDGET_PROFILE },
    wrong: (v) => {
      const frontier = object(v.frontier);
      const got = FRONTIER_TYPES.map((type) => list(frontier[LIST_FIELDS[type]]).map((card) => card.id));
      return (
        expect("graph_doc", v.graph_doc, "graph") ??
        expect("truncated", v.truncated, false) ??
        FRONTIER_TYPES.map((type, i) => firstDifference(`frontier.${LIST_FIELDS[type]}`, got[i] ?? [], want[i] ?? [])).find(
          (why) => why !== undefined,
        ) ??
        expect("engine.mode", object(v.engine).mode, "global")
      );
    },
  };
}

export function frontierRequest(model: FrontierModel, op: FrontierOpName): FrontierRequest {
  switch (op) {
    case "ping":
      return { tool: "ping", args: {}, wrong: (v) => expect("pong", v.pong, true) };
    case "graph":
      return graphRequest(model);
    case "graph_around":
      return graphRequest(model, { around: [model.layout.hub] });
    case "list":
      return listRequest(model);
  }
}

export async function frontierCall(client: McpClient, workspace: string, request: FrontierRequest): Promise<Call> {
  const call = await client.callTool(request.tool, { workspace, ...request.args });
  const wrong = request.wrong(call.value);
  if (wrong !== undefined) {
    const answer = JSON.stringify(call.value);
    throw new Error(
      `${request.tool} ${JSON.stringify(request.args)} on ${workspace}: ${wrong} (answer ${answer.length} chars: ${answer.slice(0, 1_500)})`,
    );
  }
  return call;
}

/** One checked call of every op, then think_frontier_graph at every limit from 1 to 200 and with every lane; answers the calls made. */
export async function checkFrontier(client: McpClient, model: FrontierModel, workspace: string): Promise<number> {
  const requests = [
    ...FRONTIER_OPS.map((op) => frontierRequest(model, op)),
    ...Array.from({ length: GRAPH_LIMIT }, (_, i) => graphRequest(model, { limit: i + 1 })),
    graphRequest(model, { allLanes: true }),
    graphRequest(model, { around: [model.layout.hub], allLanes: true }),
  ];
  for (const request of requests) await frontierCall(client, workspace, request);
  return requests.length;
}

export function measureFrontier(
  client: McpClient,
  model: FrontierModel,
  workspace: string,
  warmup: number,
  samples: number,
  order?: CallOrder<FrontierOpName>,
): Promise<Record<FrontierOpName, number[]>> {
  const requests = new Map(FRONTIER_OPS.map((op) => [op, frontierRequest(model, op)]));
  return sampleRounds(FRONTIER_OPS, (op) => frontierCall(client, workspace, requests.get(op) as FrontierRequest), warmup, samples, order);
}
