/**
 * Lanes of graph nodes (DESIGN §6): a node's lane lives in `meta.lane` — `shared` (or no lane) or
 * `agent/<id>`, a draft of that agent. Only the owner writes a node in an agent lane, or the edges
 * leaving it; every writer of the graph (graph_apply, the think tools) goes through these checks.
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { agentLane, SHARED_LANE } from "../../shared/lanes";
import type { VersionRow } from "./graph.store";

export { agentLane, SHARED_LANE } from "../../shared/lanes";

export function laneOfMeta(meta: Record<string, unknown> | null | undefined): string {
  return typeof meta?.lane === "string" ? meta.lane : SHARED_LANE;
}

export function laneOf(row: VersionRow): string {
  return laneOfMeta(row.meta_json === null ? null : (JSON.parse(row.meta_json) as Record<string, unknown>));
}

export function mayWriteLane(ctx: CommandContext, lane: string): boolean {
  return lane === SHARED_LANE || lane === agentLane(ctx.principal.agent_id);
}

/** The lanes a read shows: the shared lane and the caller's own, or every lane (`null`) for audit reads. */
export function visibleLanes(ctx: CommandContext, allLanes: boolean): string[] | null {
  return allLanes ? null : [SHARED_LANE, agentLane(ctx.principal.agent_id)];
}

/** Refuses writes to a node in another agent's lane (and to the edges leaving it). */
export function requireWritableLane(ctx: CommandContext, row: VersionRow): void {
  const lane = laneOf(row);
  if (!mayWriteLane(ctx, lane)) {
    fail(
      "FORBIDDEN",
      `${row.key} is in ${lane}: only its author writes it or the edges leaving it.`,
      "Write your own card (it may support or block this one), or ask its author to publish it.",
      {
        id: row.key,
        lane,
      },
    );
  }
}
