/**
 * The Directory's project SQL (seed 004 projects = workspaces). A project row is a registration:
 * `pending` from reservation until its workspace is initialized, then `ready`. Rows are never deleted;
 * listing joins the last summary each workspace pushed (`workspaces`). Expected failures are thrown as
 * `CommandError` and turned into Results by the Directory object.
 */

import type {
  EnsureRequest,
  ListingPageRequest,
  ProjectPage,
  ProjectRecord,
  Reservation,
  ReserveRequest,
} from "../../directory/project-directory";
import { MAX_ID_PROBES, MAX_PROJECT_PAGE, MAX_PROJECT_SCAN, PROJECT_SCAN_BATCH } from "../../directory/project-limits";
import { fail } from "../../shared/errors";
import { matchesWorkspace } from "../../shared/workspace-patterns";
import type { Db, Row } from "../../storage/db";

const PROJECT_COLUMNS = `p.id, p.name, p.description, p.origin, p.status, p.created_by, p.created_at_ms,
  COALESCE(w.project_tick, 0) AS project_tick, COALESCE(w.open_records, 0) AS open_records,
  COALESCE(w.open_sessions, 0) AS open_sessions, COALESCE(w.as_of_tick, 0) AS as_of_tick`;
const PROJECT_FROM = "projects p LEFT JOIN workspaces w ON w.name = p.id";

type ProjectRow = ProjectRecord & Row;

export function findProject(db: Db, id: string): ProjectRecord | undefined {
  return db.one<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM ${PROJECT_FROM} WHERE p.id = ?`, id);
}

function requireProject(db: Db, id: string): ProjectRecord {
  const project = findProject(db, id);
  if (!project) throw new Error(`project ${id} vanished inside its own transaction`);
  return project;
}

function insertPending(db: Db, id: string, request: ReserveRequest, nowMs: number): void {
  db.run(
    `INSERT INTO projects (id, name, description, origin, status, created_by, request_key, request_fingerprint, created_at_ms)
     VALUES (?, ?, ?, 'created', 'pending', ?, ?, ?, ?)`,
    id,
    request.name,
    request.description,
    request.agent_id,
    request.key,
    request.fingerprint,
    nowMs,
  );
}

function alreadyExists(project: ProjectRecord): never {
  return fail(
    "ALREADY_EXISTS",
    `Project "${project.id}" already exists.`,
    "Pick another id, omit id to have one generated, or use the existing project (get_project).",
    // No suggested call here: errors cross RPC as plain data; the project commands add theirs.
    { id: project.id, name: project.name, status: project.status },
  );
}

/** Replays an earlier create of the same key, or refuses the key's reuse for another create. */
function replayOfKey(db: Db, request: ReserveRequest): Reservation | undefined {
  if (request.key === null) return undefined;
  const earlier = db.one<{ id: string; request_fingerprint: string | null }>(
    "SELECT id, request_fingerprint FROM projects WHERE created_by = ? AND request_key = ?",
    request.agent_id,
    request.key,
  );
  if (!earlier) return undefined;
  if (earlier.request_fingerprint !== request.fingerprint) {
    fail(
      "IDEMPOTENCY_KEY_REUSED",
      `idempotency_key "${request.key}" was used for another create_project (project "${earlier.id}").`,
      "Use a fresh idempotency_key for a different project.",
      { key: request.key, project: earlier.id },
    );
  }
  return { outcome: "replayed", project: requireProject(db, earlier.id) };
}

/** The first free id of `base`'s sequence (`base`, `base-2`, …), advancing its counter. */
function nextGeneratedId(db: Db, base: string): string {
  let n = db.one<{ next: number }>("SELECT next FROM project_id_counters WHERE base = ?", base)?.next ?? 1;
  for (let probe = 0; probe < MAX_ID_PROBES; probe++, n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!db.one("SELECT 1 AS taken FROM projects WHERE id = ?", candidate)) {
      db.run(
        "INSERT INTO project_id_counters (base, next) VALUES (?, ?) ON CONFLICT (base) DO UPDATE SET next = excluded.next",
        base,
        n + 1,
      );
      return candidate;
    }
  }
  return fail("ALREADY_EXISTS", `No free generated id after "${base}" within ${MAX_ID_PROBES} tries.`, "Pass an explicit id.", { base });
}

/**
 * Step one of a retry-safe create: record the project as `pending`. A retry finds its reservation
 * again (by idempotency key, or by id with the same name and description) and may finish it.
 */
export function reserveProject(db: Db, request: ReserveRequest, nowMs: number): Reservation {
  return db.transaction(() => {
    const replay = replayOfKey(db, request);
    if (replay) return replay;
    if (request.id === undefined) {
      if (request.base === undefined) throw new Error("reserveProject needs an id or a base");
      const id = nextGeneratedId(db, request.base);
      insertPending(db, id, request, nowMs);
      return { outcome: "reserved", project: requireProject(db, id) };
    }
    const existing = db.one<{ status: string; request_fingerprint: string | null }>(
      "SELECT status, request_fingerprint FROM projects WHERE id = ?",
      request.id,
    );
    if (existing === undefined) {
      insertPending(db, request.id, request, nowMs);
      return { outcome: "reserved", project: requireProject(db, request.id) };
    }
    const project = requireProject(db, request.id);
    if (existing.status === "pending" && existing.request_fingerprint === request.fingerprint) return { outcome: "resumed", project };
    return alreadyExists(project);
  });
}

/** Step two, after the workspace is initialized: the project is usable. Repeating it changes nothing. */
export function markProjectReady(db: Db, id: string, nowMs: number): ProjectRecord {
  db.run("UPDATE projects SET status = 'ready', ready_at_ms = ? WHERE id = ? AND status = 'pending'", nowMs, id);
  const project = findProject(db, id);
  if (!project) fail("UNKNOWN_ID", `No project "${id}".`, "Create it with create_project.", { id });
  return project;
}

/** A default project that `agentId` registered as its own. */
function isDefaultOf(project: ProjectRecord | undefined, agentId: string | null): project is ProjectRecord {
  return project !== undefined && project.origin === "default" && project.created_by === agentId;
}

/**
 * Registers a project that needs no initialization (a default project, a workspace already written).
 * For a default project it first settles which id is the agent's (docs/projects.md): its old-rule
 * default if it registered one, else `id`, unless `id` is another agent's default, then `diverted_id`.
 */
export function ensureProject(db: Db, request: EnsureRequest, nowMs: number): ProjectRecord {
  return db.transaction(() => {
    if (request.origin !== "default") return insertReady(db, request, request.id, nowMs);
    const legacy = request.legacy_id === undefined ? undefined : findProject(db, request.legacy_id);
    if (isDefaultOf(legacy, request.agent_id)) return legacy;
    const taken = isOthersDefault(findProject(db, request.id), request.agent_id);
    const project = insertReady(db, request, taken && request.diverted_id !== undefined ? request.diverted_id : request.id, nowMs);
    // Only an agent id outside the minted ones (e.g. `_x`, registered under the old rule) can hold it.
    if (isOthersDefault(project, request.agent_id)) {
      fail(
        "WORKSPACE_REQUIRED",
        `Your default project "${project.id}" is already another agent's default project.`,
        "Pass project_id (list_projects shows the ones you can use).",
        { default_project: project.id },
      );
    }
    return project;
  });
}

/** A default project that another agent registered. */
function isOthersDefault(project: ProjectRecord | undefined, agentId: string | null): boolean {
  return project !== undefined && project.origin === "default" && project.created_by !== agentId;
}

function insertReady(db: Db, request: EnsureRequest, id: string, nowMs: number): ProjectRecord {
  db.run(
    `INSERT INTO projects (id, name, description, origin, status, created_by, created_at_ms, ready_at_ms)
     VALUES (?, ?, ?, ?, 'ready', ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    id,
    request.name,
    request.description,
    request.origin,
    request.agent_id,
    nowMs,
    nowMs,
  );
  return requireProject(db, id);
}

/** Every workspace that pushes a summary is a project (named after itself until someone names it). */
export function registerWorkspaceProject(db: Db, name: string, nowMs: number): void {
  db.run(
    `INSERT INTO projects (id, name, origin, status, created_at_ms, ready_at_ms)
     VALUES (?, ?, 'workspace', 'ready', ?, ?) ON CONFLICT (id) DO NOTHING`,
    name,
    name,
    nowMs,
    nowMs,
  );
}

function allowedBy(patterns: string[]): (id: string) => boolean {
  if (patterns.includes("**")) return () => true;
  return (id) => patterns.some((pattern) => matchesWorkspace(pattern, id));
}

/**
 * One page of projects in id order, only those the patterns allow. Work is bounded: at most
 * MAX_PROJECT_SCAN rows are examined; when that bound stops the scan, the page says where to go on.
 */
export function listProjects(db: Db, request: ListingPageRequest): ProjectPage {
  const limit = Math.min(Math.max(request.limit, 1), MAX_PROJECT_PAGE);
  const allowed = allowedBy(request.patterns);
  const shown: ProjectRecord[] = [];
  let after = request.after ?? "";
  let scanned = 0;
  while (scanned < MAX_PROJECT_SCAN) {
    const batch = Math.min(Math.max(limit + 1, PROJECT_SCAN_BATCH), MAX_PROJECT_SCAN - scanned);
    const rows = db.all<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM ${PROJECT_FROM} WHERE p.id > ? ORDER BY p.id LIMIT ?`, after, batch);
    for (const row of rows) {
      scanned++;
      after = row.id;
      if (!allowed(row.id)) continue;
      if (shown.length === limit) return { projects: shown, has_more: true, next_cursor: shown[limit - 1]?.id as string, scanned };
      shown.push(row);
    }
    if (rows.length < batch) return { projects: shown, has_more: false, scanned };
  }
  // The scan bound stopped us: more rows may follow, allowed or not; continue after the last one examined.
  return { projects: shown, has_more: true, next_cursor: after, scanned };
}
