/**
 * The v1 portals (seed 002): a dozen tools that front the whole command catalog. Each portal owns one or
 * more command domains (the first segment of a dotted name), names a few golden ops (short names for its
 * everyday commands) and accepts `op: "call"` with any command (a read-only portal: any read). The table
 * itself is pure data (commands/portal-table.ts, re-exported here with what is derived from it and the
 * catalog), so the MCP surface, `system ops.summary`, `schema.get` examples and the docs all read the
 * same table.
 * A portal whose domains have no command yet (jobs, records) is not listed until they do.
 */

import { type Place, PORTAL_TABLE, type Portal, stripNamePrefix } from "../commands/portal-table";
import type { Command } from "../commands/registry";
import { COMMANDS, findCommand } from "./catalog";

export { CALL_OP, type Place, PORTAL_PROFILE, type Portal, stripNamePrefix } from "../commands/portal-table";

export function domainOf(command: Command): string {
  return command.name.split(".")[0] ?? command.name;
}

let listed: readonly Portal[] | undefined;

/**
 * Portals with something to do: a golden op, or a command in one of their domains. Computed and
 * checked (every op names a command; a read-only portal fronts no write) on first use, once.
 */
export function portals(): readonly Portal[] {
  if (listed) return listed;
  const domains = new Set(COMMANDS.map(domainOf));
  const active = PORTAL_TABLE.filter(
    (portal) => Object.keys(portal.ops).length > 0 || portal.domains.some((domain) => domains.has(domain)),
  );
  for (const portal of active) {
    for (const [op, cmd] of Object.entries(portal.ops)) {
      const command = findCommand(cmd);
      if (!command) throw new Error(`portal ${portal.name} op ${op} names unknown command ${cmd}`);
      if (portal.readOnly && command.kind !== "read") throw new Error(`read-only portal ${portal.name} op ${op} runs the write ${cmd}`);
    }
    const writes = portal.readOnly
      ? COMMANDS.filter((command) => command.kind !== "read" && portal.domains.includes(domainOf(command)))
      : [];
    if (writes.length > 0)
      throw new Error(`read-only portal ${portal.name} fronts writes: ${writes.map((command) => command.name).join(", ")}`);
  }
  listed = active;
  return listed;
}

/** Every portal of seed 002, listed or not (`ops.summary` reports the unplugged ones). */
export function allPortals(): readonly Portal[] {
  return PORTAL_TABLE;
}

export function findPortal(name: string): Portal | undefined {
  const bare = stripNamePrefix(name);
  return portals().find((portal) => portal.name === bare);
}

let places: Map<string, Place> | undefined;

/** The portal that fronts a domain (`system` for a domain no portal names). */
function portalOfDomain(domain: string): Portal {
  return portals().find((portal) => portal.domains.includes(domain)) ?? (findPortal("system") as Portal);
}

/**
 * Where each command is called: the listed portal whose golden op runs it (`system.status` → the
 * `status` portal), else the portal of its domain with `op: "call"`. One answer for schema.get,
 * cmd.list, ops.summary and the generated reference.
 */
export function placeOf(command: Command): Place {
  if (!places) {
    const built = new Map<string, Place>();
    for (const portal of portals()) {
      for (const [op, cmd] of Object.entries(portal.ops)) if (!built.has(cmd)) built.set(cmd, { portal, op });
    }
    for (const candidate of COMMANDS)
      if (!built.has(candidate.name)) built.set(candidate.name, { portal: portalOfDomain(domainOf(candidate)) });
    places = built;
  }
  return places.get(command.name) ?? { portal: portalOfDomain(domainOf(command)) };
}
