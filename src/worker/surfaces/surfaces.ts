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

type FlatSurface = Exclude<SurfaceName, "portals">;

/** The commands a flat surface lists, by tool name, in listing order (`daily` adds its door portal after them). */
function commandToolsOf(surface: FlatSurface): readonly string[] {
  if (surface === "core") return CORE_TOOLS;
  if (surface === "daily") return DAILY_TOOLS;
  return COMMANDS.map((command) => command.tool);
}

/** Every tool name a flat surface lists: known without building a definition. */
function toolNamesOf(surface: FlatSurface): string[] {
  return [...commandToolsOf(surface), ...(surface === "daily" ? [DAILY_DOOR] : [])];
}

const surfaceTools = new Map<FlatSurface, ToolDefinition[]>();

/**
 * Built on the surface's first listing and kept: a connection pays only for its own toolset's
 * definitions, and an isolate that lists nothing builds none (docs/benchmarks.md, "Startup").
 */
function surfaceToolsOf(surface: FlatSurface): ToolDefinition[] {
  let tools = surfaceTools.get(surface);
  if (!tools) {
    tools = [...pick(commandToolsOf(surface)), ...(surface === "daily" ? [portalNamed(DAILY_DOOR)] : [])];
    surfaceTools.set(surface, tools);
  }
  return tools;
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
    const tools = surface === "full" ? "all" : surface === "portals" ? [] : toolNamesOf(surface);
    base = { form: surface === "portals" ? "portal" : "flat", tools };
    connections.set(surface, base);
  }
  return { ...base, lock: lock ?? null };
}
