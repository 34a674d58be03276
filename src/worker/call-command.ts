/**
 * One tool call from the front door's side: validate the arguments with the command's zod schema,
 * check the caller's role and `agent_id`, resolve the workspace (a command's `projectField`, such as
 * Record-Sync's `project_id`, names it too, and its fallback is the agent's default project), and run
 * the command in its workspace object (or here, for commands that need none or the Directory). Always
 * returns a `Result`. Knows no particular command: what it needs is the command's metadata, and the
 * commands it suggests itself are the catalog seam's well-known ones.
 */
import type { z } from "zod";
import { CATALOG_VIEW } from "../catalog/catalog-view";
import { type Connection, type RenderContext, renderError, renderSuggestions } from "../catalog/suggestions";
import { WELL_KNOWN } from "../catalog/well-known";
import { type Principal, type ProjectFacts, ROLE_RANK } from "../commands/context";
import type { DirectoryContext } from "../commands/directory-context";
import type { Command, DirectoryCommand } from "../commands/registry";
import type { ProjectDirectory } from "../directory/project-directory";
import { projectDirectory } from "../hosts/directory/directory-object";
import type { ObjectAnswer } from "../hosts/workspace/workspace-object";
import { applyBudget, applyBudgetWithCapsule, type CapsuleForms } from "../shared/budget";
import { type AppError, appError, CommandError, type ErrorAction, internalError } from "../shared/errors";
import { fieldNestedDeeperThan } from "../shared/json";
import { MAX_JSON_DEPTH } from "../shared/limits";
import { NAME_FIELDS } from "../shared/names";
import { err, ok, type Result } from "../shared/result";
import { illFormedError, illFormedFields } from "../shared/stored-text";
import { type RenderedSuggestion, suggest, unfilledFields } from "../shared/suggestion";
import { DIRECTORY_NAME, type WorkspaceSummary } from "../shared/workspace-summary";
import { OAUTH_KEY_ID } from "./oauth/oauth-server";
import { resolveProject, resolveProjectSettled, resolveWorkspace } from "./workspace-resolution";

export interface CallSession {
  principal: Principal;
  /** Workspace fixed by the `/w/<workspace>/mcp` URL. */
  lock: string | undefined;
  env: Env;
  /** What the connection lists and how it calls: suggestions in answers are rendered for it. */
  connection: Connection;
  /** Where one tool call adds up the time its commands spent inside workspace objects and the rows they read (for the call log). */
  timing?: CallTiming;
}

/**
 * What one tool call cost inside workspace objects, summed over its commands: the time there and the
 * SQLite rows read; each null until an object answered with it.
 */
export interface CallTiming {
  object_ms: number | null;
  rows_read: number | null;
}

/**
 * The result of a workspace object's answer, its time and rows read added to the call's. An object still
 * running the code from before `ObjectAnswer` (a deployment in progress, a gradual rollout) answers a bare
 * result: taken as it is, with no time; one from before `rows_read` answers no rows, and none are added.
 */
export function resultOf(session: CallSession, answer: ObjectAnswer | Result<Record<string, unknown>>): Result<Record<string, unknown>> {
  if (!("result" in answer)) return answer;
  const timing = session.timing;
  if (timing !== undefined) {
    timing.object_ms = (timing.object_ms ?? 0) + answer.object_ms;
    if (typeof answer.rows_read === "number") timing.rows_read = (timing.rows_read ?? 0) + answer.rows_read;
  }
  return answer.result;
}

/** How suggestions are rendered for this session, acting in `workspace` (null: the agent must name one). */
export function renderContextOf(session: CallSession, workspace: string | null): RenderContext {
  return { connection: session.connection, workspace, role: session.principal.role };
}

/** The workspace a call resolves to, or null (for suggestions only: the call itself resolves it again). */
export function workspaceOfCall(session: CallSession, args: Record<string, unknown>): string | null {
  const resolution = resolveWorkspace(session.principal, session.lock, args.workspace);
  return resolution.ok ? resolution.workspace : null;
}

const MAX_REPORTED_ISSUES = 5;

/** The argument besides `workspace` that names the call's workspace (the command's `projectField`), if any. */
export function projectArgumentOf(command: Command | undefined, args: Record<string, unknown>): unknown {
  return command?.scope === "workspace" && command.projectField !== undefined ? args[command.projectField] : undefined;
}

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
    suggest(WELL_KNOWN.schemaGet, { cmd: command.name }, `${command.name}'s arguments and a valid example`),
  ]);
}

/** A write whose arguments still hold a `<fill: …>` placeholder: refused before anything runs. */
function placeholderError(command: Command, fields: string[]): AppError {
  const shown = fields.slice(0, MAX_REPORTED_ISSUES);
  return appError(
    "INVALID_INPUT",
    `${command.tool}: ${shown.join(", ")} still ${fields.length === 1 ? "holds" : "hold"} a <fill: …> placeholder; nothing was written.`,
    "Replace every <fill: …> with the value it asks for (a suggested call marks what you must choose that way), then call again.",
    { fields: shown, placeholders: fields.length },
  );
}

export interface CallOptions {
  /** A portal call: the answer carries the capsule (seed 003). */
  capsule?: boolean;
  /** The workspace stores nothing for this call (the viewer's API; see ExecuteRequest.readOnly). */
  readOnly?: boolean;
}

/**
 * The capsule of a command that reads no workspace (help, schema lookups): where is only the workspace
 * the call would resolve to; next points at the status command, which knows the rest. Rendered for the
 * session; the compact form is the rendered best action without its purpose.
 */
function statelessCapsule(session: CallSession, args: Record<string, unknown>): CapsuleForms {
  const workspace = workspaceOfCall(session, args);
  const full = renderSuggestions(
    {
      where: { workspace, lane: `shared + agent/${session.principal.agent_id}` },
      why: [],
      next: {
        action: suggest(WELL_KNOWN.status, {}, "See where you are and what is next"),
        backup: suggest(WELL_KNOWN.help, {}, "The portal workflow"),
      },
    },
    renderContextOf(session, workspace),
  );
  const { purpose: _purpose, ...action } = full.next.action as unknown as RenderedSuggestion;
  return { full, compact: { where: { workspace }, next: { action } } };
}

/**
 * Runs one command for `session` and renders the suggestions of its answer for the session's
 * connection (answers of the workspace object arrive rendered; errors made here are rendered here).
 */
export async function callCommand(
  session: CallSession,
  command: Command,
  rawArgs: unknown,
  options: CallOptions = {},
): Promise<Result<Record<string, unknown>>> {
  const result = await runCommand(session, command, rawArgs, options);
  if (result.ok) return result;
  const args = rawArgs !== null && typeof rawArgs === "object" ? (rawArgs as Record<string, unknown>) : {};
  return { ok: false, error: renderError(result.error, renderContextOf(session, workspaceOfCall(session, args))) };
}

async function runCommand(
  session: CallSession,
  command: Command,
  rawArgs: unknown,
  options: CallOptions,
): Promise<Result<Record<string, unknown>>> {
  // Too deep to validate or to send across the RPC boundary: refused first (MAX_JSON_DEPTH).
  const deep =
    rawArgs !== null && typeof rawArgs === "object" ? fieldNestedDeeperThan(rawArgs as Record<string, unknown>, MAX_JSON_DEPTH) : undefined;
  if (deep !== undefined) {
    return err(
      appError(
        "INVALID_INPUT",
        `${command.tool}: ${deep} nests deeper than ${MAX_JSON_DEPTH} levels.`,
        `Flatten ${deep}: any JSON argument may nest at most ${MAX_JSON_DEPTH} levels.`,
        { fields: [deep], max_depth: MAX_JSON_DEPTH },
      ),
    );
  }
  const parsed = command.input.safeParse(rawArgs ?? {});
  if (!parsed.success) return err(invalidArguments(command, parsed.error, options.capsule === true));
  const args = parsed.data as Record<string, unknown>;
  // A lone surrogate cannot be stored as text (SQLite would keep U+FFFD): refused before anything runs.
  const illFormed = illFormedFields(args);
  if (illFormed.length > 0) return err(illFormedError(command.tool, illFormed));
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
    // An OAuth grant's role is its scope: the app must be authorized again with the scope named.
    const oauth = principal.key_id === OAUTH_KEY_ID;
    return err(
      appError(
        "FORBIDDEN",
        oauth
          ? `${command.tool} needs the OAuth scope ${needed}; this app's grant has ${principal.role}.`
          : `${command.tool} needs role ${needed}; your token has role ${principal.role}.`,
        oauth ? `Connect the app again and grant it the role ${needed} (scope ${needed}).` : `Use a token with role ${needed}.`,
        { role: principal.role, required: needed, ...(oauth ? { scope_required: needed } : {}) },
      ),
    );
  }

  if (command.kind === "write") {
    const unfilled = unfilledFields(args, command.verbatim);
    if (unfilled.length > 0) return err(placeholderError(command, unfilled));
  }

  if (command.scope === "none") {
    try {
      const value = renderSuggestions(
        command.handler({ principal, catalog: CATALOG_VIEW }, args) as Record<string, unknown>,
        renderContextOf(session, workspaceOfCall(session, args)),
      );
      if (!options.capsule) return ok(applyBudget(value, command.budget, args, "default"));
      return ok(applyBudgetWithCapsule(value, command.budget, args, "default", () => statelessCapsule(session, args)));
    } catch (error) {
      if (error instanceof CommandError) return err(error.error);
      console.error("stateless command failed", command.name, error);
      return err(internalError());
    }
  }

  if (command.scope === "directory") return runDirectoryCommand(session, command, args, options);

  const projectField = command.projectField;
  const directory = directoryOf(session.env);
  const resolution = await resolveProjectSettled(
    directory,
    principal,
    session.lock,
    args.workspace,
    projectArgumentOf(command, args),
    projectField !== undefined,
    projectField,
  );
  if (!resolution.ok) return err(resolution.error);
  const { workspace: _workspace, ...rest } = args;
  const commandArgs = projectField === undefined ? rest : withoutField(rest, projectField);
  try {
    const stub = session.env.WORKSPACES.getByName(resolution.workspace);
    const project = command.needsProject === true ? await projectFacts(directory, resolution.workspace) : undefined;
    const answer = (await stub.execute(command.name, commandArgs, principal, resolution.workspace, {
      capsule: options.capsule === true,
      readOnly: options.readOnly === true,
      connection: session.connection,
      ...(project === undefined ? {} : { project }),
    })) as ObjectAnswer | Result<Record<string, unknown>>;
    return resultOf(session, answer);
  } catch (error) {
    console.error("workspace call failed", command.name, error);
    return err(internalError());
  }
}

function withoutField(args: Record<string, unknown>, field: string): Record<string, unknown> {
  const { [field]: _named, ...rest } = args;
  return rest;
}

/** The deployment's Directory of projects. */
function directoryOf(env: Env): ProjectDirectory {
  return projectDirectory(env.DIRECTORY.getByName(DIRECTORY_NAME));
}

/** The Directory's name and description of a project (undefined when it has no row, or cannot answer). */
async function projectFacts(directory: ProjectDirectory, id: string): Promise<ProjectFacts | undefined> {
  try {
    const found = await directory.getProject(id);
    if (!found.ok || found.value === null) return undefined;
    return { name: found.value.name, description: found.value.description ?? "" };
  } catch (error) {
    // The answer falls back to the workspace's own name; the call itself does not fail.
    console.error("project lookup failed", id, error);
    return undefined;
  }
}

function directoryContext(session: CallSession): DirectoryContext {
  const { principal, lock, env } = session;
  return {
    principal,
    lock,
    resolveProject: (named) => resolveProject(principal, lock, named.workspace, named.id, true, "id"),
    directory: directoryOf(env),
    initWorkspace: async (id) => {
      const answer = (await env.WORKSPACES.getByName(id).execute(WELL_KNOWN.init, {}, principal, id)) as
        | ObjectAnswer
        | Result<Record<string, unknown>>;
      return resultOf(session, answer);
    },
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
    const rendering = renderContextOf(session, workspaceOfCall(session, args));
    const value = renderSuggestions((await command.handler(directoryContext(session), args)) as Record<string, unknown>, rendering);
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
