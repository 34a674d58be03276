/**
 * The common suite, size by size (the notes suite's `--sizes`): seed `bench/c<size>` (notes by the
 * bulk path, then the working set by ordinary calls), check one answer of every op, then sample them
 * all with every answer checked (see `common-measure.ts`).
 */
import { log } from "../lib/dev-server.ts";
import type { McpClient } from "../lib/mcp-http.ts";
import type { CommonOpName } from "./common-measure.ts";
import { COMMON_OPS, checkCommon, commonOpSet, measureCommon } from "./common-measure.ts";
import type { CommonSetup } from "./common-seed.ts";
import { seedCommon } from "./common-seed.ts";
import { type CallLines, type ObjectTime, objectTimesOf } from "./object-time.ts";
import { fmtInt, type SuiteSize } from "./report.ts";
import { type CallOrder, summarize } from "./sampling.ts";

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
}

export async function runCommonSuite(client: McpClient, options: CommonSuiteOptions, lines?: CallLines): Promise<CommonSizeResult[]> {
  const results: CommonSizeResult[] = [];
  for (const size of options.sizes) {
    const workspace = `bench/c${size}`;
    log(`seeding ${workspace}: ${fmtInt(size)} notes and the working set`);
    const setup = await seedCommon(client, workspace, size);
    log(
      `  ${(setup.seeding.ms / 1000).toFixed(1)} s for the notes, ${(setup.seeding.working_set_ms / 1000).toFixed(1)} s for the working set`,
    );
    await checkCommon(client, setup);
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
