/**
 * The executor: runs one workspace command (resolved by the caller) against a workspace database and
 * returns a `Result`. Order of checks: project guard → the write guards' refusals → idempotency replay →
 * the write guards' preparations → handler. A write runs inside one transaction with its journal row and
 * idempotency record, so all of it lands or none of it does; a read gets its budget applied. Unless
 * turned off, a write's arguments are redacted of secrets (shared/redaction.ts) before the fingerprint
 * and the handler see them, but for the fields its command keeps (`redaction.keep`). A call that wrote
 * rows counts one change (meta `change_count`), which keeps an export's pages one snapshot. A `readOnly`
 * call (the viewer's API) stores nothing: a write is refused, and so is a read that would write a row.
 * Expected failures arrive as `CommandError`; anything else is logged and answered as INTERNAL_ERROR.
 * It knows no particular command: the guards, the capsule and the redaction rules come from the
 * command's metadata and the hooks the catalog registers (commands/workspace-hooks.ts).
 */

import { type Connection, PORTAL_CONNECTION, type RenderContext, renderError, renderSuggestions } from "../../catalog/suggestions";
import { wellKnown } from "../../catalog/well-known";
import type { CommandContext, JournalNote, Principal, ProjectFacts } from "../../commands/context";
import type { WorkspaceCommand } from "../../commands/registry";
import type { GuardedWrite, WorkspaceHooks, WriteGuard } from "../../commands/workspace-hooks";
import { applyBudget, applyBudgetWithCapsule, type CapsuleForms, resolveLimits } from "../../shared/budget";
import { appError, CommandError, fail, internalError } from "../../shared/errors";
import { type RedactionFinding, redactArgs, redactionWarning } from "../../shared/redaction";
import { err, ok, type Result, type Warning } from "../../shared/result";
import type { Db } from "../../storage/db";
import { fingerprint, remember, replay } from "../../storage/idempotency";
import { appendJournal } from "../../storage/journal";
import { getMeta, noteChange, readWriteFacts, setMeta } from "../../storage/meta";

export interface ExecuteRequest {
  /** The command, resolved once by the caller; an unknown name or a command of another scope is undefined. */
  command: WorkspaceCommand | undefined;
  /** The name the caller asked for, for the UNKNOWN_CMD error. */
  name: string;
  args: Record<string, unknown>;
  principal: Principal;
  workspace: string;
  /** A portal call: the answer carries the capsule (seed 003), and a read's budget leaves room for it. */
  capsule?: boolean;
  /** Secret redaction of write arguments (issue 11): on unless `false` (the REDACTION=off deployment variable). */
  redaction?: boolean;
  /**
   * Nothing may be stored (the viewer's API): writes are refused, and a read that would keep
   * bookkeeping (such as a task snapshot's delta baseline) is rolled back and refused.
   */
  readOnly?: boolean;
  /** The connection that asked: every suggestion of the answer is rendered for it (default: portals, no lock). */
  connection?: Connection;
  /** The Directory's facts of the project, for a command that needs them (`needsProject`). */
  project?: ProjectFacts;
}

/** A restore's calls meet no write guard (one list, so its facts statement is built once too). */
const NO_GUARDS: readonly WriteGuard[] = [];

/** Where a call runs: the workspace's database, the catalog's hooks and the call's clock reading. */
interface Site {
  db: Db;
  hooks: WorkspaceHooks;
  nowMs: number;
  /** The call's memo (`CommandContext.memo`), shared by the command's context and the capsule's. */
  memo: Map<string, unknown>;
}

function renderContextOf(request: ExecuteRequest): RenderContext {
  return { connection: request.connection ?? PORTAL_CONNECTION, workspace: request.workspace, role: request.principal.role };
}

/** Control fields, never content: a key or guard must reach the executor exactly as sent. */
const NOT_REDACTED = ["idempotency_key", "project_guard"];

export function execute(db: Db, hooks: WorkspaceHooks, request: ExecuteRequest, nowMs: number): Result<Record<string, unknown>> {
  // The call's parts (the command, the capsule) read what they need; a statement asked twice is read once.
  db.beginCall();
  try {
    return executeCall(db, hooks, request, nowMs);
  } finally {
    db.endCall();
  }
}

function executeCall(db: Db, hooks: WorkspaceHooks, request: ExecuteRequest, nowMs: number): Result<Record<string, unknown>> {
  const site: Site = { db, hooks, nowMs, memo: new Map() };
  try {
    const command = request.command;
    if (command === undefined) {
      return err(
        appError("UNKNOWN_CMD", `Unknown command "${request.name}".`, `Call \`${wellKnown("help").tool}\` for the list of commands.`),
      );
    }
    checkProjectGuard(db, request.args);
    if (request.readOnly) return ok(runReadOnly(site, command, request));
    if (command.kind === "write") {
      const skip = [...NOT_REDACTED, ...(command.redaction?.keep ?? [])];
      const redacted = request.redaction === false ? { value: request.args, findings: [] } : redactArgs(request.args, skip);
      const value = runWrite(site, command, { ...request, args: redacted.value }, redacted.findings);
      return ok(request.capsule && !("capsule" in value) ? { ...value, capsule: capsuleOf(site, request).full } : value);
    }
    return ok(runRead(site, command, request.redaction === false ? request : redactReadFields(command, request)));
  } catch (error) {
    if (error instanceof CommandError) return err(renderError(error.error, renderContextOf(request)));
    console.error("command failed", request.name, error);
    return err(internalError());
  }
}

function checkProjectGuard(db: Db, args: Record<string, unknown>): void {
  const given = args.project_guard;
  if (typeof given !== "string") return;
  const stored = getMeta(db, "project_guard");
  if (stored !== undefined && stored !== given) {
    fail(
      "PROJECT_GUARD_MISMATCH",
      "This workspace belongs to another project: the project_guard does not match the one stored by init.",
      "Check that you are writing to the right workspace; omit project_guard only if you are sure.",
      { expected: stored, given },
    );
  }
}

function makeContext({ db, hooks, nowMs, memo }: Site, request: ExecuteRequest, readLimitChars: number | undefined) {
  const notes: JournalNote[] = [];
  const warnings: Warning[] = [];
  const events = { count: 0 };
  const command = request.command?.tool ?? request.name;
  const ctx: CommandContext = {
    db,
    principal: request.principal,
    workspace: request.workspace,
    nowMs,
    readLimitChars,
    project: request.project,
    journal: (note) => notes.push(note),
    event: (event) => {
      events.count++;
      return appendJournal(db, { ts_ms: nowMs, agent_id: request.principal.agent_id, command, ...event });
    },
    warn: (warning) => warnings.push(warning),
    forgetBranch: (branchId) => {
      for (const forget of hooks.branchRows) forget(db, branchId);
    },
    memo,
  };
  return { ctx, notes, warnings, events };
}

function withWarnings(value: Record<string, unknown>, warnings: Warning[]): Record<string, unknown> {
  return warnings.length === 0 ? value : { ...value, warnings };
}

function redactReadFields(command: WorkspaceCommand, request: ExecuteRequest): ExecuteRequest {
  const fields = command.redaction?.compare;
  if (fields === undefined) return request;
  const picked = Object.fromEntries(fields.filter((field) => field in request.args).map((field) => [field, request.args[field]]));
  const redacted = redactArgs(picked);
  return redacted.findings.length === 0 ? request : { ...request, args: { ...request.args, ...redacted.value } };
}

function runWrite(site: Site, command: WorkspaceCommand, request: ExecuteRequest, redactions: RedactionFinding[]): Record<string, unknown> {
  const { db, hooks, nowMs } = site;
  const agentId = request.principal.agent_id;
  const key = typeof request.args.idempotency_key === "string" ? request.args.idempotency_key : undefined;
  const print = key === undefined ? "" : fingerprint(command.name, request.args);
  // A restore brings its own branches (main included) and writes no journal row of its own.
  const guards = command.isRestore?.(request.args) === true ? NO_GUARDS : hooks.writeGuards;
  return db.transaction(() => {
    const written = db.rowsWritten;
    const facts = readWriteFacts(db, guards);
    const writeOf = (index: number): GuardedWrite => ({ command, probe: facts.probes[index] ?? null });
    for (const [index, guard] of guards.entries()) guard.beforeReplay?.(writeOf(index));
    if (key !== undefined) {
      const previous = replay(db, agentId, key, command.name, print);
      if (previous !== undefined) return previous as Record<string, unknown>;
    }
    const { ctx, notes, warnings, events } = makeContext(site, request, undefined);
    if (redactions.length > 0) warnings.push(redactionWarning(redactions, command.redaction?.note));
    if (facts.name === undefined) {
      setMeta(db, "name", request.workspace);
      setMeta(db, "created_at_ms", String(nowMs));
    }
    for (const [index, guard] of guards.entries()) guard.beforeHandler?.(ctx, writeOf(index));
    // Rendered before it is remembered: a replay answers what the first call answered.
    const value = renderSuggestions(
      withWarnings(command.handler(ctx, request.args) as Record<string, unknown>, warnings),
      renderContextOf(request),
    );
    // Task events are journal rows already; a call that emitted some needs no summary row.
    if (notes.length > 0 && events.count === 0) {
      appendJournal(db, {
        ts_ms: nowMs,
        agent_id: agentId,
        command: command.tool,
        target: notes.map((note) => note.target).join(", "),
        summary: notes.map((note) => note.summary).join("; "),
      });
    }
    if (key !== undefined) remember(db, agentId, key, command.name, print, value, nowMs);
    // A journal row counts the change itself (migration 0015).
    const journaled = notes.length > 0 || events.count > 0;
    if (!journaled && db.rowsWritten !== written) noteChange(db);
    return value;
  });
}

/** A read under `readOnly`: in a transaction that any stored row (bookkeeping included) rolls back, with FORBIDDEN. */
function runReadOnly(site: Site, command: WorkspaceCommand, request: ExecuteRequest): Record<string, unknown> {
  const refuse = (): never =>
    fail(
      "FORBIDDEN",
      `${command.tool} ${command.kind === "write" ? "is a write" : "would store bookkeeping with these arguments"}; this call may not change anything.`,
      command.kind === "write"
        ? "Change memory through the MCP endpoint (/mcp) with a write token."
        : `Leave out the arguments that record state (e.g. ${wellKnown("snapshot").tool}'s delta), or call it through the MCP endpoint (/mcp).`,
      { command: command.name },
    );
  if (command.kind === "write") return refuse();
  const { db } = site;
  return db.transaction(() => {
    const written = db.rowsWritten;
    const value = runRead(site, command, request);
    return db.rowsWritten === written ? value : refuse();
  });
}

function runRead(site: Site, command: WorkspaceCommand, request: ExecuteRequest): Record<string, unknown> {
  const { db } = site;
  const { ctx, warnings } = makeContext(site, request, resolveLimits(request.args, "default").limits.chars);
  const written = db.rowsWritten;
  let value: Record<string, unknown>;
  try {
    // Rendered before the budget, so the budget counts what is sent.
    value = renderSuggestions(
      withWarnings(command.handler(ctx, request.args) as Record<string, unknown>, warnings),
      renderContextOf(request),
    );
  } finally {
    // Reads that keep bookkeeping (a task snapshot's delta baseline) change the workspace too.
    if (db.rowsWritten !== written) noteChange(db);
  }
  if (!request.capsule) return applyBudget(value, command.budget, request.args, "default");
  return applyBudgetWithCapsule(value, command.budget, request.args, "default", () => capsuleOf(site, request));
}

/** The portal capsule, read after the command (a write's capsule shows the state it left). */
function capsuleOf(site: Site, request: ExecuteRequest): CapsuleForms {
  const full = renderSuggestions(site.hooks.capsule(makeContext(site, request, undefined).ctx), renderContextOf(request));
  return { full: { ...full }, compact: site.hooks.compactCapsule(full) };
}
