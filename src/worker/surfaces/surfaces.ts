/**
 * Toolsets, chosen per connection with `?toolset=`: `portals` (the default: seed 002's portals, one
 * envelope each), `core` (4 tools for the smallest loop), `daily` (the golden path, plus the `system`
 * portal as the door to every other command) and `full` (every command under its seed 001 name;
 * `branchmind_*` names are accepted when called). Listing is narrowed by the surface; calling accepts
 * any portal and any known command name on every surface. What a surface lists is also what the
 * answers on it suggest (`connectionOf`: suggestions name only listed tools).
 */
import { COMMANDS } from "../../commands/catalog";
import type { Connection } from "../../commands/suggestions";
import { portalDefinitions } from "./portal-definitions";
import { TOOL_DEFINITIONS, type ToolDefinition } from "./tool-definitions";

export const SURFACE_NAMES = ["portals", "core", "daily", "full"] as const;
export type SurfaceName = (typeof SURFACE_NAMES)[number];
export const DEFAULT_SURFACE: SurfaceName = "portals";

const CORE = ["status", "notes_commit", "show", "macro_branch_note"];
const DAILY = [
  "init",
  "status",
  "help",
  "notes_commit",
  "show",
  "diff",
  "merge",
  "branch_create",
  "branch_list",
  "checkout",
  "macro_branch_note",
  "log",
];

function pick(names: string[]): ToolDefinition[] {
  return names.map((name) => {
    const definition = TOOL_DEFINITIONS.get(name);
    if (!definition) throw new Error(`surface names unknown tool ${name}`);
    return definition;
  });
}

/** The portal daily lists besides its flat tools: suggestions of other commands go through its `call` op. */
const DAILY_DOOR = "system";

function portalNamed(name: string): ToolDefinition {
  const definition = portalDefinitions().find((portal) => portal.name === name);
  if (!definition) throw new Error(`surface names unknown portal ${name}`);
  return definition;
}

let surfaceTools: Record<Exclude<SurfaceName, "portals">, ToolDefinition[]> | undefined;

/** Built on first use (the portal definitions are too). */
function surfaceToolsOf(surface: Exclude<SurfaceName, "portals">): ToolDefinition[] {
  surfaceTools ??= {
    core: pick(CORE),
    daily: [...pick(DAILY), portalNamed(DAILY_DOOR)],
    full: pick(COMMANDS.map((command) => command.tool)),
  };
  return surfaceTools[surface];
}

export function isSurfaceName(value: string): value is SurfaceName {
  return (SURFACE_NAMES as readonly string[]).includes(value);
}

export function toolsOf(surface: SurfaceName): ToolDefinition[] {
  return surface === "portals" ? portalDefinitions() : surfaceToolsOf(surface);
}

const connections = new Map<SurfaceName, Omit<Connection, "lock">>();

/** The neutral description of a connection that the workspace object renders suggestions for. */
export function connectionOf(surface: SurfaceName, lock: string | undefined): Connection {
  let base = connections.get(surface);
  if (!base) {
    const tools = surface === "full" ? "all" : surface === "portals" ? [] : toolsOf(surface).map((tool) => tool.name);
    base = { form: surface === "portals" ? "portal" : "flat", tools };
    connections.set(surface, base);
  }
  return { ...base, lock: lock ?? null };
}
