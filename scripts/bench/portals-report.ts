/**
 * The portals suite's report: the seeded workspace, what the checked answers held (payload, capsule,
 * budget; the two `tools/list` bodies), the per-op latency table (median, p95, ratio to the flat
 * `ping`), the pair table (portal median / flat median, and the difference in ms), its verdict line
 * (the suite's target: portal/flat ≤ TARGET_MAX_PORTAL_TO_FLAT for every pair; reported, not asserted)
 * and its section of the JSON file (`portals`).
 */
import type { Json } from "../lib/mcp-http.ts";
import { PAIRS, type PortalOpName, type PortalsWorld, SHOW_LIMIT, TARGET_MAX_PORTAL_TO_FLAT, WRITE_DOC } from "./portals-measure.ts";
import { type AnswerSize, type PortalsSeeding, SEEDED_MAIN_NOTES, SEEDED_TASK_NOTES } from "./portals-seed.ts";
import { fmtInt, fmtMs, pad, padEnd } from "./report.ts";
import type { OpResult, OpSet } from "./sampling.ts";
import { statsOf } from "./stats.ts";

export interface PortalsResult {
  workspace: string;
  world: PortalsWorld;
  seeding: PortalsSeeding;
  answers: Record<PortalOpName, AnswerSize>;
  ops: Record<PortalOpName, OpResult>;
}

export interface PairResult {
  pair: string;
  flat: string;
  portal: string;
  flat_median_ms: number;
  portal_median_ms: number;
  flat_p95_ms: number;
  portal_p95_ms: number;
  /** Portal median / flat median: the suite's target. */
  portal_to_flat: number;
  /** Portal median minus flat median. */
  delta_ms: number;
  /**
   * Median over rounds of (portal sample - flat sample) of the same round (back to back in 11 rounds of 12),
   * so this difference is less sensitive than `delta_ms` to the machine drifting during the run.
   */
  paired_delta_ms: number;
  met: boolean;
}

export function pairResults(set: OpSet<PortalOpName>, result: PortalsResult): PairResult[] {
  return PAIRS.map((pair) => {
    const flat = result.ops[pair.flat];
    const portal = result.ops[pair.portal];
    const ratio = portal.median_ms / flat.median_ms;
    const paired = portal.samples_ms.map((ms, i) => ms - (flat.samples_ms[i] ?? Number.NaN));
    return {
      pair: pair.name,
      flat: set.labels[pair.flat],
      portal: set.labels[pair.portal],
      flat_median_ms: flat.median_ms,
      portal_median_ms: portal.median_ms,
      flat_p95_ms: flat.p95_ms,
      portal_p95_ms: portal.p95_ms,
      portal_to_flat: ratio,
      delta_ms: portal.median_ms - flat.median_ms,
      paired_delta_ms: statsOf(paired).median_ms,
      met: ratio <= TARGET_MAX_PORTAL_TO_FLAT,
    };
  });
}

const width = (set: OpSet<PortalOpName>): number => Math.max(16, ...set.ops.map((op) => set.labels[op].length + 2));
const orDash = (value: number | null | undefined): string => (value === null || value === undefined ? "—" : fmtInt(value));

export function portalsLines(set: OpSet<PortalOpName>, result: PortalsResult, pairs: PairResult[]): string[] {
  const w = width(set);
  const { world, seeding, answers } = result;
  const out = [
    "",
    "== Portals suite ==",
    "",
    `Workspace ${result.workspace}, seeded in ${(seeding.ms / 1000).toFixed(1)} s by ${seeding.calls} flat calls: ${world.plan}, ${world.task} ` +
      `with ${seeding.steps} steps (focus of agent ${world.agent}, step focus ${world.step.path}), ${seeding.main_notes} notes on main, ` +
      `${seeding.task_notes} on the task; measured writes go to main/${WRITE_DOC}`,
    "",
    "Checked answers before measuring: characters of structuredContent (compact JSON), of the capsule in it, budget used / max",
    `${padEnd("op", w)}${pad("chars", 9)}${pad("capsule", 9)}${pad("used", 9)}${pad("max", 9)}`,
  ];
  for (const op of set.ops) {
    const a = answers[op];
    out.push(
      `${padEnd(set.labels[op], w)}${pad(fmtInt(a.chars), 9)}${pad(fmtInt(a.capsule_chars), 9)}` +
        `${pad(orDash(a.budget_used_chars), 9)}${pad(orDash(a.budget_max_chars), 9)}`,
    );
  }
  const full = answers.list_full;
  const portals = answers.list_portals;
  out.push(
    `tools/list bodies: full ${orDash(full.tools)} tools, ${orDash(full.body_chars)} chars (${orDash(full.body_bytes)} bytes); ` +
      `portals ${orDash(portals.tools)} tools, ${orDash(portals.body_chars)} chars (${orDash(portals.body_bytes)} bytes)`,
    "",
    "Latency in ms; ratio = median / flat ping median (informative here: the suite's target is portal/flat)",
    `${padEnd("op", w)}${pad("median", 9)}${pad("p95", 9)}${pad("ratio", 8)}`,
  );
  for (const op of set.ops) {
    const r = result.ops[op];
    out.push(`${padEnd(set.labels[op], w)}${pad(fmtMs(r.median_ms), 9)}${pad(fmtMs(r.p95_ms), 9)}${pad(r.ratio_to_floor.toFixed(2), 8)}`);
  }
  out.push(
    "",
    `Portal vs flat: portal/flat = portal median / flat median (target ≤ ${TARGET_MAX_PORTAL_TO_FLAT}); +ms = portal median - flat median;`,
    "paired +ms = median over rounds of (portal - flat) in the same round (back to back but when the rotation splits them)",
    `${padEnd("pair", 16)}${pad("flat", 9)}${pad("portal", 9)}${pad("portal/flat", 13)}${pad("+ms", 8)}${pad("paired +ms", 12)}  target`,
  );
  for (const p of pairs) {
    out.push(
      `${padEnd(p.pair, 16)}${pad(fmtMs(p.flat_median_ms), 9)}${pad(fmtMs(p.portal_median_ms), 9)}${pad(p.portal_to_flat.toFixed(2), 13)}` +
        `${pad(p.delta_ms.toFixed(2), 8)}${pad(p.paired_delta_ms.toFixed(2), 12)}  ${p.met ? "met" : "MISSED"}`,
    );
  }
  return out;
}

export function portalsTargetLines(pairs: PairResult[]): string[] {
  const misses = pairs.filter((p) => !p.met).map((p) => `${p.pair} ${p.portal_to_flat.toFixed(2)}`);
  return [`Portals: target portal/flat ≤ ${TARGET_MAX_PORTAL_TO_FLAT}: ${misses.length === 0 ? "met" : `MISSED (${misses.join("; ")})`}`];
}

export function portalsJson(set: OpSet<PortalOpName>, result: PortalsResult, pairs: PairResult[]): Json {
  const misses = pairs.filter((p) => !p.met).map((p) => p.pair);
  return {
    config: {
      workspace: result.workspace,
      ops: set.labels,
      pairs: Object.fromEntries(PAIRS.map((pair) => [pair.name, { flat: pair.flat, portal: pair.portal }])),
      endpoints: { flat: "/mcp?toolset=full", portal: "/mcp?toolset=portals" },
      show_limit: SHOW_LIMIT,
      write_doc: `main/${WRITE_DOC}`,
      layout: {
        plan: result.world.plan,
        task: `${result.world.task}, ${result.seeding.steps} steps, the agent's focus (step focus ${result.world.step.path})`,
        main_notes: `${SEEDED_MAIN_NOTES}, doc notes, 70-110 characters`,
        task_notes: `${SEEDED_TASK_NOTES}, the task's notes doc`,
      },
      target_max_portal_to_flat: TARGET_MAX_PORTAL_TO_FLAT,
    },
    seeding: result.seeding,
    answers: result.answers,
    results: result.ops,
    pairs,
    targets_met: { portal_to_flat: misses.length === 0, portal_to_flat_misses: misses },
  };
}
