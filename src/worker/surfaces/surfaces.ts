/**
 * Toolsets, chosen per connection with `?toolset=`: `core` (4 tools for the smallest loop), `daily`
 * (the golden path) and `full` (every command under its seed 001 name; `branchmind_*` names are
 * accepted when called). Listing is narrowed by the surface; calling accepts any known command name,
 * so an agent following a hint never hits a wall. `full` is the default until the portal surface.
 */
import { COMMANDS } from "../../commands/catalog";
import { TOOL_DEFINITIONS, type ToolDefinition } from "./tool-definitions";

export const SURFACE_NAMES = ["core", "daily", "full"] as const;
export type SurfaceName = (typeof SURFACE_NAMES)[number];
export const DEFAULT_SURFACE: SurfaceName = "full";

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

const SURFACE_TOOLS: Record<SurfaceName, ToolDefinition[]> = {
  core: pick(CORE),
  daily: pick(DAILY),
  full: pick(COMMANDS.map((command) => command.tool)),
};

export function isSurfaceName(value: string): value is SurfaceName {
  return (SURFACE_NAMES as readonly string[]).includes(value);
}

export function toolsOf(surface: SurfaceName): ToolDefinition[] {
  return SURFACE_TOOLS[surface];
}
