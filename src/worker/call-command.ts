/**
 * One tool call from the front door's side: validate the arguments with the command's zod schema,
 * check the caller's role and `agent_id`, resolve the workspace (a records command's `project_id`
 * names it too, and its fallback is the agent's default project), and run the command in its
 * workspace object (or here, for commands that need none or the Directory). Always returns a `Result`.
 */
import type { z } from "zod";
import { defaultProjectRequest } from "../capabilities/projects/project-ids";
import type { Principal } from "../commands/context";
import type { Command, DirectoryCommand } from "../commands/registry";
import type { DirectoryContext } from "../directory/directory-context";
import { DIRECTORY_NAME, projectDirectory } from "../directory/directory-object";
import { applyBudget, applyBudgetWithCapsule, type CapsuleForms } from "../shared/budget";
import { type AppError, appError, CommandError, type ErrorAction, internalError } from "../shared/errors";
import { NAME_FIELDS } from "../shared/names";
import { err, ok, type Result } from "../shared/result";
import type { WorkspaceSummary } from "../workspace/workspace-object";
import { resolveProject, resolveWorkspace } from "./workspace-resolution";

export interface CallSession {
  principal: Principal;
  /** Workspace fixed by the `/w/<workspace>/mcp` URL. */
  lock: string | undefined;
  env: Env;
}

const MAX_REPORTED_ISSUES = 5;
/** Record-Sync commands: `project_id` names their workspace, and they fall back to the default project. */
const RECORDS_DOMAIN = "records.";
/**
 * Default projects this isolate has registered in the Directory: a records call on one costs no
 * Directory call after the first. Cleared when full (an id is ~30 bytes: 10,000 stay under 1 MB);
 * a forgotten one is only registered again, idempotently.
 */
const MAX_ENSURED_DEFAULTS = 10_000;
const ensuredDefaults = new Set<string>();
const ROLE_RANK = { read: 0, write: 1, admin: 2 } as const;

/** INVALID_INPUT (or INVALID_NAME for a single bad name) listing the first issues of a failed parse. */
export function invalidArgumentsOf(tool: string, error: z.ZodError, hint: string, actions?: ErrorAction[]): AppError {
  const issues = error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({
    path: issue.path.join(".") || "(arguments)",
    message: issue.message,
  }));
  const nameIssue = error.issues.find((issue) => NAME_FIELDS.has(String(issue.path[issue.path.length - 1] ?? "")));
  const code = nameIssue && error.issues.length === 1 ? "INVALID_NAME" : "INVALID_INPUT";
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  return appError(
    code,
    `Invalid arguments for ${tool}: ${summary}`,
    `Fix the listed fields; ${hint} gives every field.`,
    { issues },
    actions,
  );
}

export function invalidArguments(command: Command, error: z.ZodError, viaPortal = false): AppError {
  if (!viaPortal) return invalidArgumentsOf(command.tool, error, "the tool's inputSchema in tools/list");
  return invalidArgumentsOf(command.name, error, "system schema.get", [
    { tool: "system", args: { op: "schema.get", args: { cmd: command.name } }, why: `${command.name}'s arguments and a valid example` },
  ]);
}

export interface CallOptions {
  /** A portal call: the answer carries the capsule (seed 003). */
  capsule?: boolean;
  /** The workspace stores nothing for this call (the viewer's API; see ExecuteRequest.readOnly). */
  readOnly?: boolean;
}

/**
 * The capsule of a command that reads no workspace (help, schema lookups): where is only the workspace
 * the call would resolve to; next points at `status`, which knows the rest.
 */
function statelessCapsule(session: CallSession, args: Record<string, unknown>): CapsuleForms {
  const resolution = resolveWorkspace(session.principal, session.lock, args.workspace);
  const workspace = resolution.ok ? resolution.workspace : null;
  const action = { tool: "status", args: workspace === null ? {} : { workspace }, purpose: "See where you are and what is next" };
  const full = {
    where: { workspace, lane: `shared + agent/${session.principal.agent_id}` },
    why: [],
    next: { action, backup: { tool: "system", args: { op: "help" }, purpose: "The portal workflow" } },
  };
  return { full, compact: { where: { workspace }, next: { action: { tool: action.tool, args: action.args } } } };
}

export async function callCommand(
  session: CallSession,
  command: Command,
  rawArgs: unknown,
  options: CallOptions = {},
): Promise<Result<Record<string, unknown>>> {
  const parsed = command.input.safeParse(rawArgs ?? {});
  if (!parsed.success) return err(invalidArguments(command, parsed.error, options.capsule === true));
  const args = parsed.data as Record<string, unknown>;
  const { principal } = session;

  if (typeof args.agent_id === "string" && args.agent_id !== principal.agent_id) {
    return err(
      appError(
        "FORBIDDEN",
        `agent_id "${args.agent_id}" is not you (${principal.agent_id}).`,
        "Omit agent_id: the server takes it from your token.",
        {
          given: args.agent_id,
          authenticated: principal.agent_id,
        },
      ),
    );
  }
  const needed = command.requiresRole ?? (command.kind === "write" ? "write" : "read");
  if (ROLE_RANK[principal.role] < ROLE_RANK[needed]) {
    return err(
      appError(
        "FORBIDDEN",
        `${command.tool} needs role ${needed}; your token has role ${principal.role}.`,
        `Use a token with role ${needed}.`,
        {
          role: principal.role,
          required: needed,
        },
      ),
    );
  }

  if (command.scope === "none") {
    try {
      const value = command.handler({ principal }, args) as Record<string, unknown>;
      if (!options.capsule) return ok(applyBudget(value, command.budget, args, "default"));
      return ok(applyBudgetWithCapsule(value, command.budget, args, "default", () => statelessCapsule(session, args)));
    } catch (error) {
      if (error instanceof CommandError) return err(error.error);
      console.error("stateless command failed", command.name, error);
      return err(internalError());
    }
  }

  if (command.scope === "directory") return runDirectoryCommand(session, command, args, options);

  const isRecords = command.name.startsWith(RECORDS_DOMAIN);
  const resolution = resolveProject(principal, session.lock, args.workspace, args.project_id, isRecords);
  if (!resolution.ok) return err(resolution.error);
  const { workspace: _workspace, project_id: _project, ...commandArgs } = args;
  try {
    const stub = session.env.WORKSPACES.getByName(resolution.workspace);
    const [result] = await Promise.all([
      stub.execute(command.name, commandArgs, principal, resolution.workspace, {
        capsule: options.capsule === true,
        readOnly: options.readOnly === true,
      }),
      isRecords && resolution.isDefault ? ensureDefaultProject(session) : undefined,
    ]);
    return result as Result<Record<string, unknown>>;
  } catch (error) {
    console.error("workspace call failed", command.name, error);
    return err(internalError());
  }
}

/** Registers the agent's default project in the Directory (created on first use); never fails the call. */
async function ensureDefaultProject(session: CallSession): Promise<void> {
  const request = defaultProjectRequest(session.principal.agent_id);
  if (ensuredDefaults.has(request.id)) return;
  try {
    const result = await projectDirectory(session.env.DIRECTORY.getByName(DIRECTORY_NAME)).ensureProject(request);
    if (!result.ok) {
      console.error("default project registration failed", request.id, result.error.code);
      return;
    }
    if (ensuredDefaults.size >= MAX_ENSURED_DEFAULTS) ensuredDefaults.clear();
    ensuredDefaults.add(request.id);
  } catch (error) {
    // The workspace's first summary push registers it anyway.
    console.error("default project registration failed", request.id, error);
  }
}

function directoryContext(session: CallSession): DirectoryContext {
  const { principal, lock, env } = session;
  return {
    principal,
    lock,
    resolveProject: (named) => resolveProject(principal, lock, named.workspace, named.id, true, "id"),
    directory: projectDirectory(env.DIRECTORY.getByName(DIRECTORY_NAME)),
    initWorkspace: async (id) =>
      (await env.WORKSPACES.getByName(id).execute("system.init", {}, principal, id)) as Result<Record<string, unknown>>,
    workspaceSummary: async (id) => (await env.WORKSPACES.getByName(id).readSummary()) as Result<WorkspaceSummary>,
  };
}

/** A Directory command (projects): its handler runs here, against the Directory and workspace objects. */
async function runDirectoryCommand(
  session: CallSession,
  command: DirectoryCommand,
  args: Record<string, unknown>,
  options: CallOptions,
): Promise<Result<Record<string, unknown>>> {
  try {
    const value = (await command.handler(directoryContext(session), args)) as Record<string, unknown>;
    const capsule = options.capsule ? statelessCapsule(session, args) : undefined;
    if (command.kind === "write") return ok(capsule ? { ...value, capsule: capsule.full } : value);
    if (!capsule) return ok(applyBudget(value, command.budget, args, "default"));
    return ok(applyBudgetWithCapsule(value, command.budget, args, "default", () => capsule));
  } catch (error) {
    if (error instanceof CommandError) return err(error.error);
    console.error("directory command failed", command.name, error);
    return err(internalError());
  }
}
