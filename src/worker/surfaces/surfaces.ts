/**
 * Toolsets, chosen per connection with `?toolset=`: `portals` (the default: seed 002's portals, one
 * envelope each), `core` (4 tools for the smallest loop), `daily` (the golden path, plus the `system`
 * portal as the door to every other command) and `full` (every command under its seed 001 name;
 * `branchmind_*` names are accepted when called). Listing is narrowed by the surface; calling accepts
 * any portal and any known command name on every surface. What a surface lists is also what the
 * answers on it suggest (`connectionOf`: suggestions name only listed tools). Which commands `core`
 * and `daily` list is catalog/toolsets.ts's.
 */
import { COMMANDS } from "../../catalog/catalog";
import type { Connection } from "../../catalog/suggestions";
import { CORE_TOOLS, DAILY_DOOR, DAILY_TOOLS } from "../../catalog/toolsets";
import { portalDefinitions } from "./portal-definitions";
import { TOOL_DEFINITIONS, type ToolDefinition } from "./tool-definitions";

export const SURFACE_NAMES = ["portals", "core", "daily", "full"] as const;
export type SurfaceName = (typeof SURFACE_NAMES)[number];
export const DEFAULT_SURFACE: SurfaceName = "portals";

function pick(names: readonly string[]): ToolDefinition[] {
  return names.map((name) => {
    const definition = TOOL_DEFINITIONS.get(name);
    if (!definition) throw new Error(`surface names unknown tool ${name}`);
    return definition;
  });
}

function portalNamed(name: string): ToolDefinition {
  const definition = portalDefinitions().find((portal) => portal.name === name);
  if (!definition) throw new Error(`surface names unknown portal ${name}`);
  return definition;
}

let surfaceTools: Record<Exclude<SurfaceName, "portals">, ToolDefinition[]> | undefined;

/** Built on first use (the portal definitions are too). */
function surfaceToolsOf(surface: Exclude<SurfaceName, "portals">): ToolDefinition[] {
  surfaceTools ??= {
    core: pick(CORE_TOOLS),
    daily: [...pick(DAILY_TOOLS), portalNamed(DAILY_DOOR)],
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
