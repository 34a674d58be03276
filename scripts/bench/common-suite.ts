/**
 * The common suite, size by size (the notes suite's `--sizes`): seed `bench/c<size>` (notes by the
 * bulk path, then the working set by ordinary calls), check one answer of every op, then sample them
 * all with every answer checked (see `common-measure.ts`). With an earlier revision's server
 * (`--compare-root`), the same workspace is seeded there too and both are sampled in the same rounds
 * (`common-compare.ts`); this checkout's results stay what they are without it.
 */
import { log } from "../lib/dev-server.ts";
import type { McpClient } from "../lib/mcp-http.ts";
import { type CommonBefore, type CommonComparison, measureCompared } from "./common-compare.ts";
import type { CommonOpName } from "./common-measure.ts";
import { COMMON_OPS, checkCommon, commonOpSet, measureCommon } from "./common-measure.ts";
import type { CommonSetup } from "./common-seed.ts";
import { seedCommon } from "./common-seed.ts";
import { type CallLines, type ObjectTime, objectTimesOf } from "./object-time.ts";
import { fmtInt, type SuiteSize } from "./report.ts";
import { type CallOrder, summarize } from "./sampling.ts";

export type { CommonBefore } from "./common-compare.ts";

export interface CommonSuiteOptions {
  sizes: number[];
  warmup: number;
  samples: number;
}

export interface CommonSizeResult extends SuiteSize<CommonOpName> {
  workspace: string;
  seeding: CommonSetup["seeding"];
  /** Each op's Worker and object time per call, from the server's log (when its lines are read). */
  object_time?: Record<CommonOpName, ObjectTime>;
  /** With `--compare-root`: the earlier revision's ratios beside this one's. */
  compare?: CommonComparison;
}

async function seedLogged(client: McpClient, workspace: string, size: number, where: string): Promise<CommonSetup> {
  log(`seeding ${workspace}${where}: ${fmtInt(size)} notes and the working set`);
  const setup = await seedCommon(client, workspace, size);
  log(
    `  ${(setup.seeding.ms / 1000).toFixed(1)} s for the notes, ${(setup.seeding.working_set_ms / 1000).toFixed(1)} s for the working set`,
  );
  return setup;
}

export async function runCommonSuite(
  client: McpClient,
  options: CommonSuiteOptions,
  lines?: CallLines,
  before?: CommonBefore,
): Promise<CommonSizeResult[]> {
  const results: CommonSizeResult[] = [];
  for (const size of options.sizes) {
    const workspace = `bench/c${size}`;
    const setup = await seedLogged(client, workspace, size, "");
    await checkCommon(client, setup);
    if (before !== undefined) {
      const earlier = { client: before.client, setup: await seedLogged(before.client, workspace, size, ` on ${before.label}`) };
      const measured = await measureCompared({ client, setup, lines }, { ...earlier, lines: before.lines }, before, options);
      results.push({ size, workspace, seeding: setup.seeding, ...measured });
      continue;
    }
    log(`measuring ${workspace}: ${options.warmup} warmup + ${options.samples} sample rounds of ${COMMON_OPS.length} ops`);
    await lines?.drain(client);
    const order: CallOrder<CommonOpName> = [];
    const times = await measureCommon(client, setup, options.warmup, options.samples, order);
    const objectTime = lines === undefined ? undefined : objectTimesOf(COMMON_OPS, order, await lines.drain(client), options.warmup);
    results.push({
      size,
      workspace,
      seeding: setup.seeding,
      ops: summarize(commonOpSet(), times),
      ...(objectTime === undefined ? {} : { object_time: objectTime }),
    });
  }
  return results;
}
