/**
 * Toolsets, chosen per connection with `?toolset=`: `portals` (the default: seed 002's portals, one
 * envelope each), `core` (4 tools for the smallest loop), `daily` (the golden path, plus the `system`
 * portal as the door to every other command) and `full` (every command under its seed 001 name;
 * `branchmind_*` names are accepted when called). Listing is narrowed by the surface; calling accepts
 * any portal and any known command name on every surface. What a surface lists is also what the
 * answers on it suggest (`connectionOf`: suggestions name only listed tools). Which commands `core`
 * and `daily` list is catalog/toolsets.ts's. The tool that opens the MCP App (`visualize`, docs/app.md)
 * is listed on `portals` (after the portals, in a compact form) and `full`, with the app's resource in
 * its `_meta`; `core` and `daily` keep their small loops without it.
 */
import { COMMANDS } from "../../catalog/catalog";
import type { Connection } from "../../catalog/suggestions";
import { CORE_TOOLS, DAILY_DOOR, DAILY_TOOLS } from "../../catalog/toolsets";
import { wellKnown } from "../../catalog/well-known";
import { APP_TOOL_META } from "../app-resource";
import { portalDefinitions } from "./portal-definitions";
import { TOOL_DEFINITIONS, type ToolDefinition } from "./tool-definitions";

export const SURFACE_NAMES = ["portals", "core", "daily", "full"] as const;
export type SurfaceName = (typeof SURFACE_NAMES)[number];
export const DEFAULT_SURFACE: SurfaceName = "portals";

/** The flat tool a host renders the app for. */
function appTool(): string {
  return wellKnown("visualize").tool;
}

/** A flat tool's definition; the app's opener with the app's resource in its `_meta`. */
function flatDefinition(name: string): ToolDefinition {
  const definition = TOOL_DEFINITIONS.get(name);
  if (!definition) throw new Error(`surface names unknown tool ${name}`);
  return name === appTool() ? { ...definition, _meta: APP_TOOL_META } : definition;
}

function pick(names: readonly string[]): ToolDefinition[] {
  return names.map(flatDefinition);
}

/**
 * The app's opener as the default listing shows it: every session pays for that listing, so it keeps
 * the command's description, `what` and the two arguments a person's question names (the workspace,
 * the plan or task as an id), and the one hint whose default would be wrong. The full definition (every
 * argument, the answer's schema) is on `full`; a call accepts everything either lists.
 */
function compactAppDefinition(): ToolDefinition {
  const full = flatDefinition(appTool());
  const properties = (full.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  // `what` without its description and default (the description's first words say what it shows).
  const { description: _what, default: _tasks, ...what } = properties.what ?? {};
  return {
    name: full.name,
    description: full.description,
    inputSchema: { type: "object", properties: { what, workspace: { type: "string" }, target: { type: "string" } } },
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: APP_TOOL_META,
  };
}

let portalSurface: ToolDefinition[] | undefined;

/** The portals, then the app's opener. */
function portalSurfaceTools(): ToolDefinition[] {
  portalSurface ??= [...portalDefinitions(), compactAppDefinition()];
  return portalSurface;
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
  return surface === "portals" ? portalSurfaceTools() : surfaceToolsOf(surface);
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
