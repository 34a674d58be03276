/**
 * What the ready suite measures, in both layouts side by side in the same rounds: `ping` (each
 * layout's floor, in its own workspace), `tasks_ready` (the first page, default limit 20) and
 * `tasks_ready {plan}` (MEASURED_PLAN's first page). Every answer is checked against the model of
 * ready-layout.ts: in the queue, exactly the expected tasks in queue order (the caller's own claims
 * flagged, other agents' skipped) and a next page; with every task taken, no items, no next page, and
 * `waiting` naming the first waiting tasks with exactly the unfinished tasks each waits for. Before
 * measuring, `walkQueue` pages through the whole queue (and the plan's) to check that no page hides a
 * ready task.
 */
import type { Call, Json, McpClient } from "../lib/mcp-http.ts";
import {
  BENCH_AGENT,
  type LayoutName,
  MEASURED_PLAN,
  openBlockers,
  type ReadyLayout,
  type ReadyTask,
  readyTasks,
  TICK,
  WAITING_SHOWN,
  waitingTasks,
} from "./ready-layout.ts";
import { type CallOrder, type OpSet, sampleRounds } from "./sampling.ts";

/** tasks_ready's default page size (ready.commands.ts, DEFAULT_READY_LIMIT), and the largest page the walk asks for. */
export const PAGE = 20;
const WALK_PAGE = 100;

export const READY_OPS = ["ping", "ready", "ready_plan", "ping_taken", "ready_taken", "ready_plan_taken"] as const;
export type ReadyOpName = (typeof READY_OPS)[number];
/** Each op's layout, and the floor its ratio is taken against (the ping of its own workspace). */
export const LAYOUT_OF: Record<ReadyOpName, LayoutName> = {
  ping: "queue",
  ready: "queue",
  ready_plan: "queue",
  ping_taken: "taken",
  ready_taken: "taken",
  ready_plan_taken: "taken",
};
export const FLOOR_OF: Record<LayoutName, ReadyOpName> = { queue: "ping", taken: "ping_taken" };
export const LAYOUT_LABELS: Record<LayoutName, string> = { queue: "queue", taken: "all taken" };

/** Each op's call, without its layout. */
export const CALL_LABELS: Record<ReadyOpName, string> = {
  ping: "ping (floor)",
  ready: "tasks_ready",
  ready_plan: `tasks_ready {plan}`,
  ping_taken: "ping (floor)",
  ready_taken: "tasks_ready",
  ready_plan_taken: `tasks_ready {plan}`,
};

export function readyOpSet(): OpSet<ReadyOpName> {
  const labels = Object.fromEntries(READY_OPS.map((op) => [op, `${LAYOUT_LABELS[LAYOUT_OF[op]]}: ${CALL_LABELS[op]}`]));
  return { ops: READY_OPS, floor: "ping", reference: [], labels: labels as Record<ReadyOpName, string> };
}

export const readyWorkspace = (layout: LayoutName): string => `bench/ready-${layout}`;

interface Request {
  workspace: string;
  tool: string;
  args: Json;
  /** Why the answer is wrong, or undefined when it is right. */
  wrong: (value: Json) => string | undefined;
}

const object = (value: unknown): Json => (typeof value === "object" && value !== null ? (value as Json) : {});
const expect = (what: string, got: unknown, want: unknown): string | undefined =>
  JSON.stringify(got) === JSON.stringify(want) ? undefined : `${what}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;

/** An item as tasks_ready lists it (its fields in the answer's order). */
function itemOf(task: ReadyTask, heldByCaller: ReadonlySet<string>) {
  return {
    id: task.id,
    title: task.title,
    plan_id: task.plan,
    status: task.status,
    priority: task.priority,
    held_by_you: heldByCaller.has(task.id),
  };
}

/** The first page's check: exactly `want`, a next page when there is more, and `waiting` when nothing is ready. */
function pageCheck(layout: ReadyLayout, name: LayoutName, plan: string | undefined): (value: Json) => string | undefined {
  const claims = layout.claims[name];
  const ready = readyTasks(layout, claims, BENCH_AGENT, plan);
  const own = new Set(claims.filter((claim) => claim.holder === BENCH_AGENT).map((claim) => claim.task));
  const items = ready.slice(0, PAGE).map((task) => itemOf(task, own));
  const more = ready.length > PAGE;
  const pagination = { cursor: null, limit: PAGE, count: items.length, has_more: more, ...(more ? { next_cursor: items.at(-1)?.id } : {}) };
  // With nothing ready, `waiting` names the first waiting tasks (of the plan, when one is given).
  const waiting =
    ready.length > 0
      ? undefined
      : waitingTasks(layout, plan)
          .slice(0, WAITING_SHOWN)
          .map((task) => ({
            id: task.id,
            title: task.title,
            waits_for: openBlockers(layout, task).map((blocker) => `${blocker.id} (${blocker.status})`),
          }));
  return (v) =>
    expect("items", v.items, items) ??
    expect("pagination", v.pagination, pagination) ??
    expect("waiting", v.waiting, waiting) ??
    expect("now_tick", v.now_tick, TICK);
}

export function readyRequest(layout: ReadyLayout, op: ReadyOpName): Request {
  const name = LAYOUT_OF[op];
  const workspace = readyWorkspace(name);
  if (op === "ping" || op === "ping_taken") return { workspace, tool: "ping", args: {}, wrong: (v) => expect("pong", v.pong, true) };
  const plan = op === "ready_plan" || op === "ready_plan_taken" ? MEASURED_PLAN : undefined;
  return { workspace, tool: "tasks_ready", args: plan === undefined ? {} : { plan }, wrong: pageCheck(layout, name, plan) };
}

async function checkedCall(client: McpClient, request: Request): Promise<Call> {
  const call = await client.callTool(request.tool, { workspace: request.workspace, ...request.args });
  const wrong = request.wrong(call.value);
  if (wrong !== undefined) {
    const answer = JSON.stringify(call.value);
    throw new Error(
      `${request.tool} ${JSON.stringify(request.args)} on ${request.workspace}: ${wrong} (answer ${answer.length} chars: ${answer.slice(0, 1_500)})`,
    );
  }
  return call;
}

/** Pages through the whole queue of `name` (optionally one plan's) and compares it with the model; answers the pages read. */
export async function walkQueue(client: McpClient, layout: ReadyLayout, name: LayoutName, plan?: string): Promise<number> {
  const want = readyTasks(layout, layout.claims[name], BENCH_AGENT, plan).map((task) => task.id);
  const got: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const args = {
      workspace: readyWorkspace(name),
      limit: WALK_PAGE,
      ...(plan === undefined ? {} : { plan }),
      ...(cursor ? { cursor } : {}),
    };
    const { value } = await client.callTool("tasks_ready", args);
    pages++;
    got.push(...((value.items ?? []) as Json[]).map((item) => String(item.id)));
    const pagination = object(value.pagination);
    cursor = pagination.has_more === true ? String(pagination.next_cursor) : undefined;
  } while (cursor !== undefined && pages <= want.length / WALK_PAGE + 2);
  const where = `${readyWorkspace(name)}${plan === undefined ? "" : ` ${plan}`}`;
  if (got.length !== want.length || got.some((id, i) => id !== want[i])) {
    let at = 0;
    while (got[at] === want[at]) at++;
    throw new Error(
      `tasks_ready on ${where}: ${got.length} tasks over ${pages} pages, the model has ${want.length}; first difference at ${at}: ${got[at]} vs ${want[at]}`,
    );
  }
  return pages;
}

/** One checked call of every op. */
export async function checkReady(client: McpClient, layout: ReadyLayout): Promise<void> {
  for (const op of READY_OPS) await checkedCall(client, readyRequest(layout, op));
}

export function measureReady(
  client: McpClient,
  layout: ReadyLayout,
  warmup: number,
  samples: number,
  order?: CallOrder<ReadyOpName>,
): Promise<Record<ReadyOpName, number[]>> {
  const requests = new Map(READY_OPS.map((op) => [op, readyRequest(layout, op)]));
  return sampleRounds(READY_OPS, (op) => checkedCall(client, requests.get(op) as Request), warmup, samples, order);
}
