/**
 * Toolsets, chosen per connection with `?toolset=`: `portals` (the default: seed 002's portals, one
 * envelope each), `core` (4 tools for the smallest loop), `daily` (the golden path) and `full` (every
 * command under its seed 001 name; `branchmind_*` names are accepted when called). Listing is narrowed
 * by the surface; calling accepts any portal and any known command name on every surface, so an agent
 * following a hint never hits a wall.
 */
import { COMMANDS } from "../../commands/catalog";
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

const SURFACE_TOOLS: Record<Exclude<SurfaceName, "portals">, ToolDefinition[]> = {
  core: pick(CORE),
  daily: pick(DAILY),
  full: pick(COMMANDS.map((command) => command.tool)),
};

export function isSurfaceName(value: string): value is SurfaceName {
  return (SURFACE_NAMES as readonly string[]).includes(value);
}

export function toolsOf(surface: SurfaceName): ToolDefinition[] {
  return surface === "portals" ? portalDefinitions() : SURFACE_TOOLS[surface];
}
