/**
 * The Directory: one Durable Object per deployment listing its workspaces, which are also its
 * Record-Sync projects. Workspaces are the source of truth; they push summaries here after writes
 * (coalesced by their alarm). The project methods are small, synchronous and typed, and return a
 * `Result`: nothing is thrown across RPC.
 */
import { DurableObject } from "cloudflare:workers";
import directoryInit from "../../../migrations/directory/0001_directory.sql";
import directoryProjects from "../../../migrations/directory/0002_projects.sql";
import type {
  EnsureRequest,
  ListingPageRequest,
  ProjectDirectory,
  ProjectPage,
  ProjectRecord,
  Reservation,
  ReserveRequest,
  WorkspacePage,
} from "../../directory/project-directory";
import { CommandError, internalError } from "../../shared/errors";
import { err, ok, type Result } from "../../shared/result";
import type { WorkspaceSummary } from "../../shared/workspace-summary";
import { Db } from "../../storage/db";
import { type Migration, migrate } from "../../storage/migrate";
import { type DirectoryEntry, listAllowedWorkspaces, listWorkspaces, upsertSummary } from "./directory.store";
import { ensureProject, findProject, listProjects, markProjectReady, registerWorkspaceProject, reserveProject } from "./projects.store";

const DIRECTORY_MIGRATIONS: readonly Migration[] = [
  { id: 1, name: "directory", sql: directoryInit },
  { id: 2, name: "projects", sql: directoryProjects },
];

export class DirectoryObject extends DurableObject<Env> {
  private readonly db: Db;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = new Db(ctx.storage.sql, ctx.storage);
    void ctx.blockConcurrencyWhile(async () => {
      migrate(this.db, DIRECTORY_MIGRATIONS, Date.now());
    });
  }

  /** A workspace's summary push; the workspace becomes a listed project on its first push. */
  report(summary: WorkspaceSummary): void {
    const nowMs = Date.now();
    this.db.transaction(() => {
      upsertSummary(this.db, summary, nowMs);
      registerWorkspaceProject(this.db, summary.name, nowMs);
    });
  }

  list(after: string | undefined, limit: number): { workspaces: DirectoryEntry[]; has_more: boolean } {
    return listWorkspaces(this.db, after, limit);
  }

  reserveProject(request: ReserveRequest): Result<Reservation> {
    return guarded("reserveProject", () => reserveProject(this.db, request, Date.now()));
  }

  markProjectReady(id: string): Result<ProjectRecord> {
    return guarded("markProjectReady", () => markProjectReady(this.db, id, Date.now()));
  }

  ensureProject(request: EnsureRequest): Result<ProjectRecord> {
    return guarded("ensureProject", () => ensureProject(this.db, request, Date.now()));
  }

  getProject(id: string): Result<ProjectRecord | null> {
    return guarded("getProject", () => findProject(this.db, id) ?? null);
  }

  listProjects(request: ListingPageRequest): Result<ProjectPage> {
    return guarded("listProjects", () => listProjects(this.db, request));
  }

  listWorkspaces(request: ListingPageRequest): Result<WorkspacePage> {
    return guarded("listWorkspaces", () => listAllowedWorkspaces(this.db, request));
  }
}

/** Typed failures become error Results; anything else is logged and answered as INTERNAL_ERROR. */
function guarded<T>(method: string, run: () => T): Result<T> {
  try {
    return ok(run());
  } catch (error) {
    if (error instanceof CommandError) return err(error.error);
    console.error("directory call failed", method, error);
    return err(internalError());
  }
}

type ProjectDirectoryMethods = Record<keyof ProjectDirectory, (...args: never[]) => unknown>;

/** A method called over RPC: same arguments, its answer wrapped in a promise. */
type Remote<T extends ProjectDirectoryMethods> = {
  [K in keyof ProjectDirectory]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

/** The project API of a Directory stub; the return type checks that the object's methods provide it. */
export function projectDirectory(stub: DurableObjectStub<DirectoryObject>): ProjectDirectory {
  return stub as unknown as Remote<DirectoryObject>;
}
