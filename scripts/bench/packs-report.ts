/**
 * The packs suite's report: its seeding table, what the checked answers held (budget used, items and
 * bodies per list, for the default, audit and 2,000-character packs and `think_context`), the shared
 * latency and growth tables, its verdict lines (the shared ratio and growth targets, plus the budget
 * targets of the issue), and its section of the JSON file (`packs`).
 */
import type { Json } from "../lib/mcp-http.ts";
import {
  CARD_EVERY,
  EXAMINED_PER_SOURCE,
  PACK_LIMITS,
  PACK_NOTES,
  THINK_CARD_WRITES,
  THINK_CONTEXT_CARDS,
  UPDATE_MIN_AGE,
  UPDATE_SPAN,
} from "./packs-layout.ts";
import type { PackOpName } from "./packs-measure.ts";
import {
  type AnswerShape,
  DEFAULT_PROFILE_CHARS,
  LIST_NAMES,
  type PackCheck,
  type PacksSeeding,
  SMALL_BUDGET_CHARS,
} from "./packs-seed.ts";
import { fmtInt, type Growth, growthLines, latencyLines, type Misses, pad, padEnd, type SuiteSize, targetsMetJson } from "./report.ts";
import type { OpSet } from "./sampling.ts";

export interface PacksSizeResult extends SuiteSize<PackOpName> {
  workspace: string;
  seeding: PacksSeeding;
  /** What the checks before measuring found. */
  check: PackCheck;
}

/** The issue's budget targets, per size: the default answer within its profile, the essentials at 2,000 characters. */
export interface BudgetVerdicts {
  default_within_profile: boolean;
  essentials_survive: boolean;
}

export function budgetVerdicts(results: PacksSizeResult[]): BudgetVerdicts {
  return {
    default_within_profile: results.every((r) => r.check.default.used_chars <= DEFAULT_PROFILE_CHARS),
    essentials_survive: results.every((r) => r.check.small.used_chars <= SMALL_BUDGET_CHARS && r.check.small.lists.decisions.items > 0),
  };
}

const answerRow = (label: string, shape: AnswerShape): string =>
  `${padEnd(label, 26)}${pad(fmtInt(shape.used_chars), 9)}${pad(fmtInt(shape.max_chars), 9)}${pad(shape.truncated ? "yes" : "no", 8)}` +
  LIST_NAMES.map((name) => pad(`${shape.lists[name].items} (${shape.lists[name].bodies})`, 11)).join("");

export function packsLines(results: PacksSizeResult[], growth: Growth<PackOpName> | undefined, set: OpSet<PackOpName>): string[] {
  const out = [
    "",
    "== Packs suite ==",
    "",
    "Seeding (workspace_import with note and graph items, ≤ 2000 items per call; the newest cards by think_card)",
  ];
  out.push(
    `${padEnd("trace", 10)}${pad("cards", 8)}${pad("card vers", 11)}${pad("notes", 7)}${pad("seqs", 10)}${pad("calls", 7)}` +
      `${pad("time s", 9)}${pad("seqs/s", 9)}${pad("max call s", 12)}`,
  );
  for (const result of results) {
    const s = result.seeding;
    out.push(
      `${padEnd(fmtInt(s.trace_entries), 10)}${pad(fmtInt(s.cards), 8)}${pad(fmtInt(s.card_versions), 11)}${pad(fmtInt(s.notes), 7)}` +
        `${pad(fmtInt(s.seqs), 10)}${pad(String(s.calls), 7)}${pad((s.ms / 1000).toFixed(1), 9)}${pad(fmtInt(Math.round(s.seqs_per_s)), 9)}` +
        `${pad((s.max_call_ms / 1000).toFixed(2), 12)}`,
    );
  }
  out.push(
    "",
    "Checked answers before measuring: budget used / max chars, trimmed, and items (with bodies) per list",
    `${padEnd("size / answer", 26)}${pad("used", 9)}${pad("max", 9)}${pad("trimmed", 8)}${LIST_NAMES.map((name) => pad(name, 11)).join("")}`,
  );
  for (const result of results) {
    const c = result.check;
    out.push(fmtInt(result.size));
    out.push(answerRow("  context_pack, audit", c.audit));
    out.push(answerRow("  context_pack (default)", c.default));
    out.push(answerRow(`  context_pack max ${SMALL_BUDGET_CHARS}`, c.small));
    out.push(answerRow(`  think_context ${THINK_CONTEXT_CARDS}`, c.think_context));
    for (const [label, shape] of [
      ["default", c.default],
      [`max_chars ${SMALL_BUDGET_CHARS}`, c.small],
    ] as const) {
      if (shape.lost_newest.length > 0) {
        out.push(`  (${label}: the budget dropped the newest items of ${shape.lost_newest.join(", ")} and kept older ones)`);
      }
    }
  }
  out.push("", ...latencyLines(set, results), "", ...growthLines(set, results, growth, "trace entries", [10_000, 100_000]));
  return out;
}

/** The issue's budget targets as verdict lines (after the shared ratio and growth lines). */
export function budgetLines(results: PacksSizeResult[]): string[] {
  const verdicts = budgetVerdicts(results);
  const sizes = (describe: (r: PacksSizeResult) => string): string => results.map((r) => `${fmtInt(r.size)}: ${describe(r)}`).join("; ");
  return [
    `Packs: default output within the default profile (≤ ${fmtInt(DEFAULT_PROFILE_CHARS)} chars): ${verdicts.default_within_profile ? "met" : "MISSED"} (` +
      sizes(
        (r) =>
          `${fmtInt(r.check.default.used_chars)} chars${r.check.default.truncated ? `, trimmed from ${fmtInt(r.check.audit.used_chars)}` : ", untrimmed"}`,
      ) +
      ")",
    `Packs: essentials at max_chars=${SMALL_BUDGET_CHARS} (decisions signal kept): ${verdicts.essentials_survive ? "met" : "MISSED"} (` +
      sizes((r) =>
        LIST_NAMES.filter((name) => r.check.small.lists[name].items > 0)
          .map((name) => `${name} ${r.check.small.lists[name].items}`)
          .join(", "),
      ) +
      ")",
  ];
}

export function packsJson(
  options: { packSizes: number[] },
  set: OpSet<PackOpName>,
  results: PacksSizeResult[],
  growth: Growth<PackOpName> | undefined,
  misses: Misses,
): Json {
  const verdicts = budgetVerdicts(results);
  return {
    config: {
      sizes: options.packSizes,
      ops: set.labels,
      pack_limits: PACK_LIMITS,
      think_context_cards: THINK_CONTEXT_CARDS,
      default_profile_chars: DEFAULT_PROFILE_CHARS,
      small_budget_chars: SMALL_BUDGET_CHARS,
      layout: {
        trace_entries: "size, doc trace on main",
        cards: `size / ${CARD_EVERY}, doc graph (one trace entry in ${CARD_EVERY} is a card's trace note, written after its node)`,
        status_updates: `about size / 20: a new version of a card ${UPDATE_MIN_AGE}-${UPDATE_MIN_AGE + UPDATE_SPAN - 1} cards old, with its trace note`,
        notes: `${PACK_NOTES}, doc notes, one after every floor(size / ${PACK_NOTES}) trace entries`,
        think_card_writes: `${THINK_CARD_WRITES} newest cards`,
        lane: "shared",
        signals_within: `the newest ${EXAMINED_PER_SOURCE} cards (the server's examination bound)`,
      },
    },
    results,
    growth: growth ?? null,
    targets_met: { ...targetsMetJson(misses, growth), ...verdicts },
  };
}
