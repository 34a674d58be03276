/**
 * Record-Sync projects (seed 004; docs/projects.md): a project is a workspace, registered in the
 * Directory. `create_project` is retry-safe (reserve in the Directory, initialize the workspace, mark
 * ready; a retry finishes a reservation a crash left pending), `get_project` reads the Directory and
 * the workspace's live summary, `list_projects` reads only the Directory (paged, bounded, filtered by
 * the token's patterns; its counts lag writes by the workspaces' summary alarm).
 */
import { z } from "zod";
import type { DirectoryContext } from "../../commands/directory-context";
import { defineDirectoryCommand } from "../../commands/registry";
import { listingPageFields, listingPageRequest, listingPagination } from "../../directory/listing-page";
import type { ProjectRecord } from "../../directory/project-directory";
import { defaultProjectRequest, generatedIdBase } from "../../directory/project-ids";
import { MAX_DESCRIPTION_CHARS } from "../../directory/project-limits";
import { type AppError, CommandError, fail } from "../../shared/errors";
import { fnv1a64 } from "../../shared/hash";
import { keyedPageBudget, keyedPaginationSchema } from "../../shared/keyed-page";
import { MAX_TITLE_CHARS } from "../../shared/limits";
import { workspaceNameSchema } from "../../shared/names";
import type { Result } from "../../shared/result";
import { suggest } from "../../shared/suggestion";

const projectIdSchema = workspaceNameSchema.describe("Project id: a workspace name such as `myapp-v2-design` or `acme/design`.");

/** Seed 004's Project, plus the Directory's counts and freshness. */
const projectShape = {
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  created: z.string().describe("ISO timestamp of the registration."),
  tick: z.number().describe("Record-Sync project tick (create_record, update_record, transition, save_session)."),
  open_records: z.number(),
  open_sessions: z.number(),
  as_of_tick: z.number().describe("Workspace event tick these numbers describe (0: no summary yet)."),
  status: z.enum(["pending", "ready"]),
  origin: z.enum(["created", "default", "workspace"]),
  created_by: z.string().nullable(),
};

const listItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  tick: z.number(),
  open_sessions: z.number(),
  open_records: z.number(),
  as_of_tick: z.number(),
  pending: z.literal(true).optional(),
});

/** What a retry without idempotency_key must repeat to finish a pending create: id (or none), name, description. */
export function createFingerprint(id: string | null, name: string, description: string | null): string {
  return fnv1a64(JSON.stringify({ id, name, description }));
}

/** The Directory's errors arrive as plain data (nothing but data crosses RPC): here they get their suggested calls. */
function withActions(error: AppError): AppError {
  const id = error.details?.id;
  if (error.code !== "ALREADY_EXISTS" || typeof id !== "string" || error.actions !== undefined) return error;
  return { ...error, actions: [suggest("get_project", { id }, "See the existing project")] };
}

/** A Directory answer, or its error thrown (with the call that shows an existing project, for ALREADY_EXISTS). */
function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new CommandError(withActions(result.error));
  return result.value;
}

function projectView(project: ProjectRecord) {
  return {
    id: project.id,
    name: project.name,
    ...(project.description === null ? {} : { description: project.description }),
    created: new Date(project.created_at_ms).toISOString(),
    tick: project.project_tick,
    open_records: project.open_records,
    open_sessions: project.open_sessions,
    as_of_tick: project.as_of_tick,
    status: project.status,
    origin: project.origin,
    created_by: project.created_by,
  };
}

/** The project with the workspace's counts as of now (the Directory's last push when that read fails). */
async function liveProject(ctx: DirectoryContext, project: ProjectRecord): Promise<ProjectRecord> {
  const summary = await ctx.workspaceSummary(project.id);
  if (!summary.ok || summary.value.name === "") return project;
  const live = summary.value;
  return {
    ...project,
    project_tick: live.project_tick ?? 0,
    open_records: live.open_records ?? 0,
    open_sessions: live.open_sessions ?? 0,
    as_of_tick: live.as_of_tick,
  };
}

/**
 * The Directory's row for `id`; a workspace that was written but has not pushed its first summary
 * yet is registered now (it is a project already).
 */
async function registeredProject(ctx: DirectoryContext, id: string): Promise<ProjectRecord | undefined> {
  const found = unwrap(await ctx.directory.getProject(id));
  if (found !== null) return found;
  const summary = await ctx.workspaceSummary(id);
  if (!summary.ok || summary.value.name === "") return undefined;
  return unwrap(await ctx.directory.ensureProject({ id, name: id, description: null, origin: "workspace", agent_id: null }));
}

/** The id a create works on: the one named (resolved like a workspace: URL lock, patterns), else a generated one's base. */
function createTarget(
  ctx: DirectoryContext,
  args: { id?: string | undefined; workspace?: string | undefined; name: string },
): { id: string; base?: undefined } | { id?: undefined; base: string } {
  if (args.id === undefined && args.workspace === undefined && ctx.lock === undefined) {
    const base = generatedIdBase(args.name, ctx.principal.workspaces);
    if (base === undefined) {
      fail(
        "FORBIDDEN",
        "Your token grants only fixed workspaces, so no id can be generated for a new project.",
        "Pass id: one of the workspaces your token grants.",
        { granted: ctx.principal.workspaces },
      );
    }
    return { base };
  }
  const resolved = ctx.resolveProject({ workspace: args.workspace, id: args.id });
  if (!resolved.ok) throw new CommandError(resolved.error);
  return { id: resolved.workspace };
}

export const createProject = defineDirectoryCommand({
  name: "records.project.create",
  tool: "create_project",
  title: "Create a project",
  description:
    "Create a Record-Sync project (a workspace). Give `id` (duplicate → ALREADY_EXISTS) or let one be generated from the name (`my-app`, `my-app-2`, … under your token's prefix). Retry-safe: a retry with the same idempotency_key, or with the same id, name and description, finishes or returns the first create.",
  kind: "write",
  input: {
    id: projectIdSchema.optional().describe("Your id for the project (e.g. `myapp-v2-design`); omit to have one generated."),
    name: z.string().min(1).max(MAX_TITLE_CHARS).describe("Display name."),
    description: z.string().max(MAX_DESCRIPTION_CHARS).optional(),
  },
  output: { ...projectShape, outcome: z.enum(["created", "resumed", "replayed"]) },
  handler: async (ctx, args) => {
    const target = createTarget(ctx, args);
    // A workspace written before but not registered yet is a project already: register it, so the
    // reservation below answers ALREADY_EXISTS instead of adopting it.
    if (target.id !== undefined) await registeredProject(ctx, target.id);
    const description = args.description ?? null;
    const reservation = unwrap(
      await ctx.directory.reserveProject({
        ...(target.id !== undefined ? { id: target.id } : { base: target.base }),
        name: args.name,
        description,
        agent_id: ctx.principal.agent_id,
        key: args.idempotency_key ?? null,
        fingerprint: createFingerprint(target.id ?? null, args.name, description),
      }),
    );
    let project = reservation.project;
    if (project.status === "pending") {
      unwrap(await ctx.initWorkspace(project.id));
      project = unwrap(await ctx.directory.markProjectReady(project.id));
    }
    const outcome: "created" | "resumed" | "replayed" = reservation.outcome === "reserved" ? "created" : reservation.outcome;
    return { ...projectView(await liveProject(ctx, project)), outcome };
  },
});

export const getProject = defineDirectoryCommand({
  name: "records.project.get",
  tool: "get_project",
  title: "Get a project",
  description:
    "One project with its live tick and counts. Without `id`: the project this call resolves to (URL, token), else your default project (created on first use).",
  kind: "read",
  registersDefaultProject: true,
  input: {
    id: projectIdSchema.optional().describe("Project id; default: your default project."),
  },
  output: projectShape,
  handler: async (ctx, args) => {
    const resolved = ctx.resolveProject({ workspace: args.workspace, id: args.id });
    if (!resolved.ok) throw new CommandError(resolved.error);
    const id = resolved.workspace;
    const project = resolved.isDefault
      ? unwrap(await ctx.directory.ensureProject(defaultProjectRequest(ctx.principal.agent_id)))
      : await registeredProject(ctx, id);
    if (project === undefined) {
      fail("UNKNOWN_ID", `No project "${id}".`, "Check the id with list_projects, or create it with create_project.", { id }, [
        suggest("list_projects", {}, "The projects your token grants"),
      ]);
    }
    return projectView(await liveProject(ctx, project));
  },
});

export const listProjects = defineDirectoryCommand({
  name: "records.project.list",
  tool: "list_projects",
  title: "List projects",
  description:
    "Projects your token grants, in id order and paged (cursor = next_cursor), each with its tick, open_sessions, open_records and as_of_tick. Reads only the Directory: counts lag writes by a few seconds (see as_of_tick).",
  kind: "read",
  input: listingPageFields,
  output: {
    projects: z.array(listItemSchema),
    pagination: keyedPaginationSchema,
  },
  budget: keyedPageBudget("projects", "id"),
  handler: async (ctx, args) => {
    const page = unwrap(await ctx.directory.listProjects(listingPageRequest(ctx.principal.workspaces, args)));
    return {
      projects: page.projects.map((project) => ({
        id: project.id,
        name: project.name,
        ...(project.description === null ? {} : { description: project.description }),
        tick: project.project_tick,
        open_sessions: project.open_sessions,
        open_records: project.open_records,
        as_of_tick: project.as_of_tick,
        ...(project.status === "pending" ? { pending: true as const } : {}),
      })),
      pagination: listingPagination(args, page, page.projects.length),
    };
  },
});
