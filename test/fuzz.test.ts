// Fuzzing (issue 11): property-based calls through the real Worker, built from each command's zod
// schema (test/fuzz/arbitraries.ts). Every call is checked for: no HTTP 5xx; a JSON-RPC answer that is
// a result or a protocol error, never -32603; a tool error typed (code in ERROR_CODES, never
// INTERNAL_ERROR, non-empty message and recovery_hint); a flat tool's answer valid against its
// advertised outputSchema and the whole answer contract; and a rejected call (or a read) changing
// nothing: every clock (tick, seq, …) and the row count of every table of the workspace and of the
// Directory are the same after it.
//
// `npm test` runs a short, fixed-seed run (every command reached); `npm run fuzz` runs 10,000 calls.
// Knobs (Vite's import.meta.env carries VITE_* variables into workerd): VITE_FUZZ_RUNS (total calls),
// VITE_FUZZ_SEED (base seed), VITE_FUZZ_ONLY (comma list of tool names, "portals", "jsonrpc", "body").
// A failure prints the group's seed, fast-check's path and the shrunk counterexample. See docs/ci.md.

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { type Schema, Validator } from "@cfworker/json-schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { COMMANDS, findCommand, namesOf } from "../src/commands/catalog";
import { exampleArgsOf } from "../src/commands/command-facts";
import { exampleValue } from "../src/commands/examples";
import { CALL_OP, domainOf, portals } from "../src/commands/portals";
import type { Command } from "../src/commands/registry";
import { DIRECTORY_NAME } from "../src/directory/directory-object";
import { ERROR_CODES } from "../src/shared/errors";
import { MAX_REQUEST_BODY_BYTES } from "../src/shared/limits";
import { answerContract, TOOL_DEFINITIONS } from "../src/worker/surfaces/tool-definitions";
import { envelope, fuzzArgs, type GenOptions, type JsonSchema, jsonRpcJunk, type RawRequest } from "./fuzz/arbitraries";
import { PROTOCOL, rpc, token } from "./helpers/mcp";

const fuzzEnv = (import.meta as unknown as { env?: Record<string, string | undefined> }).env ?? {};
/** The short run of `npm test`: 2 calls per command plus the protocol groups (~420 calls). */
const SHORT_RUNS = 400;
const TOTAL_RUNS = Number(fuzzEnv.VITE_FUZZ_RUNS ?? "") || SHORT_RUNS;
const BASE_SEED = Number(fuzzEnv.VITE_FUZZ_SEED ?? "") || 20_261_101;
const ONLY = new Set((fuzzEnv.VITE_FUZZ_ONLY ?? "").split(",").filter((name) => name !== ""));
const selected = (group: string) => ONLY.size === 0 || ONLY.has(group);

/** Shares of the total: 70% flat tools (every command, at least 2 each), 20% portals, 0.5% body sizes, the rest JSON-RPC. */
const PER_COMMAND = Math.max(2, Math.ceil((TOTAL_RUNS * 0.7) / COMMANDS.length));
const PORTAL_RUNS = Math.max(60, Math.round(TOTAL_RUNS * 0.2));
const BODY_RUNS = Math.max(8, Math.round(TOTAL_RUNS * 0.005));
const JSONRPC_RUNS = Math.max(30, TOTAL_RUNS - PER_COMMAND * COMMANDS.length - PORTAL_RUNS - BODY_RUNS);
/** Generous: a call takes a few ms, but a loaded machine is slower; a hung call still ends the test. */
const timeoutFor = (calls: number) => 30_000 + calls * 100;

const WORKSPACE = "fuzz/ws";
const OTHER_AGENT = "rival";
/** The workspace's project guard (stored by setup's init); valid arguments carry it or nothing. */
const GUARD = "fuzz-guard";

// ---------------------------------------------------------------------------------------------------
// Statistics and violations

type Violation = "5xx" | "internal" | "untyped" | "state-change" | "output-schema" | "malformed-answer" | "nondeterministic" | "replay";
type Outcome = "ok" | "tool-error" | "protocol-error" | "http-error";

const stats = {
  calls: 0,
  /** Second sends: a successful read again (determinism), a write with idempotency_key again (replay). */
  repeats: 0,
  outcomes: { ok: 0, "tool-error": 0, "protocol-error": 0, "http-error": 0 } as Record<Outcome, number>,
  violations: {
    "5xx": 0,
    internal: 0,
    untyped: 0,
    "state-change": 0,
    "output-schema": 0,
    "malformed-answer": 0,
    nondeterministic: 0,
    replay: 0,
  } as Record<Violation, number>,
  groups: { flat: 0, portal: 0, jsonrpc: 0, body: 0 },
  /** Tool error codes by how often they came back (how deep the valid calls got). */
  codes: {} as Record<string, number>,
  failures: [] as string[],
  startedAt: 0,
};

/** What the server wrote to console.error during the current call (shown with a violation). */
let serverErrors: string[] = [];
let serverErrorCount = 0;

class FuzzViolation extends Error {
  constructor(
    readonly kind: Violation,
    message: string,
  ) {
    super(`[${kind}] ${message}`);
  }
}

function violation(kind: Violation, message: string): never {
  throw new FuzzViolation(kind, message);
}

const abbreviate = (text: string, max = 600) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);

/** JSON with long strings cut, for reports (a counterexample may carry a 300 KB string). */
function show(value: unknown): string {
  return abbreviate(
    JSON.stringify(value, (_key, item) =>
      typeof item === "string" && item.length > 120 ? `${item.slice(0, 60)}…(${item.length} chars)` : item,
    ) ?? String(value),
    4_000,
  );
}

/**
 * Runs one property group with fast-check; a failure is recorded (seed, path, shrunk counterexample,
 * the violation) rather than thrown, so the other groups still run and the summary counts them all.
 */
async function runGroup<T>(label: string, seed: number, numRuns: number, arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>) {
  const details = await fc.check(fc.asyncProperty(arbitrary, check), { seed, numRuns, endOnFailure: false });
  if (!details.failed) return;
  const error = details.errorInstance;
  if (error instanceof FuzzViolation) stats.violations[error.kind]++;
  stats.failures.push(
    [
      `${label}: ${error instanceof Error ? error.message : String(error)}`,
      `  seed ${details.seed}, path "${abbreviate(details.counterexamplePath ?? "", 120)}", after ${details.numRuns} runs and ${details.numShrinks} shrinks`,
      `  counterexample: ${show(details.counterexample?.[0])}`,
      `  reproduce: VITE_FUZZ_SEED=${BASE_SEED} VITE_FUZZ_RUNS=${TOTAL_RUNS}${ONLY.size > 0 ? ` VITE_FUZZ_ONLY=${[...ONLY].join(",")}` : ""} npx vitest run test/fuzz.test.ts`,
    ].join("\n"),
  );
}

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

async function snapshot(): Promise<Snapshot> {
  const [workspace, directory] = await Promise.all([
    runInDurableObject(env.WORKSPACES.getByName(WORKSPACE), (_instance, state) => countRows(state.storage.sql, true)),
    runInDurableObject(env.DIRECTORY.getByName(DIRECTORY_NAME), (_instance, state) => countRows(state.storage.sql, false)),
  ]);
  return { workspace, directory };
}

function changes(before: Snapshot, after: Snapshot): string[] {
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

interface Answer {
  status: number;
  text: string;
  /** The JSON-RPC message (or the front door's JSON error), if the body is JSON. */
  message?: Record<string, unknown>;
}

async function read(response: Response): Promise<Answer> {
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

interface Expectation {
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
async function fuzzCall(where: string, send: () => Promise<Response>, expectation: Expectation = {}): Promise<void> {
  const before = await snapshot();
  serverErrors = [];
  const answer = await read(await send());
  let outcome: Outcome;
  try {
    outcome = checkAnswer(answer, where, expectation);
  } catch (error) {
    if (error instanceof FuzzViolation && serverErrors.length > 0) {
      throw new FuzzViolation(
        error.kind,
        `${error.message.replace(/^\[[^\]]*\] /, "")}\n  server log: ${abbreviate(serverErrors.join(" | "), 1_500)}`,
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

// ---------------------------------------------------------------------------------------------------
// The fuzz workspace

const bearers: Record<string, string> = {};

/** Ids and names that exist after setup, so valid calls reach the handlers rather than UNKNOWN_ID. */
const KNOWN = [
  "main",
  "experiment",
  "notes",
  "graph",
  "trace",
  "v1",
  "PLAN-001",
  "TASK-001",
  "TASK-002",
  "s:0",
  "s:1",
  "CARD-1",
  "CARD-2",
  "CARD-3",
  "JOB-001",
  "R001",
  "R002",
  "notes@1",
  "notes@2",
  "a:storage",
  "a:fuzz",
  "kb/main",
  WORKSPACE,
  // Names that are also Object.prototype members: a lookup in a plain object finds something.
  "constructor",
  "hasOwnProperty",
  "__proto__",
];

const SETUP: [tool: string, args: Record<string, unknown>][] = [
  ["init", { project_guard: GUARD }],
  ["notes_commit", { content: "first note" }],
  ["branch_create", { name: "experiment" }],
  ["notes_commit", { branch: "experiment", content: "on the experiment" }],
  ["tag_create", { name: "v1" }],
  ["tasks_macro_start", { title: "Fuzz the server" }],
  ["tasks_create", { title: "Second task" }],
  ["think_card", { card: "Notes stay append-only" }],
  ["think_add_hypothesis", { title: "The parser drops NULs" }],
  ["think_add_question", { title: "Does the budget hold?" }],
  ["jobs_create", { title: "Review the parser", prompt: "List the edge cases." }],
  ["anchors_bootstrap", { anchors: [{ id: "a:storage", title: "Storage engine", kind: "component", refs: ["path:src/storage"] }] }],
  [
    "knowledge_upsert",
    { anchor: "a:storage", key: "wal-mode", card: "Claim: SQLite runs in WAL mode\nScope: storage\nExpiry: 2030-01-01" },
  ],
  ["code_ref_attach", { path: "src/app.ts", start_line: 1, end_line: 2, text: "export const a = 1;\nexport const b = 2;\n" }],
  ["graph_apply", { ops: [{ op: "node_upsert", id: "H-cache", type: "hypothesis" }] }],
  ["create_record", { parent_id: null, type: "question", title: "Which storage engine?", summary: "Pick one.", body: "We need one." }],
  ["create_record", { parent_id: "R001", type: "task", title: "Benchmark", summary: "Measure.", body: "Run the bench." }],
];

async function setupWorkspace(): Promise<void> {
  bearers.admin = await token({ agent: "fuzzer", workspaces: [WORKSPACE], role: "admin" });
  bearers.read = await token({ agent: "fuzzer", workspaces: [WORKSPACE], role: "read" });
  bearers.rival = await token({ agent: OTHER_AGENT, workspaces: [WORKSPACE], role: "write" });
  for (const [tool, args] of SETUP) {
    const answer = await read(
      await rpc("tools/call", { name: tool, arguments: { workspace: WORKSPACE, ...args } }, { bearer: bearers.admin }),
    );
    const result = answer.message?.result as { isError?: boolean; structuredContent?: Record<string, unknown> } | undefined;
    if (!result || result.isError) throw new Error(`fuzz setup: ${tool} failed: ${abbreviate(answer.text)}`);
    const ref = result.structuredContent?.ref;
    if (tool === "code_ref_attach" && typeof ref === "string") KNOWN.push(ref);
  }
  // The workspace's first summary push registers it in the Directory; run it now, not mid-fuzz.
  await runDurableObjectAlarm(env.WORKSPACES.getByName(WORKSPACE));
}

// ---------------------------------------------------------------------------------------------------
// Arbitraries per command

const schemas = new Map<string, JsonSchema>();

function schemaOf(command: Command): JsonSchema {
  let schema = schemas.get(command.name);
  if (!schema) {
    schema = z.toJSONSchema(command.input, { io: "input", unrepresentable: "any" }) as JsonSchema;
    schemas.set(command.name, schema);
  }
  return schema;
}

function optionsFor(command: Command): GenOptions {
  return {
    known: KNOWN,
    byField: { agent_id: ["fuzzer"], project_id: [WORKSPACE], workspace: [WORKSPACE], project_guard: [GUARD] },
    fixed: { workspace: WORKSPACE },
    placeholder: (schema, field) => exampleValue(schema, { domain: domainOf(command) }, field),
  };
}

/** Who calls, and through which URL: mostly the admin on /mcp; sometimes read-only, another agent, the locked URL. */
const caller = fc.record({
  bearer: fc.oneof(
    { weight: 8, arbitrary: fc.constant("admin") },
    { weight: 1, arbitrary: fc.constant("read") },
    { weight: 1, arbitrary: fc.constant("rival") },
  ),
  locked: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

const pathOf = (locked: boolean, toolset: string) => `${locked ? `/w/${encodeURIComponent(WORKSPACE)}` : ""}/mcp?toolset=${toolset}`;

/** Arguments for any command name a portal call may carry (valid, mutated, or its example). */
function argsForName(name: string | undefined): fc.Arbitrary<unknown> {
  const command = name === undefined ? undefined : COMMANDS.find((candidate) => namesOf(candidate).includes(name));
  if (!command) return fc.constant({});
  const { workspace: _workspace, ...example } = { ...exampleArgsOf(command) };
  return fc.oneof(
    fc.constant(example),
    fuzzArgs(schemaOf(command), { ...optionsFor(command), fixed: {} }).map((fuzzed) => {
      if (fuzzed.args && typeof fuzzed.args === "object" && !Array.isArray(fuzzed.args)) {
        const { workspace: _dropped, ...rest } = fuzzed.args as Record<string, unknown>;
        return rest;
      }
      return fuzzed.args;
    }),
  );
}

function repeatOf(command: Command, args: unknown): "read" | "replay" | undefined {
  if (command.kind === "read") return "read";
  const key = args && typeof args === "object" ? (args as { idempotency_key?: unknown }).idempotency_key : undefined;
  return typeof key === "string" ? "replay" : undefined;
}

// ---------------------------------------------------------------------------------------------------
// The runs

describe("fuzzing", () => {
  beforeAll(async () => {
    stats.startedAt = Date.now();
    // The front door logs one line per call (call-log.ts): thousands of them would bury the summary.
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    // The MCP handler logs every refused request; keep the lines for reports instead of the console.
    vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => {
      serverErrorCount++;
      serverErrors.push(parts.map((part) => (part instanceof Error ? (part.stack ?? part.message) : String(part))).join(" "));
    });
    await setupWorkspace();
  }, 60_000);

  afterAll(() => {
    vi.restoreAllMocks();
    const seconds = ((Date.now() - stats.startedAt) / 1000).toFixed(1);
    const v = stats.violations;
    console.log(
      [
        `fuzz summary (seed ${BASE_SEED}, target ${TOTAL_RUNS} calls): ${stats.calls} calls (shrinking included) and ${stats.repeats} repeats in ${seconds} s`,
        `  groups: flat ${stats.groups.flat}, portal ${stats.groups.portal}, json-rpc ${stats.groups.jsonrpc}, body ${stats.groups.body}`,
        `  outcomes: ok ${stats.outcomes.ok}, tool errors ${stats.outcomes["tool-error"]}, protocol errors ${stats.outcomes["protocol-error"]}, http errors ${stats.outcomes["http-error"]}`,
        `  tool error codes: ${Object.entries(stats.codes)
          .sort((a, b) => b[1] - a[1])
          .map(([code, count]) => `${code} ${count}`)
          .join(", ")}`,
        `  server console.error lines: ${serverErrorCount}`,
        `  violations: 5xx ${v["5xx"]}, internal ${v.internal}, untyped errors ${v.untyped}, state changes on rejection ${v["state-change"]}, output-schema ${v["output-schema"]}, malformed answers ${v["malformed-answer"]}, nondeterministic reads ${v.nondeterministic}, failed replays ${v.replay}`,
        ...stats.failures,
      ].join("\n"),
    );
  });

  it(
    "every flat tool (toolset=full): valid and mutated arguments",
    async () => {
      const failuresBefore = stats.failures.length;
      for (const [index, command] of COMMANDS.entries()) {
        if (!selected(command.tool)) continue;
        const arbitrary = fc.tuple(fuzzArgs(schemaOf(command), optionsFor(command)), caller);
        await runGroup(`flat ${command.tool}`, BASE_SEED + index, PER_COMMAND, arbitrary, async ([fuzzed, who]) => {
          stats.groups.flat++;
          await fuzzCall(
            `${command.tool} (${fuzzed.kind}, ${who.bearer}${who.locked ? ", locked URL" : ""}) ${show(fuzzed.args)}`,
            () =>
              rpc(
                "tools/call",
                { name: command.tool, arguments: fuzzed.args },
                { bearer: bearers[who.bearer], path: pathOf(who.locked, "full") },
              ),
            {
              tool: command.tool,
              readOnly: command.kind === "read",
              // A delta snapshot moves the caller's baseline: sent again it answers a later delta.
              ...(command.tool === "tasks_snapshot" && (fuzzed.args as { delta?: unknown }).delta === true
                ? { bookkeeping: ["snapshot_baselines"] }
                : { repeat: repeatOf(command, fuzzed.args) }),
            },
          );
        });
      }
      expect(stats.failures.slice(failuresBefore)).toEqual([]);
    },
    timeoutFor(PER_COMMAND * COMMANDS.length),
  );

  it(
    "portal envelopes (toolset=portals): random op, cmd and args",
    async () => {
      const failuresBefore = stats.failures.length;
      if (!selected("portals")) return;
      const list = portals();
      const names = COMMANDS.flatMap((command) => [command.name, command.tool]);
      const call = fc.integer({ min: 0, max: list.length - 1 }).chain((index) => {
        const portal = list[index] as (typeof list)[number];
        const ops = [CALL_OP, ...Object.keys(portal.ops)];
        return fc.tuple(
          fc.constant(portal.name),
          envelope({
            ops,
            commands: names,
            workspace: WORKSPACE,
            argsFor: (cmd, op) => argsForName(op === CALL_OP || op === undefined ? cmd : (portal.ops[op] ?? cmd)),
          }),
          caller,
        );
      });
      await runGroup("portal", BASE_SEED + 1_000, PORTAL_RUNS, call, async ([portal, args, who]) => {
        stats.groups.portal++;
        await fuzzCall(`portal ${portal} (${who.bearer}) ${show(args)}`, () =>
          rpc("tools/call", { name: portal, arguments: args }, { bearer: bearers[who.bearer], path: pathOf(who.locked, "portals") }),
        );
      });
      expect(stats.failures.slice(failuresBefore)).toEqual([]);
    },
    timeoutFor(PORTAL_RUNS),
  );

  it(
    "malformed JSON-RPC: not JSON, wrong version, missing or unknown method, wrong params, batches, odd headers",
    async () => {
      const failuresBefore = stats.failures.length;
      if (!selected("jsonrpc")) return;
      await runGroup("json-rpc", BASE_SEED + 2_000, JSONRPC_RUNS, jsonRpcJunk, async (request: RawRequest) => {
        stats.groups.jsonrpc++;
        await fuzzCall(`json-rpc ${request.label} ${show(request)}`, () => post(request.body, request.headers));
      });
      expect(stats.failures.slice(failuresBefore)).toEqual([]);
    },
    timeoutFor(JSONRPC_RUNS),
  );

  it(
    "request bodies around the 1 MiB cap: 413 PAYLOAD_TOO_LARGE above it, streamed or not",
    async () => {
      const failuresBefore = stats.failures.length;
      if (!selected("body")) return;
      const cap = MAX_REQUEST_BODY_BYTES;
      const sizes = fc.record({
        size: fc.oneof(fc.constantFrom(cap - 1, cap, cap + 1, 2 * cap, 4 * cap), fc.integer({ min: cap - 64, max: cap + 64 })),
        streamed: fc.boolean(),
      });
      await runGroup("body", BASE_SEED + 3_000, BODY_RUNS, sizes, async ({ size, streamed }) => {
        stats.groups.body++;
        const text = pingOfSize(size);
        await fuzzCall(`body of ${size} bytes${streamed ? ", streamed" : ""}`, () => post(text, { "mcp-name": "ping" }, streamed), {
          status: size > cap ? 413 : 200,
        });
      });
      expect(stats.failures.slice(failuresBefore)).toEqual([]);
    },
    timeoutFor(BODY_RUNS),
  );
});

/** A tools/call of `ping` padded with an unknown argument to exactly `size` bytes (ASCII). */
function pingOfSize(size: number): string {
  const head = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping","arguments":{"workspace":"${WORKSPACE}","pad":"`;
  const meta = {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL,
    "io.modelcontextprotocol/clientInfo": { name: "branchmind-fuzz", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const tail = `"},"_meta":${JSON.stringify(meta)}}}`;
  return `${head}${"x".repeat(Math.max(0, size - head.length - tail.length))}${tail}`;
}

async function post(body: string, headers: Record<string, string | undefined>, streamed = false): Promise<Response> {
  const merged: Record<string, string | undefined> = {
    host: "localhost",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL,
    "mcp-method": "tools/call",
    authorization: `Bearer ${bearers.admin}`,
    ...headers,
  };
  const defined = Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const bytes = new TextEncoder().encode(body);
  const payload = streamed
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          for (let offset = 0; offset < bytes.length; offset += 64 * 1024) controller.enqueue(bytes.slice(offset, offset + 64 * 1024));
          controller.close();
        },
      })
    : bytes;
  return exports.default.fetch(new Request("http://localhost/mcp?toolset=full", { method: "POST", headers: defined, body: payload }));
}
