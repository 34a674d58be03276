/**
 * The ready suite's layout, as pure data, and the model the checks compare with (issue 43, "Scale"):
 * 10 plans of 1,000 tasks (TASK-001 … TASK-10000, plan by plan) and 20,000 dependencies, each task
 * waiting on 2 tasks with lower ids, so there is no cycle: one of the 300 before it in its plan, and one
 * of its plan's first 400 or (a quarter of the tasks after the first plan) a task of an earlier plan;
 * TASK-001 and TASK-002 wait on fewer, the last three tasks on a third. Older tasks of each plan are
 * mostly DONE, newer ones mostly open, so part of the queue is ready and the rest waits. Two layouts
 * share the tasks and dependencies and differ only in `task_claims` (what other agents have taken):
 *
 * - `queue`: 5 % of the ready tasks taken by other agents (alice, bob, carol), among them two of the
 *   first page's and one of the measured plan's, and two taken by the measuring agent itself (still
 *   ready for it, `held_by_you`);
 * - `taken`: every workable task (TODO or ACTIVE) taken by another agent, so nothing is ready for the
 *   measuring agent and `tasks_ready` answers no items and what the first waiting tasks wait for.
 *
 * Claims expire far above the tick the restore sets, so no read sees one expire. No server here
 * (ready-seed.ts writes the rows; ready-measure.ts asks and checks).
 */

export const PLANS = 10;
export const TASKS_PER_PLAN = 1_000;
export const DEPENDENCIES = 20_000;
/** The plan whose page `tasks_ready {plan}` measures. */
export const MEASURED_PLAN = "PLAN-006";
export const BENCH_AGENT = "bench";
export const OTHER_AGENTS = ["alice", "bob", "carol"] as const;
/** The workspace tick after the restore, and how far above it every claim expires. */
export const TICK = 20_000;
const CLAIM_TICKS = 1_000_000;
/** What `tasks_ready` shows of the waiting tasks when nothing is ready (ready.commands.ts, WAITING_SHOWN). */
export const WAITING_SHOWN = 3;

export const LAYOUTS = ["queue", "taken"] as const;
export type LayoutName = (typeof LAYOUTS)[number];

export type Status = "TODO" | "ACTIVE" | "PARKED" | "DONE" | "CANCELED";
export type Priority = "HIGH" | "MEDIUM" | "LOW";

export interface ReadyTask {
  num: number;
  id: string;
  plan: string;
  title: string;
  status: Status;
  priority: Priority;
  /** The tasks it waits on, by number. */
  blockers: number[];
}

export interface Claim {
  task: string;
  holder: string;
  acquired_tick: number;
  expires_tick: number;
}

export interface ReadyLayout {
  plans: string[];
  tasks: ReadyTask[];
  dependencies: number;
  claims: Record<LayoutName, Claim[]>;
}

/** A deterministic 32-bit hash of (i, salt), as a fraction in [0, 1). */
function unit(i: number, salt: number): number {
  let x = Math.imul(i + 1, 2654435761) ^ Math.imul(salt + 7, 40503);
  x = Math.imul(x ^ (x >>> 15), 2246822507);
  x = Math.imul(x ^ (x >>> 13), 3266489909);
  return ((x ^ (x >>> 16)) >>> 0) / 2 ** 32;
}

const pad3 = (n: number): string => String(n).padStart(3, "0");
export const taskId = (num: number): string => `TASK-${pad3(num)}`;
export const planId = (index: number): string => `PLAN-${pad3(index + 1)}`;
const FINISHED: ReadonlySet<Status> = new Set(["DONE", "CANCELED"]);
const WORKABLE: ReadonlySet<Status> = new Set(["TODO", "ACTIVE"]);
const RANK: Record<Priority, number> = { HIGH: 0, MEDIUM: 1, LOW: 2 };

/** Queue order (readiness.store.ts): priority, then id by (length, text). */
export function queueOrder(a: ReadyTask, b: ReadyTask): number {
  return RANK[a.priority] - RANK[b.priority] || a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function statusOf(num: number, index: number): Status {
  const done = index < 400 ? 0.9 : index < 700 ? 0.5 : 0.2;
  if (unit(num, 1) < done) return "DONE";
  const r = unit(num, 2);
  return r < 0.04 ? "CANCELED" : r < 0.1 ? "PARKED" : r < 0.3 ? "ACTIVE" : "TODO";
}

function priorityOf(num: number): Priority {
  const r = unit(num, 3);
  return r < 0.15 ? "HIGH" : r < 0.7 ? "MEDIUM" : "LOW";
}

/** The first tasks of a plan, its foundation: most plans' later tasks wait on one of them. */
const FOUNDATION = 400;

/**
 * Two distinct blockers below `num` (below 3, as many as exist): one of the 300 tasks before it in its
 * plan, and one of its plan's foundation or, for every fourth task after the first plan, any task of an
 * earlier plan. A plan's first task waits on the plan before it.
 */
function blockersOf(num: number, plan: number, index: number): number[] {
  if (num <= 2) return num === 2 ? [1] : [];
  const first = plan * TASKS_PER_PLAN + 1;
  const earlierPlan = (salt: number): number =>
    Math.floor(unit(num, salt) * plan) * TASKS_PER_PLAN + 1 + Math.floor(unit(num, salt + 1) * 1000);
  const one =
    index === 0 ? first - 1 - Math.floor(unit(num, 4) * TASKS_PER_PLAN) : num - 1 - Math.floor(unit(num, 4) * Math.min(index, 300));
  const foundation = first + Math.floor(unit(num, 8) * Math.min(index, FOUNDATION));
  let two = index === 0 || (plan > 0 && unit(num, 5) < 0.25) ? earlierPlan(6) : foundation;
  for (let salt = 9; two === one; salt++) two = num - 1 - Math.floor(unit(num, salt) * (num - 1));
  return [one, two];
}

export function buildReadyLayout(): ReadyLayout {
  const plans = Array.from({ length: PLANS }, (_, p) => planId(p));
  const tasks: ReadyTask[] = [];
  for (let p = 0; p < PLANS; p++) {
    for (let index = 0; index < TASKS_PER_PLAN; index++) {
      const num = p * TASKS_PER_PLAN + index + 1;
      tasks.push({
        num,
        id: taskId(num),
        plan: planId(p),
        title: `Ready bench task ${num}: step ${index + 1} of ${planId(p)}`,
        status: statusOf(num, index),
        priority: priorityOf(num),
        blockers: blockersOf(num, p, index),
      });
    }
  }
  // The first two tasks have fewer than 2 lower ids: the last three tasks take a third blocker, one in the first plan.
  for (const task of tasks.slice(-3)) task.blockers.push(1 + Math.floor(unit(task.num, 20) * TASKS_PER_PLAN));
  const dependencies = tasks.reduce((sum, task) => sum + new Set(task.blockers).size, 0);
  if (dependencies !== DEPENDENCIES) throw new Error(`the ready layout has ${dependencies} dependencies, not ${DEPENDENCIES}`);
  const upward = tasks.find((task) => task.blockers.some((num) => num < 1 || num >= task.num));
  if (upward !== undefined) throw new Error(`the ready layout: ${upward.id} waits on ${upward.blockers.join(", ")}, not all below it`);
  const layout: ReadyLayout = { plans, tasks, dependencies, claims: { queue: [], taken: [] } };
  layout.claims = { queue: queueClaims(layout), taken: takenClaims(layout) };
  return layout;
}

const claim = (task: ReadyTask, holder: string): Claim => ({
  task: task.id,
  holder,
  acquired_tick: TICK - 1 - (task.num % 500),
  expires_tick: TICK + CLAIM_TICKS,
});

function queueClaims(layout: ReadyLayout): Claim[] {
  const free = readyTasks(layout, [], "nobody");
  const inPlan = free.filter((task) => task.plan === MEASURED_PLAN);
  const holders = new Map<string, string>();
  free.forEach((task, i) => {
    if (unit(task.num, 30) < 0.05) holders.set(task.id, OTHER_AGENTS[i % OTHER_AGENTS.length] as string);
  });
  // On the first page: two taken by others (skipped), one by the measuring agent (shown, held_by_you).
  for (const [at, holder] of [
    [1, "alice"],
    [4, "bob"],
    [6, BENCH_AGENT],
  ] as const) {
    holders.set((free[at] as ReadyTask).id, holder);
  }
  for (const [at, holder] of [
    [2, "carol"],
    [5, BENCH_AGENT],
  ] as const) {
    holders.set((inPlan[at] as ReadyTask).id, holder);
  }
  return layout.tasks.filter((task) => holders.has(task.id)).map((task) => claim(task, holders.get(task.id) as string));
}

function takenClaims(layout: ReadyLayout): Claim[] {
  return layout.tasks.filter((task) => WORKABLE.has(task.status)).map((task) => claim(task, OTHER_AGENTS[task.num % 3] as string));
}

/** The unfinished tasks `task` waits on, in id order. */
export function openBlockers(layout: ReadyLayout, task: ReadyTask): ReadyTask[] {
  return [...new Set(task.blockers)]
    .map((num) => layout.tasks[num - 1] as ReadyTask)
    .filter((blocker) => !FINISHED.has(blocker.status))
    .sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : 1));
}

/** The tasks ready for `caller` under `claims`, in queue order (optionally one plan's). */
export function readyTasks(layout: ReadyLayout, claims: readonly Claim[], caller: string, plan?: string): ReadyTask[] {
  const holder = new Map(claims.map((c) => [c.task, c.holder]));
  return layout.tasks
    .filter((task) => plan === undefined || task.plan === plan)
    .filter((task) => WORKABLE.has(task.status) && openBlockers(layout, task).length === 0)
    .filter((task) => (holder.get(task.id) ?? caller) === caller)
    .sort(queueOrder);
}

/** The workable tasks (of `plan`, when given) that wait on an unfinished task, in queue order, whoever holds them. */
export function waitingTasks(layout: ReadyLayout, plan?: string): ReadyTask[] {
  return layout.tasks
    .filter((task) => (plan === undefined || task.plan === plan) && WORKABLE.has(task.status) && openBlockers(layout, task).length > 0)
    .sort(queueOrder);
}

/** Counts for the report. */
export function layoutCounts(layout: ReadyLayout) {
  const by = (status: Status) => layout.tasks.filter((task) => task.status === status).length;
  const crossPlan = layout.tasks.reduce(
    (sum, task) => sum + task.blockers.filter((num) => (layout.tasks[num - 1] as ReadyTask).plan !== task.plan).length,
    0,
  );
  return {
    plans: layout.plans.length,
    tasks: layout.tasks.length,
    dependencies: layout.dependencies,
    cross_plan_dependencies: crossPlan,
    statuses: { TODO: by("TODO"), ACTIVE: by("ACTIVE"), PARKED: by("PARKED"), DONE: by("DONE"), CANCELED: by("CANCELED") },
    ready_for_nobody: readyTasks(layout, [], "nobody").length,
    waiting: waitingTasks(layout).length,
    claims: { queue: layout.claims.queue.length, taken: layout.claims.taken.length },
    ready_for_bench: { queue: readyTasks(layout, layout.claims.queue, BENCH_AGENT).length, taken: 0 },
  };
}
