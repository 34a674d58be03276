// Fuzzing checks, shared by the fuzz test files: state snapshots of the fuzz workspace and the
// Directory, reading an answer, the properties every answer must have (typed errors, no 5xx or -32603,
// a flat tool's outputSchema and answer contract), `fuzzCall` (one call, checked, with no state change
// on a rejection or a read) and `checkRepeat` (a read sent twice answers the same; a replay writes nothing).

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { type Schema, Validator } from "@cfworker/json-schema";
import { findCommand } from "../../src/catalog/catalog";
import { ERROR_CODES } from "../../src/shared/errors";
import { DIRECTORY_NAME } from "../../src/shared/workspace-summary";
import { answerContract, TOOL_DEFINITIONS } from "../../src/worker/surfaces/tool-definitions";
import { abbreviate, FuzzViolation, type Outcome, serverLog, show, stats, target, violation } from "./harness";

// ---------------------------------------------------------------------------------------------------
// State snapshots

interface Snapshot {
  workspace: Record<string, number>;
  directory: Record<string, number>;
}

/** Every clock and the row count of every table (internal `_cf_*`/`sqlite_*` tables excluded), in one query. */
function countRows(sql: SqlStorage, withClocks: boolean): Record<string, number> {
  const tables = sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .toArray()
    .map((row) => row.name)
    .filter((name) => !name.startsWith("_cf_") && !name.startsWith("sqlite_"));
  const counts = tables.map((table, index) => `(SELECT COUNT(*) FROM "${table}") AS t${index}`).join(", ");
  const row = sql.exec<Record<string, number>>(`SELECT ${counts}`).one();
  const out: Record<string, number> = {};
  tables.forEach((table, index) => {
    out[`rows:${table}`] = row[`t${index}`] as number;
  });
  if (withClocks) {
    for (const clock of sql.exec<{ name: string; value: number }>("SELECT name, value FROM clocks").toArray()) {
      out[`clock:${clock.name}`] = clock.value;
    }
  }
  return out;
}

export async function snapshot(): Promise<Snapshot> {
  const [workspace, directory] = await Promise.all([
    runInDurableObject(env.WORKSPACES.getByName(target.workspace), (_instance, state) => countRows(state.storage.sql, true)),
    runInDurableObject(env.DIRECTORY.getByName(DIRECTORY_NAME), (_instance, state) => countRows(state.storage.sql, false)),
  ]);
  return { workspace, directory };
}

export function changes(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const side of ["workspace", "directory"] as const) {
    const keys = new Set([...Object.keys(before[side]), ...Object.keys(after[side])]);
    for (const key of keys) {
      if (before[side][key] !== after[side][key]) out.push(`${side} ${key}: ${before[side][key]} → ${after[side][key]}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Sending and checking one call

export interface Answer {
  status: number;
  text: string;
  /** The JSON-RPC message (or the front door's JSON error), if the body is JSON. */
  message?: Record<string, unknown>;
}

export async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  let payload = text;
  if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const data = text
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trim());
    payload = data[data.length - 1] ?? "";
  }
  try {
    const message = JSON.parse(payload) as unknown;
    return {
      status: response.status,
      text,
      ...(message && typeof message === "object" && !Array.isArray(message) ? { message: message as Record<string, unknown> } : {}),
    };
  } catch {
    return { status: response.status, text };
  }
}

const CODES = new Set<string>(ERROR_CODES);

/** A typed AppError: a known code (never INTERNAL_ERROR), a message and a recovery hint. */
function checkAppError(error: unknown, where: string): void {
  if (!error || typeof error !== "object") violation("untyped", `${where}: no error object`);
  const { code, message, recovery_hint } = error as Record<string, unknown>;
  if (code === "INTERNAL_ERROR") violation("internal", `${where}: INTERNAL_ERROR ${show(error)}`);
  if (typeof code !== "string" || !CODES.has(code)) violation("untyped", `${where}: code ${show(code)} is not in ERROR_CODES`);
  if (typeof message !== "string" || message.trim() === "") violation("untyped", `${where}: empty message ${show(error)}`);
  if (typeof recovery_hint !== "string" || recovery_hint.trim() === "") violation("untyped", `${where}: no recovery_hint ${show(error)}`);
}

/** A JSON-RPC error: a numeric code other than -32603; our own data, when present, is a typed AppError. */
function checkProtocolError(error: unknown, where: string): void {
  if (!error || typeof error !== "object") violation("untyped", `${where}: JSON-RPC error is not an object`);
  const { code, message, data } = error as Record<string, unknown>;
  if (code === -32603) violation("internal", `${where}: JSON-RPC -32603 ${show(error)}`);
  if (typeof code !== "number" || !Number.isInteger(code))
    violation("untyped", `${where}: JSON-RPC error without an integer code ${show(error)}`);
  if (typeof message !== "string" || message === "") violation("untyped", `${where}: JSON-RPC error without a message`);
  if (data && typeof data === "object" && "recovery_hint" in data) checkAppError(data, `${where} (error.data)`);
}

const validators = new Map<string, Validator[]>();

/**
 * A flat tool's answers are checked twice: against the listed outputSchema (what a strict client
 * validates, an outline) and against the whole answer contract zod gives (every nested field).
 */
function outputValidators(tool: string): Validator[] {
  const definition = TOOL_DEFINITIONS.get(tool);
  const command = findCommand(tool);
  if (!definition?.outputSchema || !command) return [];
  let compiled = validators.get(tool);
  if (!compiled) {
    compiled = [definition.outputSchema, answerContract(command)].map((schema) => new Validator(schema as Schema, "2020-12", false));
    validators.set(tool, compiled);
  }
  return compiled;
}

export interface Expectation {
  /** A flat tool: its answer is checked against the advertised outputSchema. */
  tool?: string;
  /** The command only reads: even a success must change nothing. */
  readOnly?: boolean;
  /**
   * Tables a successful read may change: its documented bookkeeping (`tasks_snapshot {delta: true}` keeps
   * the caller's baseline, docs/tasks.md), never data.
   */
  bookkeeping?: readonly string[];
  /** The HTTP status the call must get (body-size checks). */
  status?: number;
  /** On success, send it again: a read must answer the same, a write with idempotency_key must replay. */
  repeat?: "read" | "replay";
}

/** Checks one answer against the properties; returns whether the call was rejected. */
function checkAnswer(answer: Answer, where: string, expectation: Expectation): Outcome {
  stats.calls++;
  if (answer.status >= 500) violation("5xx", `${where}: HTTP ${answer.status} ${abbreviate(answer.text)}`);
  if (expectation.status !== undefined && answer.status !== expectation.status) {
    violation("malformed-answer", `${where}: HTTP ${answer.status}, expected ${expectation.status}: ${abbreviate(answer.text)}`);
  }
  const message = answer.message;
  if (answer.status >= 400) {
    // The front door's refusals: a JSON-RPC error, `{error: AppError}`, or a bare 404/405/406/415.
    if (message?.error && typeof message.error === "object" && "recovery_hint" in message.error) checkAppError(message.error, where);
    else if (message?.error) checkProtocolError(message.error, where);
    else if (![404, 405, 406, 415].includes(answer.status))
      violation("untyped", `${where}: HTTP ${answer.status} without an error body: ${abbreviate(answer.text)}`);
    return "http-error";
  }
  if (answer.status === 202 && answer.text === "") return "ok";
  if (!message)
    violation("malformed-answer", `${where}: HTTP ${answer.status} with a body that is not a JSON object: ${abbreviate(answer.text)}`);
  if (message.error !== undefined) {
    checkProtocolError(message.error, where);
    return "protocol-error";
  }
  const result = message.result as Record<string, unknown> | undefined;
  if (!result || typeof result !== "object")
    violation("malformed-answer", `${where}: neither result nor error: ${abbreviate(answer.text)}`);
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (expectation.tool !== undefined || result.isError !== undefined) {
    if (!structured || typeof structured !== "object") violation("malformed-answer", `${where}: tool result without structuredContent`);
  }
  if (structured && expectation.tool !== undefined) {
    const verdict = outputValidators(expectation.tool)
      .map((validator) => validator.validate(structured))
      .find((candidate) => !candidate.valid);
    if (verdict) {
      const errors = verdict.errors
        .slice(-3)
        .map((error) => `${error.instanceLocation}: ${error.error}`)
        .join("; ");
      violation("output-schema", `${where}: answer does not match ${expectation.tool}'s outputSchema (${errors}): ${show(structured)}`);
    }
  }
  if (result.isError === true) {
    checkAppError(structured?.error, where);
    const code = String((structured?.error as { code?: unknown } | undefined)?.code);
    stats.codes[code] = (stats.codes[code] ?? 0) + 1;
    return "tool-error";
  }
  return "ok";
}

/** Sends a request, checks the answer, and for a rejection (or a read) checks that nothing changed. */
export async function fuzzCall(where: string, send: () => Promise<Response>, expectation: Expectation = {}): Promise<void> {
  const before = await snapshot();
  serverLog.errors = [];
  const answer = await read(await send());
  let outcome: Outcome;
  try {
    outcome = checkAnswer(answer, where, expectation);
  } catch (error) {
    if (error instanceof FuzzViolation && serverLog.errors.length > 0) {
      throw new FuzzViolation(
        error.kind,
        `${error.message.replace(/^\[[^\]]*\] /, "")}\n  server log: ${abbreviate(serverLog.errors.join(" | "), 1_500)}`,
      );
    }
    throw error;
  }
  stats.outcomes[outcome]++;
  if (outcome !== "ok" || expectation.readOnly) {
    const allowed = outcome === "ok" ? (expectation.bookkeeping ?? []) : [];
    const changed = changes(before, await snapshot()).filter((change) => !allowed.some((table) => change.includes(`:${table}:`)));
    if (changed.length > 0) {
      const what = outcome === "ok" ? "a successful read" : `a rejected call (${outcome})`;
      violation("state-change", `${where}: ${what} changed state: ${changed.join(", ")}; answer ${abbreviate(answer.text, 400)}`);
    }
  }
  if (outcome === "ok" && expectation.repeat) await checkRepeat(where, send, answer, expectation.repeat);
}

/**
 * DESIGN §5: the same store and the same call give the same answer (a read sent twice), and a write
 * replayed with its idempotency_key returns the first result and writes nothing.
 */
async function checkRepeat(where: string, send: () => Promise<Response>, first: Answer, kind: "read" | "replay"): Promise<void> {
  const before = await snapshot();
  const again = await read(await send());
  stats.repeats++;
  const firstResult = JSON.stringify((first.message?.result as { structuredContent?: unknown } | undefined)?.structuredContent);
  const againResult = JSON.stringify((again.message?.result as { structuredContent?: unknown } | undefined)?.structuredContent);
  if (firstResult !== againResult) {
    const what = kind === "read" ? "the same read twice gave different answers" : "the replay did not return the first result";
    violation(
      kind === "read" ? "nondeterministic" : "replay",
      `${where}: ${what}: ${abbreviate(firstResult, 600)} then ${abbreviate(againResult ?? again.text, 600)}`,
    );
  }
  const changed = changes(before, await snapshot());
  if (changed.length > 0)
    violation(kind === "read" ? "state-change" : "replay", `${where}: the ${kind} sent again changed state: ${changed.join(", ")}`);
}
