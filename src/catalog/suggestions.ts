/**
 * Renders the suggestions of an answer (shared/suggestion.ts) for the connection that asked, so that
 * every suggested call works when pasted as given:
 *
 * - it names a tool the connection lists: on the portal toolset the command's portal (its golden op,
 *   else `op: "call"` with `cmd`); on a flat toolset its flat tool when listed, else the `call` form of
 *   a portal the toolset lists (daily lists `system`); else it is unreachable;
 * - it carries `workspace` for a command that acts in one, unless the URL locks the connection (the
 *   call's own workspace, so it cannot land in another one or in a default project);
 * - a command the caller's role may not run is unreachable too.
 *
 * An unreachable suggestion is left out of a list; where it stood alone (a capsule's action) it becomes
 * a `status` call, which every toolset lists and every role may make. Knows no particular command
 * besides `status`: the rest comes from the catalog and the portal table.
 */

import { ROLE_RANK, type Role } from "../commands/context";
import type { Command } from "../commands/registry";
import type { AppError } from "../shared/errors";
import { fill, type RenderedSuggestion, Suggestion } from "../shared/suggestion";
import { findCommand } from "./catalog";
import { CALL_OP, findPortal, placeOf } from "./portals";
import { holdsNoProse, isProseField, renderProse } from "./prose";

/** What the object needs to know of the connection: neutral, no MCP in it. */
export interface Connection {
  /** `portal`: calls go through portal envelopes; `flat`: through the commands' flat tools. */
  form: "portal" | "flat";
  /**
   * The tool names the connection's toolset lists, or "all" when it lists every command's flat tool
   * (the full toolset: a list of 149 names is not worth sending with every call). Unused for `portal`.
   */
  tools: readonly string[] | "all";
  /** The workspace the URL locks the connection to, or null. */
  lock: string | null;
  /**
   * A person's read-only view (the browser viewer): suggestions are rendered as the agents' moves, for
   * this role, to be read rather than made, instead of the `status` that stands in for a move the
   * caller's own role may not make. Absent for every agent's connection.
   */
  movesFor?: Role;
}

/** A connection of the default toolset with no lock (calls that name none). */
export const PORTAL_CONNECTION: Connection = { form: "portal", tools: [], lock: null };

/** The viewer's API: the default toolset's forms, with the moves a writing agent is told (docs/viewer.md). */
export const PERSON_CONNECTION: Connection = { ...PORTAL_CONNECTION, movesFor: "write" };

export interface RenderContext {
  connection: Connection;
  /** The workspace the call acted in, or null when none resolved (then the agent must fill it in). */
  workspace: string | null;
  role: Role;
}

/** Where an unreachable suggestion stood alone: the HUD every toolset lists and every role may read. */
const FALLBACK_COMMAND = "system.status";

function requiredRole(command: Command): Role {
  return command.requiresRole ?? (command.kind === "write" ? "write" : "read");
}

/** The command's arguments plus the workspace it acts in, unless the URL names that workspace already. */
function placed(command: Command, args: Readonly<Record<string, unknown>>, context: RenderContext): Record<string, unknown> {
  const { lock } = context.connection;
  if (command.scope !== "workspace" || "project_id" in args) return { ...args };
  if ("workspace" in args) {
    if (args.workspace !== lock) return { ...args };
    const { workspace: _locked, ...rest } = args;
    return rest;
  }
  if (lock !== null) return { ...args };
  return { ...args, workspace: context.workspace ?? fill("workspace") };
}

/** The envelope that runs `command` through `portal` (its golden op there, else `call`), workspace on top. */
function envelope(portalName: string, command: Command, args: Record<string, unknown>): Record<string, unknown> {
  const { workspace, ...commandArgs } = args;
  const place = placeOf(command);
  const golden = place.portal.name === portalName ? place.op : undefined;
  const portal = findPortal(portalName);
  const op = golden === undefined ? { op: CALL_OP, cmd: command.name } : golden === portal?.defaultOp ? {} : { op: golden };
  return {
    ...(workspace === undefined ? {} : { workspace }),
    ...op,
    ...(Object.keys(commandArgs).length > 0 ? { args: commandArgs } : {}),
  };
}

/** The call of `command` in the connection's form, or undefined when its toolset offers no way to make it. */
function inForm(command: Command, args: Record<string, unknown>, purpose: string, context: RenderContext): RenderedSuggestion | undefined {
  const { form, tools } = context.connection;
  if (form === "portal") {
    const portal = placeOf(command).portal.name;
    return { tool: portal, args: envelope(portal, command, args), purpose };
  }
  if (tools === "all" || tools.includes(command.tool)) return { tool: command.tool, args, purpose };
  // A listed portal that is not also a flat tool (`status` and `open` are both): its `call` op runs any command.
  const door = tools.find((tool) => findPortal(tool) !== undefined && findCommand(tool) === undefined);
  return door === undefined ? undefined : { tool: door, args: envelope(door, command, args), purpose };
}

/** One suggestion in the connection's form, or undefined when the connection cannot make that call. */
function renderSuggestion(suggestion: Suggestion, context: RenderContext): RenderedSuggestion | undefined {
  const command = findCommand(suggestion.tool);
  if (command === undefined) {
    // A bug in the suggesting code: leave the call out rather than fail the answer (tests catch it).
    console.error("suggestion names an unknown command", suggestion.tool);
    return undefined;
  }
  const role = context.connection.movesFor ?? context.role;
  if (ROLE_RANK[role] < ROLE_RANK[requiredRole(command)]) return undefined;
  const purpose = renderProse(suggestion.purpose, (named) => proseCallForm(named, context));
  return inForm(command, placed(command, suggestion.args, context), purpose, context);
}

/** What stands where an unreachable suggestion stood alone: `status`, which every toolset lists and every role may call. */
function fallback(suggestion: Suggestion, context: RenderContext): RenderedSuggestion {
  const status = findCommand(FALLBACK_COMMAND) as Command;
  const asked = renderProse(suggestion.purpose, (named) => proseCallForm(named, context));
  const purpose = `${asked} — not callable on this connection (its toolset or your role); status shows where you are`;
  return inForm(status, placed(status, {}, context), purpose, context) as RenderedSuggestion;
}

/**
 * How the connection's prose names a command it would call: on the portal toolset the portal and its
 * golden op (`tasks {op: "snapshot"}`), else `op: "call"` with `cmd`; on a flat toolset nothing changes
 * for a listed tool, and an unlisted one goes through the listed portal's `call` (daily's `system`), or is
 * named by its command name when the connection has no way to call it.
 */
function proseCallForm(command: Command, context: RenderContext): string | undefined {
  const { form, tools } = context.connection;
  const callOf = (portal: string) => `${portal} {op: "${CALL_OP}", cmd: "${command.name}"}`;
  if (form === "portal") {
    const place = placeOf(command);
    return place.op === undefined ? callOf(place.portal.name) : `${place.portal.name} {op: "${place.op}"}`;
  }
  if (tools === "all" || tools.includes(command.tool)) return undefined;
  const door = tools.find((tool) => findPortal(tool) !== undefined && findCommand(tool) === undefined);
  return door === undefined ? command.name : callOf(door);
}

/** Prose (a string, or a list of strings) rendered for the connection; anything else as it is. */
function renderProseValue(value: unknown, context: RenderContext): unknown {
  const form = (command: Command) => proseCallForm(command, context);
  if (typeof value === "string") return renderProse(value, form);
  if (!Array.isArray(value) || !value.some((item) => typeof item === "string")) return value;
  let changed = false;
  const out = value.map((item) => {
    if (typeof item !== "string") return item;
    const rendered = renderProse(item, form);
    if (rendered !== item) changed = true;
    return rendered;
  });
  return changed ? out : value;
}

/**
 * `value` with every suggestion in it rendered, and its prose (prose.ts) outside what writers stored;
 * unchanged parts keep their identity.
 */
function walk(value: unknown, context: RenderContext, prose = true, at?: string): unknown {
  if (value instanceof Suggestion) return renderSuggestion(value, context) ?? fallback(value, context);
  if (Array.isArray(value)) {
    let changed = false;
    const out: unknown[] = [];
    for (const item of value) {
      if (item instanceof Suggestion) {
        changed = true;
        const rendered = renderSuggestion(item, context);
        if (rendered !== undefined) out.push(rendered);
        continue;
      }
      const next = walk(item, context, prose, at);
      if (next !== item) changed = true;
      out.push(next);
    }
    return changed ? out : value;
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(record)) {
      const inner = prose && !holdsNoProse(key);
      let next = walk(item, context, inner, key);
      if (inner && isProseField(key, record, at)) next = renderProseValue(next, context);
      if (next !== item) {
        out ??= { ...record };
        out[key] = next;
      }
    }
    return out ?? value;
  }
  return value;
}

/** `value` with every suggestion in it rendered (a walk of the answer: microseconds next to a call). */
export function renderSuggestions<T>(value: T, context: RenderContext): T {
  return walk(value, context) as T;
}

export function renderError(error: AppError, context: RenderContext): AppError {
  const rendered = renderSuggestions(error, context);
  if (rendered.actions?.length !== 0) return rendered;
  const { actions: _none, ...rest } = rendered;
  return rest;
}
