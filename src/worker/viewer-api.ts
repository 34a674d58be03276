/**
 * The browser viewer's JSON API (docs/viewer.md): a read-only window on the same command registry the
 * MCP tools use, so the viewer never needs a second implementation of any query.
 *
 * - `POST /api/call` with `{command, workspace?, args?}` runs one command through `callCommand`
 *   (validation, roles, workspace resolution, budgets: all as for a tool call) and answers
 *   `{result}` or `{error}` with an HTTP status that matches the error. Only commands of kind `read`
 *   run; anything else is refused (`FORBIDDEN`) before it reaches a workspace, and the call runs with
 *   the caller's role lowered to `read`, so a write could not pass the role check either; the workspace
 *   runs it read-only, so even a read that keeps bookkeeping (a task snapshot with `delta`) is
 *   rolled back and refused.
 * - `GET /api/session` says who the caller is (agent, role, workspace patterns, auth mode), so the
 *   viewer can tell a valid token from a refused one before it shows anything.
 *
 * The host and origin policy, authentication, the body cap and refusal logging happen in `index.ts`
 * exactly as for `/mcp` (so another web page cannot read a developer's local memory: see
 * `browser-policy.ts`). A workspace-scoped command must name its workspace, and a workspace that was
 * never written is `UNKNOWN_ID` (404): the viewer shows "not found" instead of an empty workspace.
 * Every call writes one `call` log line.
 */
import { z } from "zod";
import { findCommand } from "../catalog/catalog";
import { PERSON_CONNECTION } from "../catalog/suggestions";
import { WELL_KNOWN, wellKnown } from "../catalog/well-known";
import type { Principal } from "../commands/context";
import type { Command } from "../commands/registry";
import { type AppError, appError, type ErrorCode } from "../shared/errors";
import type { Result } from "../shared/result";
import type { WorkspaceSummary } from "../shared/workspace-summary";
import { type CallSession, type CallTiming, callCommand } from "./call-command";
import { callLogLine, outcomeOf, refusalLogLine, workspaceOf } from "./call-log";
import { SERVER_INFO } from "./mcp";
import { resolveWorkspace } from "./workspace-resolution";

export const API_CALL_PATH = "/api/call";
export const API_SESSION_PATH = "/api/session";

/** HTTP status of an API error; codes not listed are domain refusals of a valid request (409). */
const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  INVALID_INPUT: 400,
  INVALID_NAME: 400,
  WORKSPACE_REQUIRED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  UNKNOWN_ID: 404,
  UNKNOWN_CMD: 404,
  RECORD_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  INTERNAL_ERROR: 500,
  SERVER_MISCONFIGURED: 503,
};
const DOMAIN_REFUSAL_STATUS = 409;

const requestSchema = z.strictObject({
  command: z.string().min(1).max(128),
  workspace: z.string().min(1).max(256).optional(),
  args: z.record(z.string(), z.unknown()).optional(),
});

const NO_STORE = { "Cache-Control": "no-store" };

function answer(status: number, body: unknown): Response {
  return Response.json(body, { status, headers: NO_STORE });
}

function errorAnswer(error: AppError): Response {
  return answer(STATUS_BY_CODE[error.code] ?? DOMAIN_REFUSAL_STATUS, { error });
}

function refused(error: AppError, reason: string): Response {
  const response = errorAnswer(error);
  console.log(refusalLogLine({ ts: new Date().toISOString(), status: response.status, outcome: error.code, reason }));
  return response;
}

/** `GET /api/session`: the authenticated caller, as the viewer shows it. */
function sessionAnswer(principal: Principal, env: Env): Response {
  return answer(200, {
    agent_id: principal.agent_id,
    role: principal.role,
    workspaces: principal.workspaces,
    auth_mode: env.AUTH_MODE === "dev" ? "dev" : "token",
    read_only: true,
    server: SERVER_INFO,
  });
}

function unknownCommand(name: string): AppError {
  return appError(
    "UNKNOWN_CMD",
    `Unknown command "${name}".`,
    `Use a command name from docs/commands.md, e.g. \`${WELL_KNOWN.graphQuery}\`.`,
    {
      command: name,
    },
  );
}

function writeRefused(command: Command): AppError {
  return appError(
    "FORBIDDEN",
    `${command.name} is a ${command.kind}; the viewer API runs reads only.`,
    "Change memory through the MCP endpoint (/mcp) with a write token; the viewer only reads.",
    { command: command.name, kind: command.kind },
  );
}

/** The workspace a call names, resolved and checked against the token like a tool call's. */
async function existingWorkspace(session: CallSession, named: string | undefined): Promise<Result<string>> {
  if (named === undefined) {
    return {
      ok: false,
      error: appError("WORKSPACE_REQUIRED", "This command reads a workspace; the request names none.", "Send `workspace` with the call."),
    };
  }
  const resolution = resolveWorkspace(session.principal, undefined, named);
  if (!resolution.ok) return resolution;
  const summary = (await session.env.WORKSPACES.getByName(resolution.workspace).readSummary()) as Result<WorkspaceSummary>;
  if (!summary.ok) return summary;
  if (summary.value.name === "") {
    return {
      ok: false,
      error: appError(
        "UNKNOWN_ID",
        `No workspace "${named}": nothing was ever written to it.`,
        `Pick a workspace from ${wellKnown("workspaceList").tool}.`,
        {
          workspace: named,
        },
      ),
    };
  }
  return { ok: true, value: resolution.workspace };
}

async function runCall(body: ArrayBuffer | undefined, principal: Principal, env: Env): Promise<Response> {
  let parsed: z.infer<typeof requestSchema>;
  try {
    const json: unknown = JSON.parse(new TextDecoder().decode(body ?? new ArrayBuffer(0)));
    const checked = requestSchema.safeParse(json);
    if (!checked.success) throw checked.error;
    parsed = checked.data;
  } catch {
    return refused(
      appError(
        "INVALID_INPUT",
        "The body must be JSON: {command, workspace?, args?}.",
        `Send e.g. {"command": "${WELL_KNOWN.graphQuery}", "workspace": "acme/app", "args": {}}.`,
      ),
      "malformed api request",
    );
  }
  const startedMs = Date.now();
  const command = findCommand(parsed.command);
  // The call runs as a read-only principal: even a misclassified command could not pass the role check.
  // Its suggestions read as a writing agent is told them (the agents' moves, for a person: docs/viewer.md).
  const timing: CallTiming = { object_ms: null, rows_read: null };
  const session: CallSession = { principal: { ...principal, role: "read" }, lock: undefined, env, connection: PERSON_CONNECTION, timing };
  let result: Result<Record<string, unknown>>;
  if (command === undefined) {
    result = { ok: false, error: unknownCommand(parsed.command) };
  } else if (command.kind !== "read") {
    result = { ok: false, error: writeRefused(command) };
  } else {
    // A read that would register the caller's default project when none is named must name one here.
    const needsWorkspace = command.scope === "workspace" || (command.scope === "directory" && command.registersDefaultProject === true);
    const args = { ...parsed.args };
    if (parsed.workspace !== undefined) args.workspace = parsed.workspace;
    // The workspace is checked first, so no command ever runs against a workspace that does not exist.
    const workspace = needsWorkspace ? await existingWorkspace(session, parsed.workspace) : undefined;
    result = workspace !== undefined && !workspace.ok ? workspace : await callCommand(session, command, args, { readOnly: true });
  }
  console.log(
    callLogLine({
      ts: new Date(startedMs).toISOString(),
      agent_id: principal.agent_id,
      key_id: principal.key_id,
      workspace: workspaceOf(result, undefined, [parsed.workspace]),
      tool: command?.tool,
      op: "api",
      cmd: command?.name,
      outcome: outcomeOf(result),
      duration_ms: Date.now() - startedMs,
      object_ms: timing.object_ms,
      rows_read: timing.rows_read,
    }),
  );
  return result.ok ? answer(200, { result: result.value }) : errorAnswer(result.error);
}

function methodNotAllowed(allowed: string): Response {
  const error = appError("INVALID_INPUT", `Use ${allowed} here.`, `Send a ${allowed} request.`);
  return new Response(JSON.stringify({ error }), {
    status: 405,
    headers: { ...NO_STORE, "Content-Type": "application/json", Allow: allowed },
  });
}

/** Serves an authenticated `/api/*` request (the body was read under the cap already). */
export async function serveViewerApi(
  request: Request,
  endpoint: "call" | "session",
  body: ArrayBuffer | undefined,
  principal: Principal,
  env: Env,
): Promise<Response> {
  if (endpoint === "session") return request.method === "GET" ? sessionAnswer(principal, env) : methodNotAllowed("GET");
  return request.method === "POST" ? runCall(body, principal, env) : methodNotAllowed("POST");
}
