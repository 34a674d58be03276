/**
 * The cards suite, size by size (`--card-sizes`, cards per doc): set up the focused task in a fresh
 * workspace `bench/k<size>`, import the layout (cards-layout.ts) through `workspace_import`, check the
 * store against the model (the chain's cutoffs and shadowing, the drafts, then one checked call of
 * every measured op), sample the ops in rotated rounds with every answer checked, and pair the samples
 * with the server's call lines for the Worker/object split.
 */
import { log } from "../lib/dev-server.ts";
import type { Json, McpClient } from "../lib/mcp-http.ts";
import { buildCardsLayout, type CardsLayout, CHAIN_DEPTH, chainName, PLACES } from "./cards-layout.ts";
import { CARDS_OPS, type CardsOpName, cardsOpSet, checkCards, measureCards, QUERY_LIMIT } from "./cards-measure.ts";
import { CardsModel } from "./cards-model.ts";
import { type CardsSeeding, type CardsWorld, importSteps, setupTask } from "./cards-seed.ts";
import { type CallLines, type ObjectTime, objectTimesOf } from "./object-time.ts";
import { fmtInt, type SuiteSize } from "./report.ts";
import { type CallOrder, summarize } from "./sampling.ts";

export interface CardsSuiteOptions {
  cardSizes: number[];
  warmup: number;
  samples: number;
}

export interface CardsSizeResult extends SuiteSize<CardsOpName> {
  workspace: string;
  step_tag: string;
  layout: CardsLayout["counts"];
  seeding: CardsSeeding;
  /** Each op's median minus the floor's, ms. */
  above_floor_ms: Record<CardsOpName, number>;
  object_time?: Record<CardsOpName, ObjectTime>;
}

const ids = (value: Json, field: string): string => JSON.stringify(((value[field] ?? []) as Json[]).map((item) => item.id));

/** Views no measured op reads: the deepest chain branch (cutoffs, and C1 closed on kchain/2) and every lane of `main`. */
async function verifyViews(client: McpClient, model: CardsModel, world: CardsWorld): Promise<void> {
  const { graphDoc } = PLACES.checkout;
  const deepest = chainName(CHAIN_DEPTH);
  const probes: { args: Json; field: string; want: string[] }[] = [];
  for (const type of ["hypothesis", "evidence", "decision"]) {
    probes.push({
      args: { branch: deepest, doc: graphDoc, types: [type], limit: QUERY_LIMIT },
      field: "nodes",
      want: model.newest(deepest, graphDoc, QUERY_LIMIT, (card) => card.type === type),
    });
    probes.push({
      args: { branch: "main", doc: graphDoc, types: [type], limit: QUERY_LIMIT, all_lanes: true },
      field: "nodes",
      want: model.newest("main", graphDoc, QUERY_LIMIT, (card) => card.type === type, true),
    });
  }
  for (const probe of probes) {
    const { value } = await client.callTool("graph_query", { workspace: world.workspace, ...probe.args });
    const got = ids(value, probe.field);
    if (got !== JSON.stringify(probe.want)) {
      throw new Error(`graph_query ${JSON.stringify(probe.args)}: expected ${JSON.stringify(probe.want)}, got ${got}`);
    }
  }
  const { value } = await client.callTool("think_frontier", { workspace: world.workspace, branch: deepest });
  const hypotheses = ids(value.frontier as Json, "hypotheses");
  const want = JSON.stringify(model.frontier(deepest, graphDoc, 5).hypothesis);
  if (hypotheses !== want)
    throw new Error(`think_frontier on ${deepest}: expected hypotheses ${want}, got ${hypotheses} (C1 is closed there)`);
}

export async function runCardsSuite(
  clientOf: (agent: string) => McpClient,
  client: McpClient,
  options: CardsSuiteOptions,
  lines?: CallLines,
): Promise<CardsSizeResult[]> {
  const set = cardsOpSet();
  const results: CardsSizeResult[] = [];
  for (const size of options.cardSizes) {
    const workspace = `bench/k${size}`;
    const setup = await setupTask(client, workspace);
    const { world } = setup;
    const layout = buildCardsLayout(size, world.stepTag);
    const model = new CardsModel(layout);
    const c = layout.counts;
    log(
      `seeding ${workspace}: ${fmtInt(size)} cards in each of 2 docs, ${fmtInt(c.chain_cards)} on ${CHAIN_DEPTH} chain branches ` +
        `(${fmtInt(c.drafts)} drafts of other agents), ${fmtInt(c.edges)} edges, ${c.notes} notes; step tag ${world.stepTag}`,
    );
    const imported = await importSteps(workspace, layout.steps, clientOf);
    const seeding: CardsSeeding = { setup_ms: setup.ms, setup_calls: setup.calls, ...imported };
    log(`  ${(seeding.ms / 1000).toFixed(1)} s in ${seeding.calls} calls (${fmtInt(Math.round(seeding.graph_ops_per_s))} graph ops/s)`);
    await verifyViews(client, model, world);
    await checkCards(client, model, world);
    log("  checked: the chain's cutoffs and shadowing, the drafts, and one answer of every op against the model");
    log(`measuring ${workspace}: ${options.warmup} warmup + ${options.samples} sample rounds of ${CARDS_OPS.length} ops`);
    await lines?.drain(client);
    const order: CallOrder<CardsOpName> = [];
    const times = await measureCards(client, model, world, options.warmup, options.samples, order);
    const objectTime = lines === undefined ? undefined : objectTimesOf(CARDS_OPS, order, await lines.drain(client), options.warmup);
    const ops = summarize(set, times);
    const floor = ops.ping.median_ms;
    const above = Object.fromEntries(CARDS_OPS.map((op) => [op, Math.round((ops[op].median_ms - floor) * 1000) / 1000]));
    results.push({
      size,
      workspace,
      step_tag: world.stepTag,
      layout: layout.counts,
      seeding,
      ops,
      above_floor_ms: above as Record<CardsOpName, number>,
      ...(objectTime === undefined ? {} : { object_time: objectTime }),
    });
  }
  return results;
}
