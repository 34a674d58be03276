/**
 * The ready suite (issue 43, "Scale"): the layout of ready-layout.ts (10 plans of 1,000 tasks, 20,000
 * dependencies) restored twice through `workspace_import {jsonl}` (ready-seed.ts), into
 * `bench/ready-queue` with a normal queue's claims and `bench/ready-taken` with every workable task
 * taken by another agent; the whole queue of each walked page by page against the model; then
 * `tasks_ready` and `tasks_ready {plan}` sampled in both workspaces in the same rotated rounds, each
 * answer checked, each layout against its own `ping`, with the Worker/object split from the server's
 * call lines.
 */
import { log } from "../lib/dev-server.ts";
import type { McpClient } from "../lib/mcp-http.ts";
import { type CallLines, type ObjectTime, objectTimesOf } from "./object-time.ts";
import { buildReadyLayout, LAYOUTS, type LayoutName, layoutCounts, MEASURED_PLAN } from "./ready-layout.ts";
import {
  checkReady,
  FLOOR_OF,
  LAYOUT_OF,
  measureReady,
  READY_OPS,
  type ReadyOpName,
  readyOpSet,
  readyWorkspace,
  walkQueue,
} from "./ready-measure.ts";
import { type ReadySeeding, seedReady } from "./ready-seed.ts";
import { fmtInt } from "./report.ts";
import { type CallOrder, type OpResult, summarize } from "./sampling.ts";

export interface ReadySuiteOptions {
  warmup: number;
  samples: number;
}

export interface ReadyResult {
  /** Tasks in each workspace. */
  size: number;
  workspaces: Record<LayoutName, string>;
  layout: ReturnType<typeof layoutCounts>;
  seeding: Record<LayoutName, ReadySeeding>;
  /** Pages of 100 the walk of each whole queue took (the workspace's, then MEASURED_PLAN's). */
  walk_pages: Record<LayoutName, { all: number; plan: number }>;
  /** Each op's stats; `ratio_to_floor` is against its own layout's `ping`. */
  ops: Record<ReadyOpName, OpResult>;
  /** Each op's median minus its layout's floor's, ms. */
  above_floor_ms: Record<ReadyOpName, number>;
  object_time?: Record<ReadyOpName, ObjectTime>;
}

export async function runReadySuite(client: McpClient, options: ReadySuiteOptions, lines?: CallLines): Promise<ReadyResult> {
  const layout = buildReadyLayout();
  const counts = layoutCounts(layout);
  const seeding = {} as Record<LayoutName, ReadySeeding>;
  const walkPages = {} as Record<LayoutName, { all: number; plan: number }>;
  log(
    `seeding the ready suite: ${counts.plans} plans, ${fmtInt(counts.tasks)} tasks, ${fmtInt(counts.dependencies)} dependencies ` +
      `(${fmtInt(counts.cross_plan_dependencies)} across plans), ${fmtInt(counts.ready_for_nobody)} ready, ${fmtInt(counts.waiting)} waiting`,
  );
  for (const name of LAYOUTS) {
    const workspace = readyWorkspace(name);
    seeding[name] = await seedReady(client, workspace, layout, name);
    const s = seeding[name];
    log(
      `  ${workspace}: ${fmtInt(layout.claims[name].length)} claims; ${fmtInt(s.lines)} lines restored in ${s.calls} calls, ` +
        `${(s.ms / 1000).toFixed(1)} s`,
    );
    walkPages[name] = { all: await walkQueue(client, layout, name), plan: await walkQueue(client, layout, name, MEASURED_PLAN) };
  }
  await checkReady(client, layout);
  log(`  checked: both whole queues and ${MEASURED_PLAN}'s page by page, and one answer of every op, against the model`);
  const set = readyOpSet();
  log(`measuring the ready suite: ${options.warmup} warmup + ${options.samples} sample rounds of ${READY_OPS.length} ops`);
  await lines?.drain(client);
  const order: CallOrder<ReadyOpName> = [];
  const times = await measureReady(client, layout, options.warmup, options.samples, order);
  const objectTime = lines === undefined ? undefined : objectTimesOf(READY_OPS, order, await lines.drain(client), options.warmup);
  const ops = summarize(set, times);
  const above = {} as Record<ReadyOpName, number>;
  for (const op of READY_OPS) {
    const floor = ops[FLOOR_OF[LAYOUT_OF[op]]].median_ms;
    ops[op].ratio_to_floor = ops[op].median_ms / floor;
    above[op] = Math.round((ops[op].median_ms - floor) * 1000) / 1000;
  }
  return {
    size: counts.tasks,
    workspaces: { queue: readyWorkspace("queue"), taken: readyWorkspace("taken") },
    layout: counts,
    seeding,
    walk_pages: walkPages,
    ops,
    above_floor_ms: above,
    ...(objectTime === undefined ? {} : { object_time: objectTime }),
  };
}
