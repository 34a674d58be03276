/**
 * The closed set of error codes every surface speaks, and the one error shape (seed 004's):
 * `{ code, message, recovery_hint, details?, actions? }`.
 *
 * Handlers signal an expected failure by throwing `CommandError` (so a failing command inside
 * `transactionSync` rolls back everything it wrote) or by returning `err(...)`. Anything else that
 * escapes is a bug: it is logged and reaches the client only as `INTERNAL_ERROR`, never as a stack
 * trace or SQL text.
 */

import { z } from "zod";
import { type Suggestion, suggestionSchema } from "./suggestion";
import { clip } from "./text";

export const ERROR_CODES = [
  // seeds 000-004
  "UNKNOWN_ID",
  "INVALID_INPUT",
  "INVALID_NAME",
  "MERGE_NOT_SUPPORTED",
  "RECORD_NOT_FOUND",
  "NOT_ACTIVATED",
  "INVALID_TRANSITION",
  "CONFLICT",
  "PARENT_NOT_ACTIVATED",
  "SESSION_NOT_FOUND",
  "DEPTH_EXCEEDED",
  "UNKNOWN_TOOL",
  "UNKNOWN_CMD",
  "UNKNOWN_OP",
  "BUDGET_EXCEEDED",
  // the original BranchMind
  "REVISION_MISMATCH",
  "STEP_LEASE_HELD",
  "STEP_LEASE_NOT_HELD",
  "CHECKPOINTS_NOT_CONFIRMED",
  "PROOF_REQUIRED",
  "REASONING_REQUIRED",
  "EXPECTED_TARGET_MISMATCH",
  "FEATURE_DISABLED",
  // this server
  "UNAUTHORIZED",
  "FORBIDDEN",
  "WORKSPACE_REQUIRED",
  "WORKSPACE_LOCKED",
  "INVALID_CURSOR",
  "PROJECT_GUARD_MISMATCH",
  "PAYLOAD_TOO_LARGE",
  "ALREADY_EXISTS",
  "BRANCH_IN_USE",
  "IDEMPOTENCY_KEY_REUSED",
  "JOB_CLAIM_HELD",
  "JOB_NOT_CLAIMED",
  "TASK_TAKEN",
  "TASK_NOT_READY",
  "TASK_CLAIM_NOT_HELD",
  "SESSION_REQUIRED",
  // export and restore (docs/export.md)
  "EXPORT_STALE",
  "RESTORE_IN_PROGRESS",
  "RESTORE_OUT_OF_ORDER",
  "WORKSPACE_NOT_EMPTY",
  "SERVER_MISCONFIGURED",
  "INTERNAL_ERROR",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A suggested call that fixes the error (shared/suggestion.ts: rendered for the connection before it is sent). */
export type ErrorAction = Suggestion;

export interface AppError {
  code: ErrorCode;
  message: string;
  recovery_hint: string;
  details?: Record<string, unknown>;
  actions?: ErrorAction[];
}

/** Thrown by handlers and stores for expected failures; caught by the executor, never crosses RPC. */
export class CommandError extends Error {
  readonly error: AppError;
  constructor(error: AppError) {
    super(error.message);
    this.name = "CommandError";
    this.error = error;
  }
}

/**
 * What an error may echo of its input: errors quote what they refuse (an `agent_id`, a name, a ref), and
 * a 100,000-character argument must not come back whole. Texts are cut (clip's `…`), lists shortened,
 * and nesting below this depth summarized; error details are the server's own small objects, so none of
 * these bounds cuts what a caller needs.
 */
export const MAX_ERROR_TEXT_CHARS = 2_000;
const MAX_ECHO_CHARS = 500;
const MAX_ECHO_ITEMS = 100;
const MAX_ECHO_DEPTH = 8;

function boundedEcho(value: unknown, depth: number): unknown {
  if (typeof value === "string") return clip(value, MAX_ECHO_CHARS);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_ECHO_DEPTH) return "…";
  if (Array.isArray(value)) return value.slice(0, MAX_ECHO_ITEMS).map((item) => boundedEcho(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value).slice(0, MAX_ECHO_ITEMS)) out[clip(key, MAX_ECHO_CHARS)] = boundedEcho(inner, depth + 1);
  return out;
}

export function appError(
  code: ErrorCode,
  message: string,
  recovery_hint: string,
  details?: Record<string, unknown>,
  actions?: ErrorAction[],
): AppError {
  return {
    code,
    message: clip(message, MAX_ERROR_TEXT_CHARS),
    recovery_hint: clip(recovery_hint, MAX_ERROR_TEXT_CHARS),
    ...(details ? { details: boundedEcho(details, 0) as Record<string, unknown> } : {}),
    ...(actions && actions.length > 0 ? { actions } : {}),
  };
}

/** Throw a typed failure from anywhere inside a command. */
export function fail(
  code: ErrorCode,
  message: string,
  recovery_hint: string,
  details?: Record<string, unknown>,
  actions?: ErrorAction[],
): never {
  throw new CommandError(appError(code, message, recovery_hint, details, actions));
}

/** The one generic answer for bugs: the detail goes to the log, not to the client. */
export function internalError(): AppError {
  return appError(
    "INTERNAL_ERROR",
    "The server hit an unexpected error; nothing was changed.",
    "Retry once; if it persists, call `status` and report the command and arguments to the operators.",
  );
}

/** The structured content of every error result; tools advertise it beside their success shape. */
export const errorResultSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    recovery_hint: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    actions: z.array(suggestionSchema).optional(),
  }),
});
