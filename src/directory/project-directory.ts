/**
 * The Directory's project API as the Worker sees it: plain, serializable request and answer types of
 * the DirectoryObject's RPC methods. Every method returns a `Result` (nothing is thrown across RPC).
 */
import type { Result } from "../shared/result";

export type ProjectOrigin = "created" | "default" | "workspace";
export type ProjectStatus = "pending" | "ready";

/** One project: its registration plus the last summary its workspace pushed (zeros before the first). */
export interface ProjectRecord {
  id: string;
  name: string;
  description: string | null;
  origin: ProjectOrigin;
  status: ProjectStatus;
  created_by: string | null;
  created_at_ms: number;
  /** Record-Sync tick (seed 004 writes only), from the last summary. */
  project_tick: number;
  open_records: number;
  open_sessions: number;
  /** The workspace event tick the summary describes; 0 before the first summary arrives. */
  as_of_tick: number;
}

export interface ReserveRequest {
  /** The id the caller chose; without it the Directory numbers `base` (`base`, `base-2`, …). */
  id?: string;
  base?: string;
  name: string;
  description: string | null;
  agent_id: string;
  /** The caller's idempotency key: a retry with it finds this reservation again. */
  key: string | null;
  /** Fingerprint of (id, name, description): a retry without a key must match it to resume. */
  fingerprint: string;
}

/** `reserved`: a new row; `resumed`: a pending row of the same request; `replayed`: the key's earlier create. */
export type ReserveOutcome = "reserved" | "resumed" | "replayed";

export interface Reservation {
  outcome: ReserveOutcome;
  project: ProjectRecord;
}

export interface EnsureRequest {
  id: string;
  name: string;
  description: string | null;
  origin: Exclude<ProjectOrigin, "created">;
  agent_id: string | null;
  /** A default project: the old rule's name, used instead when this agent registered it as its default. */
  legacy_id?: string;
  /** A default project: used instead of `id` when `id` is another agent's default (of the old rule). */
  diverted_id?: string;
}

/** A page of a Directory listing (projects by id, workspaces by name): only what the patterns allow. */
export interface ListingPageRequest {
  /** The token's workspace patterns: only matching projects (workspaces) are listed. */
  patterns: string[];
  /** The key to continue after (the previous page's next_cursor). */
  after?: string;
  limit: number;
}

export interface ProjectPage {
  projects: ProjectRecord[];
  has_more: boolean;
  /** The id to continue after (the last shown, or the last examined when the scan bound stopped early). */
  next_cursor?: string;
  /** Rows examined; at most MAX_PROJECT_SCAN. */
  scanned: number;
}

/** One workspace's last pushed summary (`as_of_tick` = the event tick it describes) and when it arrived. */
export interface WorkspaceListing {
  name: string;
  tick: number;
  seq: number;
  branches: number;
  as_of_tick: number;
  project_tick: number;
  open_records: number;
  open_sessions: number;
  updated_at_ms: number;
}

export interface WorkspacePage {
  workspaces: WorkspaceListing[];
  has_more: boolean;
  /** The name to continue after (the last shown, or the last examined when the scan bound stopped early). */
  next_cursor?: string;
}

/** What the project commands may ask the Directory (the DirectoryObject's RPC surface). */
export interface ProjectDirectory {
  reserveProject(request: ReserveRequest): Promise<Result<Reservation>>;
  markProjectReady(id: string): Promise<Result<ProjectRecord>>;
  ensureProject(request: EnsureRequest): Promise<Result<ProjectRecord>>;
  getProject(id: string): Promise<Result<ProjectRecord | null>>;
  listProjects(request: ListingPageRequest): Promise<Result<ProjectPage>>;
  listWorkspaces(request: ListingPageRequest): Promise<Result<WorkspacePage>>;
}
