/**
 * The viewer's only way to the server: the Worker's read-only JSON API (`POST /api/call` runs one
 * read command of the registry, `GET /api/session` names the caller). Every failure becomes an
 * `ApiError` carrying the server's typed error (code, message, recovery hint) and the HTTP status.
 */
import { storedToken } from "./token-store";

export interface ServerError {
  code: string;
  message: string;
  recovery_hint?: string;
  details?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: ServerError,
  ) {
    super(error.message);
  }

  get code(): string {
    return this.error.code;
  }

  /** The token was refused (missing, invalid, expired, revoked). */
  get isAuth(): boolean {
    return this.status === 401;
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }
}

export interface Session {
  agent_id: string;
  role: string;
  workspaces: string[];
  auth_mode: "dev" | "token";
  read_only: true;
}

/** Reads ask for the audit profile unless they set their own budget: a person reads more than an agent's context holds. */
const VIEWER_BUDGET_PROFILE = "audit";

function headers(json: boolean): Record<string, string> {
  const token = storedToken();
  return {
    ...(json ? { "Content-Type": "application/json" } : {}),
    Accept: "application/json",
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
}

async function parse<T>(response: Response): Promise<T> {
  let body: { result?: T; error?: ServerError } & Record<string, unknown>;
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new ApiError(response.status, { code: "INTERNAL_ERROR", message: `The server answered ${response.status} without JSON.` });
  }
  if (!response.ok) {
    throw new ApiError(response.status, body.error ?? { code: "INTERNAL_ERROR", message: `The server answered ${response.status}.` });
  }
  return body as T;
}

/** Runs one read command; `workspace` is required for workspace-scoped commands. */
export async function read<T = Record<string, unknown>>(
  command: string,
  workspace: string | undefined,
  args: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<T> {
  const withBudget = "max_chars" in args || "budget_profile" in args ? args : { ...args, budget_profile: VIEWER_BUDGET_PROFILE };
  const response = await fetch("/api/call", {
    method: "POST",
    headers: headers(true),
    body: JSON.stringify({ command, ...(workspace === undefined ? {} : { workspace }), args: withBudget }),
    ...(signal ? { signal } : {}),
  });
  return (await parse<{ result: T }>(response)).result;
}

export async function fetchSession(): Promise<Session> {
  return parse<Session>(await fetch("/api/session", { headers: headers(false) }));
}
