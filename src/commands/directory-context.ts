/**
 * What a Directory-scoped command (`scope: "directory"`, the project commands) receives: the caller,
 * project resolution bound to the call's URL lock and token, the Directory's project API, and the two
 * workspace calls a project needs (its idempotent bootstrap, its summary now). Handlers run in the
 * Worker and may await; each Directory method is one small transaction of its own.
 */

import type { ProjectDirectory } from "../directory/project-directory";
import type { AppError } from "../shared/errors";
import type { Result } from "../shared/result";
import type { WorkspaceSummary } from "../shared/workspace-summary";
import type { Principal } from "./context";

/** A resolved project (a workspace name), and whether it is the agent's default project. */
export type ProjectResolution = { ok: true; workspace: string; isDefault: boolean } | { ok: false; error: AppError };

export interface DirectoryContext {
  principal: Principal;
  /** Workspace fixed by the URL, if any. */
  lock: string | undefined;
  /**
   * URL lock > the named project (`id`, which `workspace` must equal when both are given) > the
   * token's single workspace > the agent's default project.
   */
  resolveProject(named: { workspace?: string | undefined; id?: string | undefined }): ProjectResolution;
  directory: ProjectDirectory;
  /** Runs the workspace's bootstrap (`init`, safe to repeat) as the caller. */
  initWorkspace(id: string): Promise<Result<Record<string, unknown>>>;
  /** The workspace's summary now, not the last one it pushed. */
  workspaceSummary(id: string): Promise<Result<WorkspaceSummary>>;
}
