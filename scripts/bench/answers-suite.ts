/**
 * The answers suite: what an agent pays to read where it is. It seeds the same modest task
 * (`answers-seed.ts`) on this checkout's server and, with `--compare-root`, on a server of an earlier
 * revision; checks that both answers under the audit profile name the same ids (a leaner answer must
 * not lose an item); then measures the answers' sizes and samples both sides' latency in the same rounds.
 */
import { log } from "../lib/dev-server.ts";
import type { McpClient } from "../lib/mcp-http.ts";
import type { AnswersOp } from "./answers-measure.ts";
import { type AnswerMeasure, answersOpSet, measureAnswers, READS, type ReadName, type Side, sampleAnswers } from "./answers-measure.ts";
import { seedAnswers } from "./answers-seed.ts";
import type { OpResult } from "./sampling.ts";
import { summarize } from "./sampling.ts";

export const ANSWERS_WORKSPACE = "bench/answers";

export interface AnswersResult {
  workspace: string;
  sides: Side["label"][];
  answers: Partial<Record<Side["label"], Record<ReadName, AnswerMeasure>>>;
  ops: Record<AnswersOp, OpResult>;
}

export async function runAnswersSuite(
  clients: { now: McpClient; before?: McpClient | undefined },
  options: { warmup: number; samples: number },
): Promise<AnswersResult> {
  const sides: Side[] = [];
  for (const [label, client] of [
    ["now", clients.now],
    ["before", clients.before],
  ] as const) {
    if (client === undefined) continue;
    log(`seeding ${ANSWERS_WORKSPACE} on ${label}: a modest task`);
    sides.push({ label, client, world: await seedAnswers(client, ANSWERS_WORKSPACE) });
  }
  const answers: AnswersResult["answers"] = {};
  for (const side of sides) answers[side.label] = await measureAnswers(side);
  const now = answers.now;
  const before = answers.before;
  if (now !== undefined && before !== undefined) {
    for (const read of READS) {
      const lost = before[read].audit_ids.filter((id) => !now[read].audit_ids.includes(id));
      if (lost.length > 0) throw new Error(`answers: ${read} under audit no longer names ${lost.slice(0, 5).join(", ")}`);
    }
    log("  checked: under the audit profile every read names every id the earlier revision named");
  }
  const set = answersOpSet(sides);
  log(`measuring ${ANSWERS_WORKSPACE}: ${options.warmup} warmup + ${options.samples} sample rounds of ${set.ops.length} ops`);
  const times = await sampleAnswers(sides, options.warmup, options.samples);
  return { workspace: ANSWERS_WORKSPACE, sides: sides.map((side) => side.label), answers, ops: summarize(set, times) };
}
