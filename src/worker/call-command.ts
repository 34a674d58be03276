/**
 * One tool call from the front door's side: validate the arguments with the command's zod schema,
 * check the caller's role and `agent_id`, resolve the workspace, and run the command in its workspace
 * object (or here, for commands that need none). Always returns a `Result`.
 */
import type { z } from "zod";
import type { Principal } from "../commands/context";
import type { Command } from "../commands/registry";
import { applyBudget, applyBudgetWithCapsule, type CapsuleForms } from "../shared/budget";
import { type AppError, appError, CommandError, type ErrorAction, internalError } from "../shared/errors";
import { NAME_FIELDS } from "../shared/names";
import { err, ok, type Result } from "../shared/result";
import { resolveWorkspace } from "./workspace-resolution";

export interface CallSession {
  principal: Principal;
  /** Workspace fixed by the `/w/<workspace>/mcp` URL. */
  lock: string | undefined;
  env: Env;
}

const MAX_REPORTED_ISSUES = 5;
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
      return ok(applyBudgetWithCapsule(value, command.budget, args, "default", statelessCapsule(session, args)));
    } catch (error) {
      if (error instanceof CommandError) return err(error.error);
      console.error("stateless command failed", command.name, error);
      return err(internalError());
    }
  }

  const resolution = resolveWorkspace(principal, session.lock, args.workspace);
  if (!resolution.ok) return err(resolution.error);
  const { workspace: _workspace, ...commandArgs } = args;
  try {
    const stub = session.env.WORKSPACES.getByName(resolution.workspace);
    return (await stub.execute(command.name, commandArgs, principal, resolution.workspace, {
      capsule: options.capsule === true,
    })) as Result<Record<string, unknown>>;
  } catch (error) {
    console.error("workspace call failed", command.name, error);
    return err(internalError());
  }
}
