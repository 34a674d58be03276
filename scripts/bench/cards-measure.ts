/**
 * What the cards suite measures: the reads that compose a view from the card graph's slices — `status`,
 * `think_next`, `think_frontier`, `think_frontier_graph` (the graph view's first read), `context_pack`,
 * `tasks_snapshot` and `graph_query` by type — with `ping` as the floor, in the workspace cards-seed.ts
 * built. The think reads and `context_pack` run in both places cards live (cards-layout.ts): the
 * checkout (no place given: `main`'s `graph`, global) and the focused task (`target`: its graph,
 * step-aware); `graph_query` names `main`'s graph, or takes the focus. Every answer is checked against
 * the model on the fly (the exact frontier, the frontier's graph (cards-frontier-graph.ts), the newest
 * cards or hypotheses, the focus and its step), and once before measuring for any card its view does not
 * show, and the frontier's graph at small limits and with every lane.
 */
import type { Call, Json, McpClient } from "../lib/mcp-http.ts";
import { frontierGraphCases, frontierGraphRequest } from "./cards-frontier-graph.ts";
import { FRONTIER_TYPES, PLACES, type ScopeName } from "./cards-layout.ts";
import { type CardsModel, foreignCards } from "./cards-model.ts";
import type { CardsWorld } from "./cards-seed.ts";
import { type CallOrder, type OpSet, sampleRounds } from "./sampling.ts";

/** The frontier's cards per type (think_frontier's default), the pack's cards, a graph page. */
const FRONTIER_PER_TYPE = 5;
const PACK_CARDS = 30;
export const QUERY_LIMIT = 20;
export const QUERY_TYPE = "hypothesis";

export const CARDS_OPS = [
  "ping",
  "status",
  "think_next",
  "think_frontier",
  "think_frontier_graph",
  "context_pack",
  "graph_query",
  "tasks_snapshot",
  "think_next_task",
  "think_frontier_task",
  "think_frontier_graph_task",
  "context_pack_task",
  "graph_query_task",
] as const;
export type CardsOpName = (typeof CARDS_OPS)[number];

const LABELS: Record<CardsOpName, string> = {
  ping: "ping (floor)",
  status: "status",
  think_next: "think_next",
  think_frontier: "think_frontier",
  think_frontier_graph: "think_frontier_graph",
  context_pack: "context_pack",
  graph_query: "graph_query main",
  tasks_snapshot: "tasks_snapshot",
  think_next_task: "think_next target",
  think_frontier_task: "think_frontier target",
  think_frontier_graph_task: "think_frontier_graph target",
  context_pack_task: "context_pack target",
  graph_query_task: "graph_query focus",
};

export function cardsOpSet(): OpSet<CardsOpName> {
  return { ops: CARDS_OPS, floor: "ping", reference: [], labels: LABELS };
}

/** The place each op reads (ping reads none). */
export function scopeOfOp(op: CardsOpName): ScopeName | undefined {
  if (op === "ping") return undefined;
  return op.endsWith("_task") || op === "tasks_snapshot" ? "task" : "checkout";
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** The frontier's list of each type. */
const FRONTIER_LISTS = { question: "questions", hypothesis: "hypotheses", test: "tests", decision: "decisions" } as const;
const object = (value: unknown): Json => (typeof value === "object" && value !== null ? (value as Json) : {});
const idsOf = (value: unknown): string => JSON.stringify(list(value).map((item) => object(item).id));
const modeOf = (value: Json): unknown => object(value.engine).mode;

interface Request {
  tool: string;
  args: Json;
  /** Why the answer is wrong, or undefined when it is right. */
  wrong: (value: Json) => string | undefined;
}

/** The call of each op and its check against the model. */
export function cardsRequest(model: CardsModel, world: CardsWorld, op: CardsOpName): Request {
  const scope = scopeOfOp(op) ?? "checkout";
  const place = PLACES[scope];
  const aim = scope === "task" ? { target: world.task } : {};
  const mode = scope === "task" ? "step_aware" : "global";
  const expect = (what: string, got: unknown, want: unknown) =>
    JSON.stringify(got) === JSON.stringify(want) ? undefined : `${what}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
  switch (op) {
    case "ping":
      return { tool: "ping", args: {}, wrong: (v) => expect("pong", v.pong, true) };
    case "status":
      return {
        tool: "status",
        args: {},
        wrong: (v) =>
          expect("writes.notes", object(v.writes).notes, { branch: PLACES.task.branch, doc: PLACES.task.notesDoc, by: "focus" }) ??
          (v.engine === undefined ? undefined : expect("engine.mode", modeOf(v), "global")),
      };
    case "think_next":
    case "think_next_task":
      return {
        tool: "think_next",
        args: aim,
        wrong: (v) => expect("graph_doc", v.graph_doc, place.graphDoc) ?? (object(v.next).kind === undefined ? "no next move" : undefined),
      };
    case "think_frontier":
    case "think_frontier_task": {
      const want = model.frontier(place.branch, place.graphDoc, FRONTIER_PER_TYPE);
      return {
        tool: "think_frontier",
        args: aim,
        wrong: (v) => {
          const frontier = object(v.frontier);
          const got = Object.fromEntries(
            FRONTIER_TYPES.map((type) => [type, JSON.parse(idsOf(frontier[FRONTIER_LISTS[type]])) as unknown]),
          );
          return expect("frontier", got, want) ?? expect("engine.mode", modeOf(v), mode);
        },
      };
    }
    case "think_frontier_graph":
    case "think_frontier_graph_task":
      return frontierGraphRequest(model, place, aim);
    case "context_pack":
    case "context_pack_task": {
      const want = model.newest(place.branch, place.graphDoc, PACK_CARDS);
      return {
        tool: "context_pack",
        args: aim,
        wrong: (v) =>
          expect("docs.graph", object(v.docs).graph, place.graphDoc) ??
          expect("truncated", v.truncated, false) ??
          expect("cards", JSON.parse(idsOf(v.cards)), want) ??
          (v.engine === undefined ? undefined : expect("engine.mode", modeOf(v), mode)),
      };
    }
    case "graph_query":
    case "graph_query_task": {
      const want = model.newest(place.branch, place.graphDoc, QUERY_LIMIT, (card) => card.type === QUERY_TYPE);
      const where = scope === "task" ? {} : { branch: place.branch, doc: place.graphDoc };
      return {
        tool: "graph_query",
        args: { ...where, types: [QUERY_TYPE], limit: QUERY_LIMIT },
        wrong: (v) => expect("doc", v.doc, place.graphDoc) ?? expect("nodes", JSON.parse(idsOf(v.nodes)), want),
      };
    }
    case "tasks_snapshot":
      return {
        tool: "tasks_snapshot",
        args: {},
        wrong: (v) =>
          expect("target", object(v.target).id, world.task) ??
          expect("step focus", object(object(v.step_focus).step).id, world.step) ??
          expect("engine.mode", modeOf(v), "step_aware"),
      };
  }
}

async function cardsCall(client: McpClient, world: CardsWorld, request: Request): Promise<Call> {
  const call = await client.callTool(request.tool, { workspace: world.workspace, ...request.args });
  const wrong = request.wrong(call.value);
  if (wrong !== undefined) {
    const answer = JSON.stringify(call.value);
    throw new Error(
      `${request.tool} ${JSON.stringify(request.args)} on ${world.workspace}: ${wrong} (answer ${answer.length} chars: ${answer.slice(0, 1_500)})`,
    );
  }
  return call;
}

/**
 * One checked call of every op, also failing on any card its view does not show (a draft, another
 * branch's); then the frontier's graph at small limits and with every lane (its own check knows the lanes).
 */
export async function checkCards(client: McpClient, model: CardsModel, world: CardsWorld): Promise<void> {
  for (const op of CARDS_OPS) {
    const request = cardsRequest(model, world, op);
    const { value } = await cardsCall(client, world, request);
    const scope = scopeOfOp(op);
    if (scope === undefined) continue;
    const place = PLACES[scope];
    const leaked = foreignCards(model, value, model.nameable(place.branch, place.graphDoc));
    if (leaked.size > 0)
      throw new Error(
        `${request.tool} ${JSON.stringify(request.args)} names cards its view does not show: ${[...leaked].slice(0, 8).join(", ")}`,
      );
  }
  for (const request of frontierGraphCases(model, world.task)) await cardsCall(client, world, request);
}

export function measureCards(
  client: McpClient,
  model: CardsModel,
  world: CardsWorld,
  warmup: number,
  samples: number,
  order?: CallOrder<CardsOpName>,
): Promise<Record<CardsOpName, number[]>> {
  const requests = new Map(CARDS_OPS.map((op) => [op, cardsRequest(model, world, op)]));
  return sampleRounds(CARDS_OPS, (op) => cardsCall(client, world, requests.get(op) as Request), warmup, samples, order);
}
