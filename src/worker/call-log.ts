/**
 * Structured logs of the front door, one JSON line each, for `wrangler tail` and Workers Logs:
 *
 * - a `call` line per `tools/call`: who (agent, key id), where (workspace), what (tool, portal op,
 *   command), how it ended (`ok` or the error code), how long it took in the Worker and how much of
 *   that inside workspace objects (`object_ms`, null when none ran; a local figure, see
 *   workspace-object.ts), the SQLite rows those objects read (`rows_read`, the figure Cloudflare bills;
 *   null when none ran), and the tick when the result reports one;
 * - a `refused` line per request the front door turns away (bad lock, toolset, body size, auth).
 *
 * Lines carry exactly the keys listed below, always all of them (null when unknown), so a query can
 * rely on the shape. Argument values, result content and tokens never reach a line: the formatters
 * take only the listed keys, and only strings and numbers of bounded size. Pure: no I/O, no clock.
 */
import { isValidWorkspaceName } from "../shared/names";
import type { Result } from "../shared/result";
import { clip } from "../shared/text";

export const CALL_LOG_KEYS = [
  "ts",
  "event",
  "agent_id",
  "key_id",
  "workspace",
  "tool",
  "op",
  "cmd",
  "outcome",
  "duration_ms",
  "tick",
  "object_ms",
  "rows_read",
] as const;
export const REFUSAL_LOG_KEYS = ["ts", "event", "status", "outcome", "reason"] as const;

type LogValue = string | number | null;
export type CallLogLine = Record<(typeof CALL_LOG_KEYS)[number], LogValue>;
export type RefusalLogLine = Record<(typeof REFUSAL_LOG_KEYS)[number], LogValue>;

/** Longest string a log field keeps (agent ids and workspace names are at most 128). */
const MAX_FIELD_CHARS = 128;

/** Decimals a logged number keeps (object times are sums of fractions of a millisecond). */
const NUMBER_DECIMALS = 3;

function field(value: unknown): LogValue {
  if (typeof value === "string") return clip(value, MAX_FIELD_CHARS);
  if (typeof value === "number" && Number.isFinite(value)) return Math.round(value * 10 ** NUMBER_DECIMALS) / 10 ** NUMBER_DECIMALS;
  return null;
}

function pick<K extends string>(keys: readonly K[], fields: Readonly<Record<string, unknown>>): Record<K, LogValue> {
  const line = {} as Record<K, LogValue>;
  for (const key of keys) line[key] = field(fields[key]);
  return line;
}

/** The `call` line: only CALL_LOG_KEYS, whatever else `fields` holds. */
export function callLogLine(fields: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(pick(CALL_LOG_KEYS, { ...fields, event: "call" }));
}

/** The `refused` line: only REFUSAL_LOG_KEYS, whatever else `fields` holds. */
export function refusalLogLine(fields: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(pick(REFUSAL_LOG_KEYS, { ...fields, event: "refused" }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function workspaceName(value: unknown): string | undefined {
  return typeof value === "string" && isValidWorkspaceName(value) ? value : undefined;
}

/** `ok`, or the error code of a failed call. */
export function outcomeOf(result: Result<Record<string, unknown>>): string {
  return result.ok ? "ok" : result.error.code;
}

/** The tick a successful result reports at its top level (no read is made to find one). */
export function tickOf(result: Result<Record<string, unknown>> | undefined): number | null {
  const tick = result?.ok ? result.value.tick : undefined;
  return typeof tick === "number" && Number.isFinite(tick) ? tick : null;
}

/**
 * The call's workspace: the one the result reports (its capsule's `where`, else its `workspace`),
 * else the URL lock, else the first of `named` (the call's workspace/project arguments) that is a
 * valid workspace name. Anything that is not a valid name is never logged.
 */
export function workspaceOf(
  result: Result<Record<string, unknown>> | undefined,
  lock: string | undefined,
  named: unknown[],
): string | null {
  if (result?.ok) {
    const capsule = result.value.capsule;
    const where = isRecord(capsule) && isRecord(capsule.where) ? capsule.where.workspace : undefined;
    const reported = workspaceName(where) ?? workspaceName(result.value.workspace);
    if (reported !== undefined) return reported;
  }
  return workspaceName(lock) ?? named.map(workspaceName).find((name) => name !== undefined) ?? null;
}
