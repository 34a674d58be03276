/**
 * Which workspace a call works in (DESIGN §4): the URL lock, else the `workspace` argument, else the
 * token's single workspace (a pattern without wildcards), else WORKSPACE_REQUIRED. A workspace outside
 * the token's patterns is FORBIDDEN; naming another workspace than the URL's is WORKSPACE_LOCKED.
 * Record-Sync projects are workspaces: `project_id` names one like `workspace` does, and where nothing
 * names one, records commands fall back to the agent's default project (docs/projects.md), which the
 * Directory settles (`resolveProjectSettled`): an agent keeps the default it registered under the old
 * naming rule, and never gets another agent's.
 */

import { WELL_KNOWN, wellKnown } from "../catalog/well-known";
import type { Principal } from "../commands/context";
import type { ProjectResolution } from "../commands/directory-context";
import type { ProjectDirectory } from "../directory/project-directory";
import { defaultProjectOf, defaultProjectRequest } from "../directory/project-ids";
import { type AppError, appError, internalError } from "../shared/errors";
import { isValidWorkspaceName } from "../shared/names";
import { suggest } from "../shared/suggestion";
import { matchesWorkspace } from "../shared/workspace-patterns";

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
  const workspace = lock ?? named ?? singleWorkspace(principal);
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

/** The token's workspace when it names exactly one (one pattern, no wildcard). */
function singleWorkspace(principal: Principal): string | undefined {
  return principal.workspaces.length === 1 && !/\*/.test(principal.workspaces[0] ?? "*") ? principal.workspaces[0] : undefined;
}

/**
 * A project call: `project_id` and `workspace` name the same thing (both given and different →
 * INVALID_INPUT); then the workspace rules above. With `useDefault`, a call that names nothing (no
 * URL lock, no argument, no single-workspace token) gets the agent's default project, which the
 * token's patterns must grant (else WORKSPACE_REQUIRED, saying so).
 */
export function resolveProject(
  principal: Principal,
  lock: string | undefined,
  workspaceArgument: unknown,
  projectArgument: unknown,
  useDefault: boolean,
  projectField = "project_id",
): ProjectResolution {
  const workspace = typeof workspaceArgument === "string" ? workspaceArgument : undefined;
  const project = typeof projectArgument === "string" ? projectArgument : undefined;
  if (workspace !== undefined && project !== undefined && workspace !== project) {
    return {
      ok: false,
      error: appError(
        "INVALID_INPUT",
        `workspace "${workspace}" and ${projectField} "${project}" name different projects.`,
        "Give one of them.",
        { fields: ["workspace", projectField], workspace, [projectField]: project },
      ),
    };
  }
  const named = project ?? workspace;
  const fallback = defaultProjectOf(principal.agent_id);
  if (useDefault && lock === undefined && named === undefined && singleWorkspace(principal) === undefined) {
    return defaultResolution(principal, fallback);
  }
  const resolved = resolveWorkspace(principal, lock, named);
  // Naming one's default project explicitly is using it too (it is created on first use either way).
  return resolved.ok ? { ok: true, workspace: resolved.workspace, isDefault: resolved.workspace === fallback } : resolved;
}

function isGranted(principal: Principal, workspace: string): boolean {
  return principal.workspaces.some((pattern) => matchesWorkspace(pattern, workspace));
}

/** The default project `id`, which the token's patterns must grant (else WORKSPACE_REQUIRED, saying so). */
function defaultResolution(principal: Principal, id: string): ProjectResolution {
  if (isGranted(principal, id)) return { ok: true, workspace: id, isDefault: true };
  return {
    ok: false,
    error: appError(
      "WORKSPACE_REQUIRED",
      `No project: the URL, the arguments and the token name none, and your default project "${id}" is outside your token's patterns.`,
      `Pass project_id (${wellKnown("listProjects").tool} shows the ones you can use), or use a token that grants your default project.`,
      { default_project: id, granted: principal.workspaces },
      [suggest(WELL_KNOWN.listProjects, {}, "The projects your token grants")],
    ),
  };
}

/**
 * Default projects this isolate has settled in the Directory, by agent id: a call on one costs no
 * Directory call after the first. Cleared when full; a forgotten one is only settled again.
 */
const MAX_SETTLED_DEFAULTS = 10_000;
const settledDefaults = new Map<string, string>();

/**
 * `resolveProject`, with the default project settled by the Directory before anything runs in it:
 * registered on first use, the agent's old-rule default when it registered one, and never a name
 * another agent registered as its default. A Directory failure fails the call (nothing runs in a
 * default project that may not be the agent's).
 */
export async function resolveProjectSettled(
  directory: ProjectDirectory,
  principal: Principal,
  lock: string | undefined,
  workspaceArgument: unknown,
  projectArgument: unknown,
  useDefault: boolean,
  projectField = "project_id",
): Promise<ProjectResolution> {
  const resolved = resolveProject(principal, lock, workspaceArgument, projectArgument, useDefault, projectField);
  const namesNothing = lock === undefined && workspaceArgument === undefined && projectArgument === undefined;
  if (!useDefault || !namesNothing || singleWorkspace(principal) !== undefined) return resolved;
  const agent = principal.agent_id;
  let id = settledDefaults.get(agent);
  if (id === undefined) {
    const request = defaultProjectRequest(agent);
    const candidates = [request.id, request.legacy_id, request.diverted_id];
    // Nothing the token grants could be the default: no registration, the answer is WORKSPACE_REQUIRED.
    if (!candidates.some((candidate) => candidate !== undefined && isGranted(principal, candidate))) return resolved;
    try {
      const settled = await directory.ensureProject(request);
      if (!settled.ok) return settled;
      id = settled.value.id;
    } catch (error) {
      console.error("default project registration failed", agent, error);
      return { ok: false, error: internalError() };
    }
    if (settledDefaults.size >= MAX_SETTLED_DEFAULTS) settledDefaults.clear();
    settledDefaults.set(agent, id);
  }
  return defaultResolution(principal, id);
}
