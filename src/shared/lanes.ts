/**
 * Lane names (DESIGN §6), below every capability: `shared`, or `agent/<id>` for an agent's drafts. The
 * graph keeps a card's lane in `meta.lane` and so does the trace entry its write leaves, so both graph
 * reads and document reads filter by these names; graph/lanes.ts holds the rules of who writes where.
 */
export const SHARED_LANE = "shared";

export function agentLane(agentId: string): string {
  return `agent/${agentId}`;
}
