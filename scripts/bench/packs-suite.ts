/**
 * The packs suite, size by size: build the layout, seed a fresh workspace `bench/p<size>` (bulk path
 * plus `think_card` for the newest cards), check `context_pack` and `think_context` against the
 * model, then sample the ops with every answer checked on the fly (see `packs-measure.ts`).
 */
import { log } from "../lib/dev-server.ts";
import type { McpClient } from "../lib/mcp-http.ts";
import { buildPacksLayout, PACK_LIMITS } from "./packs-layout.ts";
import { measurePacks, PACK_OPS, packsOpSet } from "./packs-measure.ts";
import type { PacksSizeResult } from "./packs-report.ts";
import { seedPacks, verifyPacks } from "./packs-seed.ts";
import { fmtInt } from "./report.ts";
import { summarize } from "./sampling.ts";

export interface PacksSuiteOptions {
  packSizes: number[];
  warmup: number;
  samples: number;
}

export async function runPacksSuite(client: McpClient, options: PacksSuiteOptions): Promise<PacksSizeResult[]> {
  const results: PacksSizeResult[] = [];
  for (const size of options.packSizes) {
    const workspace = `bench/p${size}`;
    const layout = buildPacksLayout(size);
    log(`seeding ${workspace}: ${fmtInt(size)} trace entries, ${fmtInt(layout.cards)} cards, ${fmtInt(layout.notes)} notes`);
    const seeding = await seedPacks(client, workspace, layout);
    log(`  ${(seeding.ms / 1000).toFixed(1)} s in ${seeding.calls} calls, ${fmtInt(seeding.seqs)} seqs`);
    const want = layout.model.expected(PACK_LIMITS);
    const check = await verifyPacks(client, workspace, want);
    log(
      `  checked: context_pack holds the expected ${want.notes.length} notes, ${want.trace.length} trace entries, ${want.cards.length} cards ` +
        `and 3 × ${PACK_LIMITS.signals} signals; default answer ${fmtInt(check.default.used_chars)} chars (untrimmed ${fmtInt(check.audit.used_chars)})`,
    );
    log(`measuring ${workspace}: ${options.warmup} warmup + ${options.samples} sample rounds of ${PACK_OPS.length} ops`);
    const times = await measurePacks(client, workspace, want, options.warmup, options.samples);
    results.push({ size, workspace, seeding, check, ops: summarize(packsOpSet(), times) });
  }
  return results;
}
