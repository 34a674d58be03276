/**
 * Which workspace a call works in (DESIGN §4): the URL lock, else the `workspace` argument, else the
 * token's single workspace (a pattern without wildcards), else WORKSPACE_REQUIRED. A workspace outside
 * the token's patterns is FORBIDDEN; naming another workspace than the URL's is WORKSPACE_LOCKED.
 */
import type { Principal } from "../commands/context";
import { type AppError, appError } from "../shared/errors";
import { isValidWorkspaceName } from "../shared/names";
import { matchesWorkspace } from "./token";

export type Resolution = { ok: true; workspace: string } | { ok: false; error: AppError };

export function resolveWorkspace(principal: Principal, lock: string | undefined, argument: unknown): Resolution {
  const named = typeof argument === "string" ? argument : undefined;
  if (lock !== undefined && named !== undefined && named !== lock) {
    return {
      ok: false,
      error: appError(
        "WORKSPACE_LOCKED",
        `This endpoint is locked to workspace "${lock}"; the call names "${named}".`,
        "Omit `workspace`, or use that workspace's own URL.",
        {
          locked: lock,
          given: named,
        },
      ),
    };
  }
  const single = principal.workspaces.length === 1 && !/\*/.test(principal.workspaces[0] ?? "*") ? principal.workspaces[0] : undefined;
  const workspace = lock ?? named ?? single;
  if (workspace === undefined) {
    return {
      ok: false,
      error: appError(
        "WORKSPACE_REQUIRED",
        "No workspace: the URL, the arguments and the token do not name one.",
        "Pass `workspace` (e.g. `acme/repo`) or connect to `/w/<workspace>/mcp`.",
      ),
    };
  }
  if (!isValidWorkspaceName(workspace)) {
    return {
      ok: false,
      error: appError(
        "INVALID_NAME",
        `"${workspace}" is not a valid workspace name.`,
        "Use letters, digits and . _ / -, starting with a letter or digit (at most 128).",
        {
          workspace,
        },
      ),
    };
  }
  if (!principal.workspaces.some((pattern) => matchesWorkspace(pattern, workspace))) {
    return {
      ok: false,
      error: appError(
        "FORBIDDEN",
        `Your token does not grant workspace "${workspace}".`,
        "Use a workspace your token names, or ask for a token that covers this one.",
        {
          workspace,
          granted: principal.workspaces,
        },
      ),
    };
  }
  return { ok: true, workspace };
}
