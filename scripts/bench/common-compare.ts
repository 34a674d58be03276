/**
 * The common suite against an earlier revision (`--compare-root DIR`): the same workspace seeded on
 * both servers, then every op called once on each server per round, the pair side by side and the
 * round's order rotated (so both see the same machine), and per op its ratio to its own server's floor
 * on each side and the difference (now − before). The writes' target: each within +0.05 of its ratio
 * there. An op the earlier server does not have (an unknown tool) is reported absent, not failed.
 */
import { log, startDevServer } from "../lib/dev-server.ts";
import { McpCallError, type McpClient } from "../lib/mcp-http.ts";
import { COMMON_OPS, type CommonOpName, commonCall, commonOpSet } from "./common-measure.ts";
import type { CommonSetup } from "./common-seed.ts";
import { commitOf } from "./machine.ts";
import { CallLines, type ObjectTime, objectTimesOf } from "./object-time.ts";
import { type CallOrder, type OpResult, sampleRounds, summarize } from "./sampling.ts";

/** The common ops that write. */
export const COMMON_WRITES: readonly CommonOpName[] = [
  "tasks_evidence_capture",
  "think_card",
  "knowledge_upsert",
  "jobs_create",
  "graph_apply",
  "notes_commit",
  "create_record",
];
/** Each write's ratio to the floor at most this much above the earlier revision's. */
export const TARGET_MAX_RATIO_DIFF = 0.05;

export type CompareOp = `${"now" | "before"}:${CommonOpName}`;

/** The earlier revision's server (`--compare-root`): its client, its directory and commit, its call lines. */
export interface CommonBefore {
  client: McpClient;
  root: string;
  commit: string;
  /** The commit, or the directory when it has none (an exported tree). */
  label: string;
  lines: CallLines;
}

/** A server of the comparison, the workspace seeded on it, and its call lines (when read). */
export interface CompareSide {
  client: McpClient;
  setup: CommonSetup;
  lines?: CallLines | undefined;
}

export interface OpComparison {
  ratio_now: number;
  ratio_before: number | null;
  /** ratio_now − ratio_before. */
  ratio_diff: number | null;
  write: boolean;
  /** For a write: within TARGET_MAX_RATIO_DIFF; null for a read or an absent op. */
  met: boolean | null;
}

export interface CommonComparison {
  root: string;
  commit: string;
  /** The commit, or the directory when it has none. */
  label: string;
  absent: CommonOpName[];
  before_seeding: CommonSetup["seeding"];
  before_ops: Partial<Record<CommonOpName, OpResult>>;
  /** The earlier server's Worker and object time per call, from its own call lines. */
  before_object_time?: Partial<Record<CommonOpName, ObjectTime>>;
  ops: Record<CommonOpName, OpComparison>;
}

const isUnknownTool = (error: unknown): boolean =>
  error instanceof McpCallError && error.kind === "json-rpc" && /unknown tool/i.test(error.message);

/** The ops the earlier server has, each checked once; an unknown tool is absent, any other failure fails the run. */
export async function presentOps(side: CompareSide): Promise<{ present: CommonOpName[]; absent: CommonOpName[] }> {
  const present: CommonOpName[] = [];
  const absent: CommonOpName[] = [];
  for (const op of COMMON_OPS) {
    try {
      await commonCall(side.client, side.setup, op, -1);
      present.push(op);
    } catch (error) {
      if (!isUnknownTool(error)) throw new Error(`the earlier revision's ${op}: ${error instanceof Error ? error.message : String(error)}`);
      absent.push(op);
    }
  }
  if (!present.includes("ping")) throw new Error("the earlier revision has no ping: there is no floor to compare with");
  return { present, absent };
}

/** Both sides' samples: per round each present op on both servers, side by side, the order rotated. */
async function sampleCompared(
  now: CompareSide,
  before: CompareSide,
  present: readonly CommonOpName[],
  warmup: number,
  samples: number,
  order: CallOrder<CompareOp>,
): Promise<{ now: Record<CommonOpName, number[]>; before: Record<CommonOpName, number[]> }> {
  const ops = COMMON_OPS.flatMap((op): CompareOp[] => (present.includes(op) ? [`now:${op}`, `before:${op}`] : [`now:${op}`]));
  const times = await sampleRounds(
    ops,
    (op, round) => {
      const [side, name] = op.split(":") as ["now" | "before", CommonOpName];
      return commonCall(side === "now" ? now.client : before.client, side === "now" ? now.setup : before.setup, name, round);
    },
    warmup,
    samples,
    order,
  );
  const of = (side: "now" | "before") =>
    Object.fromEntries(COMMON_OPS.map((op) => [op, times[`${side}:${op}`] ?? []])) as Record<CommonOpName, number[]>;
  return { now: of("now"), before: of("before") };
}

/** Each op's ratio on both sides and the difference; `nowOps` are the now side's results (floor: its ping). */
function compareRatios(
  nowOps: Record<CommonOpName, OpResult>,
  beforeTimes: Record<CommonOpName, number[]>,
  present: readonly CommonOpName[],
): { before_ops: Partial<Record<CommonOpName, OpResult>>; ops: Record<CommonOpName, OpComparison> } {
  const set = commonOpSet();
  const beforeSet = { ...set, ops: set.ops.filter((op) => present.includes(op)) };
  const before_ops: Partial<Record<CommonOpName, OpResult>> = summarize(beforeSet, beforeTimes);
  const ops = {} as Record<CommonOpName, OpComparison>;
  for (const op of COMMON_OPS) {
    const now = nowOps[op].ratio_to_floor;
    const earlier = before_ops[op]?.ratio_to_floor ?? null;
    const diff = earlier === null ? null : now - earlier;
    const write = COMMON_WRITES.includes(op);
    ops[op] = {
      ratio_now: now,
      ratio_before: earlier,
      ratio_diff: diff,
      write,
      met: write && diff !== null ? diff <= TARGET_MAX_RATIO_DIFF : null,
    };
  }
  return { before_ops, ops };
}

/** One side's object times: its server's call lines paired with its own calls (the other side's left out). */
async function sideTimes(side: CompareSide, label: "now" | "before", order: CallOrder<CompareOp>, warmup: number) {
  if (side.lines === undefined) return undefined;
  const ops = [...new Set(order.map((entry) => entry.op))];
  const timed = objectTimesOf(
    ops,
    order,
    await side.lines.drain(side.client),
    warmup,
    ops.filter((op) => !op.startsWith(`${label}:`)),
  );
  return Object.fromEntries(ops.filter((op) => op.startsWith(`${label}:`)).map((op) => [op.slice(label.length + 1), timed[op]])) as Partial<
    Record<CommonOpName, ObjectTime>
  >;
}

/**
 * The common suite's ops on both servers (each seeded already): which the earlier one has, the samples
 * of both in the same rounds, this checkout's results (as without a comparison) and the comparison.
 */
export async function measureCompared(
  now: CompareSide,
  before: CompareSide,
  info: CommonBefore,
  options: { warmup: number; samples: number },
): Promise<{ ops: Record<CommonOpName, OpResult>; object_time?: Record<CommonOpName, ObjectTime>; compare: CommonComparison }> {
  const { present, absent } = await presentOps(before);
  if (absent.length > 0) log(`  absent on ${info.label}: ${absent.join(", ")}`);
  log(
    `measuring ${now.setup.workspace} on both servers: ${options.warmup} warmup + ${options.samples} sample rounds of ${COMMON_OPS.length + present.length} calls`,
  );
  await now.lines?.drain(now.client);
  await before.lines?.drain(before.client);
  const order: CallOrder<CompareOp> = [];
  const times = await sampleCompared(now, before, present, options.warmup, options.samples, order);
  const objectTime = (await sideTimes(now, "now", order, options.warmup)) as Record<CommonOpName, ObjectTime> | undefined;
  const beforeObjectTime = await sideTimes(before, "before", order, options.warmup);
  const ops = summarize(commonOpSet(), times.now);
  const compare: CommonComparison = {
    root: info.root,
    commit: info.commit,
    label: info.label,
    absent,
    before_seeding: before.setup.seeding,
    ...compareRatios(ops, times.before, present),
    ...(beforeObjectTime === undefined ? {} : { before_object_time: beforeObjectTime }),
  };
  return { ops, ...(objectTime === undefined ? {} : { object_time: objectTime }), compare };
}

/**
 * The server of `--compare-root`, started once on first use (the common and answers suites share it),
 * configured as this checkout's: the same dev tools and log level (its call lines are read too, so both
 * servers print one line per call). `modules`: this checkout, whose `node_modules` it borrows.
 */
export function comparisonServer(config: {
  root: string | undefined;
  modules: string;
  devTools: boolean;
  clientAt: (base: string) => McpClient;
}): () => Promise<CommonBefore | undefined> {
  let started: Promise<CommonBefore> | undefined;
  return () => {
    const { root } = config;
    if (root === undefined) return Promise.resolve(undefined);
    started ??= (async () => {
      log(`starting the comparison server from ${root}`);
      const lines = new CallLines();
      const tempPrefix = "branchmind-bench-before-";
      const other = await startDevServer({ root, modules: config.modules, tempPrefix, devTools: config.devTools, serverLines: lines.feed });
      const commit = commitOf(root);
      return { client: config.clientAt(other.base), root, commit, label: commit === "unknown" ? root : commit, lines };
    })();
    return started;
  };
}
