/**
 * Where a call's time goes on the server: the benchmark reads the server's own `call` log lines
 * (`src/worker/call-log.ts`, one per `tools/call`, printed by `wrangler dev` at log level `log`) and
 * gives each measured op the time its calls spent inside the workspace object (`object_ms`) and in the
 * Worker in all (`duration_ms`), next to the client's time. Answers stay byte-identical: the figures
 * travel in the log, not in the result.
 *
 * Calls are sampled one at a time, so the lines arrive in the order of the calls: the order
 * `sampleRounds` keeps, zipped with the lines, gives each sample its line. A drain call (a `ping` on a workspace of its own)
 * marks the end of a phase: once its line arrives, every line before it has too.
 *
 * Both clocks step by 1 ms (workerd's timers), so one call's figure is a whole number of ms; the mean
 * over many calls is the estimate (a call's start falls anywhere within a step). Deployed, the
 * object's clock advances only across I/O, so these are local figures.
 */
import type { McpClient } from "../lib/mcp-http.ts";
import { fmtInt, pad, padEnd } from "./format.ts";
import type { OpResult, OpSet } from "./sampling.ts";
import { statsOf } from "./stats.ts";

/** The fields of a `call` line the benchmark uses. */
export interface CallLine {
  workspace: string | null;
  cmd: string | null;
  outcome: string | null;
  duration_ms: number | null;
  object_ms: number | null;
}

export interface ObjectTime {
  /** Calls with a line (equal to the op's samples). */
  n: number;
  /** Mean time inside workspace objects per call, ms (null when no call ran in one). */
  object_mean_ms: number | null;
  /** Mean time in the Worker per call (from the MCP handler's start to its answer), ms. */
  worker_mean_ms: number | null;
  /** The command the op ran (the lines' `cmd`). */
  cmd: string | null;
}

/** How long a drain waits for its own line before the run fails (the lines are not arriving). */
const DRAIN_TIMEOUT_MS = 15_000;
const DRAIN_WORKSPACE_PREFIX = "bench/drain-";
/** wrangler's line per request at log level `log`, e.g. `[wrangler:info] POST /mcp 200 OK (9ms)`. */
const WRANGLER_REQUEST_LINE = /^\[wrangler:info\] [A-Z]+ \/\S* \d{3} /;

function parseCallLine(line: string): CallLine | undefined {
  if (!line.startsWith("{") || !line.includes('"event":"call"')) return undefined;
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    if (value.event !== "call") return undefined;
    const text = (key: string) => (typeof value[key] === "string" ? (value[key] as string) : null);
    const number = (key: string) => (typeof value[key] === "number" ? (value[key] as number) : null);
    return {
      workspace: text("workspace"),
      cmd: text("cmd"),
      outcome: text("outcome"),
      duration_ms: number("duration_ms"),
      object_ms: number("object_ms"),
    };
  } catch {
    return undefined;
  }
}

/** The server's call lines as they arrive, taken phase by phase. */
export class CallLines {
  private lines: CallLine[] = [];
  private drains = 0;
  private waiting: { workspace: string; arrived: () => void } | undefined;

  /**
   * Feed every line the server prints; answers true for a call line (kept here, not echoed) and for
   * wrangler's own line per request at this log level (dropped: one per call is noise).
   */
  readonly feed = (line: string): boolean => {
    const trimmed = line.trim();
    if (WRANGLER_REQUEST_LINE.test(trimmed)) return true;
    const parsed = parseCallLine(trimmed);
    if (parsed === undefined) return false;
    if (this.waiting !== undefined && parsed.workspace === this.waiting.workspace) this.waiting.arrived();
    else this.lines.push(parsed);
    return true;
  };

  /** Every call line since the last drain, once the server has printed them all. */
  async drain(client: McpClient): Promise<CallLine[]> {
    const workspace = `${DRAIN_WORKSPACE_PREFIX}${++this.drains}`;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<void>((resolve, reject) => {
      this.waiting = { workspace, arrived: resolve };
      timer = setTimeout(
        () => reject(new Error(`the server's call log lines did not arrive within ${DRAIN_TIMEOUT_MS / 1000} s (log level "log"?)`)),
        DRAIN_TIMEOUT_MS,
      );
    });
    try {
      await client.callTool("ping", { workspace });
      await arrived;
    } finally {
      clearTimeout(timer);
      this.waiting = undefined;
    }
    return this.lines.splice(0);
  }
}

/** Commands a suite calls between its samples, never as a measured op: their lines do not pair with samples. */
const HOUSEKEEPING_COMMANDS: ReadonlySet<string> = new Set(["records.close_session"]);

const mean = (values: number[]): number | null => (values.length === 0 ? null : statsOf(values).mean_ms);
const round3 = (value: number | null): number | null => (value === null ? null : Math.round(value * 1000) / 1000);

/**
 * Each op's object and Worker time over its sampled rounds (warm-up rounds left out), from the calls'
 * order and the lines of the same phase; `unlogged` ops make no tool call (`GET /health`). Throws when
 * calls and lines do not pair up one to one.
 */
export function objectTimesOf<Op extends string>(
  ops: readonly Op[],
  order: readonly { op: Op; round: number }[],
  lines: readonly CallLine[],
  warmup: number,
  unlogged: readonly Op[] = [],
): Record<Op, ObjectTime> {
  const logged = order.filter((entry) => !unlogged.includes(entry.op));
  // A suite's unmeasured housekeeping between samples (closing a full Record-Sync session) logs too.
  const measured = lines.filter((line) => line.cmd === null || !HOUSEKEEPING_COMMANDS.has(line.cmd));
  if (logged.length !== measured.length) {
    throw new Error(`${logged.length} tool calls were made but the server logged ${measured.length} call lines`);
  }
  const byOp = new Map<Op, CallLine[]>(ops.map((op) => [op, []]));
  logged.forEach((entry, i) => {
    if (entry.round >= warmup) byOp.get(entry.op)?.push(measured[i] as CallLine);
  });
  const result = {} as Record<Op, ObjectTime>;
  for (const op of ops) {
    const opLines = byOp.get(op) ?? [];
    const objects = opLines.flatMap((line) => (line.object_ms === null ? [] : [line.object_ms]));
    const workers = opLines.flatMap((line) => (line.duration_ms === null ? [] : [line.duration_ms]));
    result[op] = {
      n: opLines.length,
      object_mean_ms: round3(mean(objects)),
      worker_mean_ms: round3(mean(workers)),
      cmd: opLines[0]?.cmd ?? null,
    };
  }
  return result;
}

/** A size of a suite with its ops' object times. */
export interface TimedSize<Op extends string> {
  size: number;
  ops: Record<Op, OpResult>;
  object_time?: Record<Op, ObjectTime>;
}

const cell = (value: number | null): string => (value === null ? "—" : value.toFixed(2));

/**
 * Per size, each op's client median next to the Worker's and the object's mean time per call: what a
 * change saves inside the object, apart from the wire.
 */
export function objectTimeLines<Op extends string>(set: OpSet<Op>, results: readonly TimedSize<Op>[], unit: string): string[] {
  const timed = results.filter((result) => result.object_time !== undefined);
  if (timed.length === 0) return [];
  const width = Math.max(24, ...set.ops.map((op) => set.labels[op].length + 2));
  const out = [
    "Where the time goes, ms per call: client median | Worker mean (MCP handler start to answer) | object mean (inside the",
    "workspace object); the server's clocks step by 1 ms, so its figures are means over the samples",
    `${padEnd("op", width)}${timed.map((r) => pad(`${fmtInt(r.size)} ${unit}`, 24)).join("")}`,
    `${padEnd("", width)}${timed.map(() => `${pad("client", 8)}${pad("worker", 8)}${pad("object", 8)}`).join("")}`,
  ];
  for (const op of set.ops) {
    if (set.reference.includes(op)) continue;
    const cells = timed.map((r) => {
      const time = r.object_time?.[op];
      return `${pad(r.ops[op].median_ms.toFixed(2), 8)}${pad(cell(time?.worker_mean_ms ?? null), 8)}${pad(cell(time?.object_mean_ms ?? null), 8)}`;
    });
    out.push(`${padEnd(set.labels[op], width)}${cells.join("")}`);
  }
  return out;
}
