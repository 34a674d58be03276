/**
 * What the packs suite measures, all on `main` of a seeded packs workspace: `ping` (the floor, same
 * workspace), `context_pack` with its defaults, `context_pack` with `max_chars` 2000, and
 * `think_context` (30 cards). All are reads, so the store does not change while measuring and every
 * answer is checked on the fly against the model: the default pack and `think_context` exactly (ids
 * and seqs, within the default profile), the small pack within its 2,000 characters with the
 * decisions signal still there.
 */
import type { Call, McpClient } from "../lib/mcp-http.ts";
import { type ExpectedPack, THINK_CONTEXT_CARDS } from "./packs-layout.ts";
import { checkPack, checkThinkContext, DEFAULT_PROFILE_CHARS, SMALL_BUDGET_CHARS } from "./packs-seed.ts";
import { type OpSet, sampleRounds } from "./sampling.ts";

export const PACK_OPS = ["ping", "context_pack", "context_pack_small", "think_context"] as const;
export type PackOpName = (typeof PACK_OPS)[number];

export function packsOpSet(): OpSet<PackOpName> {
  return {
    ops: PACK_OPS,
    floor: "ping",
    reference: [],
    labels: {
      ping: "ping (floor)",
      context_pack: "context_pack",
      context_pack_small: `context_pack max_chars=${SMALL_BUDGET_CHARS}`,
      think_context: `think_context ${THINK_CONTEXT_CARDS} cards`,
    },
  };
}

/** Samples the pack ops; every answer is checked (see the module comment). */
export function measurePacks(
  client: McpClient,
  workspace: string,
  want: ExpectedPack,
  warmup: number,
  samples: number,
): Promise<Record<PackOpName, number[]>> {
  const call = async (op: PackOpName): Promise<Call> => {
    switch (op) {
      case "ping":
        return client.callTool("ping", { workspace });
      case "context_pack": {
        const result = await client.callTool("context_pack", { workspace });
        checkPack(`context_pack on ${workspace}`, result.value, want, DEFAULT_PROFILE_CHARS, true);
        return result;
      }
      case "context_pack_small": {
        const result = await client.callTool("context_pack", { workspace, max_chars: SMALL_BUDGET_CHARS });
        const shape = checkPack(
          `context_pack max_chars ${SMALL_BUDGET_CHARS} on ${workspace}`,
          result.value,
          want,
          SMALL_BUDGET_CHARS,
          false,
        );
        if (shape.lists.decisions.items === 0) {
          throw new Error(`context_pack max_chars ${SMALL_BUDGET_CHARS} on ${workspace}: the decisions signal did not survive`);
        }
        return result;
      }
      case "think_context": {
        const result = await client.callTool("think_context", { workspace, limit_cards: THINK_CONTEXT_CARDS });
        checkThinkContext(`think_context on ${workspace}`, result.value, want);
        return result;
      }
    }
  };
  return sampleRounds(PACK_OPS, call, warmup, samples);
}
