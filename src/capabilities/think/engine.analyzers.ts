/**
 * The signal engine's analyzers (seed 003 "Reasoning Signal Engine"), in seed 003's order: lane
 * hygiene, evidence strength (BM2), blind spots (BM4), runnable tests and staleness (BM5/BM8),
 * contradictions (BM1), confidence propagation (BM3), assumptions (BM6), reasoning patterns (BM9),
 * counter-arguments (BM7/BM10), and being stuck (BM10). Each finds signals and actions in the slice;
 * engine.ts ranks and bounds them. "Now" is the newest timestamp in the slice, never the wall clock.
 */
import { fill, suggest } from "../../shared/suggestion";
import {
  commandOf,
  type EngineAction,
  type EngineCard,
  type EngineEdge,
  type EngineTraceEntry,
  evidenceScore,
  graphOf,
  hasCommand,
  isActive,
  metaNumber,
  type Priority,
  type Severity,
  type Signal,
  textOf,
} from "./engine.model";

/** A call as the rules below write it; `action` turns it into a suggestion with the action's title. */
type RawCall = { tool: string; args: Record<string, unknown> };

const DAY_MS = 24 * 60 * 60 * 1000;
/** A draft decision updated within this window (or pinned) should be published. */
const LANE_RECENT_MS = 14 * DAY_MS;
/** Evidence older than this (unless the test says otherwise) is stale. */
const DEFAULT_STALE_MS = 30 * DAY_MS;
/** How many cards each analyzer looks at, at most (the original's bounds). */
const MAX_LANE_CHECKS = 8;
const MAX_HYPOTHESES = 12;
const MAX_CONTRADICTION_CHECKS = 10;
const MAX_WEAK_EVIDENCE = 2;
/** Trace entries the stuck detector looks at, and how many card notes without progress mean stuck. */
const STUCK_WINDOW = 12;
const STUCK_CARD_NOTES = 6;
/** Confidence propagation: rounds, weights of supporters by type, thresholds. */
const CONFIDENCE_ROUNDS = 3;
const WEIGHTS: Record<string, number> = { evidence: 4, test: 1.5, hypothesis: 0.75, decision: 0.75 };
const DEFAULT_WEIGHT = 0.25;
const DECISION_LOW = 0.55;
const HYPOTHESIS_LOW = 0.45;
const WEAK_EVIDENCE_SCORE = 60;

const TRADEOFF = /( vs\.? | versus |tradeoff|trade-off|\ba\/b\b)/i;
const ref = (id: string) => ({ kind: "card" as const, id });
const label = (card: EngineCard) => card.title ?? (card.text ?? card.id).slice(0, 80);

export interface Found {
  signals: (Signal & { ts: number })[];
  actions: (EngineAction & { ts: number })[];
}

export function analyze(cards: EngineCard[], edges: EngineEdge[], trace: EngineTraceEntry[], viewer?: string): Found {
  const found: Found = { signals: [], actions: [] };
  if (cards.length === 0 && trace.length === 0) return found;
  const now = Math.max(0, ...cards.map((card) => card.last_ts_ms), ...trace.map((entry) => entry.ts_ms));
  const graph = graphOf(cards, edges);
  const newest = [...cards].sort((a, b) => b.last_seq - a.last_seq);
  const signal = (code: string, severity: Severity, message: string, ids: string[], ts: number) =>
    found.signals.push({ code, severity, message, refs: ids.map(ref), ts });
  const action = (kind: string, priority: Priority, title: string, why: string, ids: string[], calls: RawCall[], ts: number) =>
    found.actions.push({
      kind,
      priority,
      title,
      why,
      refs: ids.map(ref),
      calls: calls.map((call) => suggest(call.tool, call.args, title)),
      ts,
    });

  // Lane hygiene: a draft decision (pinned or recent) with no published copy.
  const published = new Set(cards.filter((card) => card.id.startsWith("CARD-PUB-")).map((card) => card.id.slice("CARD-PUB-".length)));
  const drafts = newest.filter((card) => card.type === "decision" && card.lane !== "shared" && !card.id.startsWith("CARD-PUB-"));
  for (const card of drafts.slice(0, MAX_LANE_CHECKS)) {
    const relevant = card.tags.includes("pinned") || now - card.last_ts_ms <= LANE_RECENT_MS;
    if (!relevant || published.has(card.id)) continue;
    const owner = card.lane.startsWith("agent/") ? card.lane.slice("agent/".length) : undefined;
    if (viewer !== undefined && owner !== viewer) {
      // Only the draft's owner may publish it: the others are told whom to ask, with no call to make.
      signal(
        "BM_LANE_DECISION_NOT_PUBLISHED",
        "warning",
        `Decision ${card.id} is a draft in ${card.lane}; only ${owner ?? "its author"} can publish it.`,
        [card.id],
        card.last_ts_ms,
      );
      continue;
    }
    signal(
      "BM_LANE_DECISION_NOT_PUBLISHED",
      "warning",
      `Decision ${card.id} is a draft in ${card.lane}; others cannot see it.`,
      [card.id],
      card.last_ts_ms,
    );
    action(
      "publish_decision",
      "medium",
      `Publish decision ${card.id}`,
      "A decision others should follow lives in a draft lane.",
      [card.id],
      [{ tool: "think_publish", args: { card_id: card.id } }],
      card.last_ts_ms,
    );
  }

  // BM4: hypotheses without a test, or with tests but no evidence.
  for (const card of newest.filter((c) => c.type === "hypothesis" && isActive(c)).slice(0, MAX_HYPOTHESES)) {
    const supporters = graph.supportersOf.get(card.id) ?? [];
    const tests = supporters.filter((c) => c.type === "test");
    if (tests.length === 0) {
      signal("BM4_HYPOTHESIS_NO_TEST", "high", `Hypothesis ${card.id} has no test.`, [card.id], card.last_ts_ms);
      action(
        "add_test_stub",
        "high",
        `Add a test for ${card.id}`,
        "A hypothesis nothing can check is an opinion.",
        [card.id],
        [{ tool: "think_add_test", args: { title: `Test: ${label(card)}`, supports: [card.id], tags: ["bm4"] } }],
        card.last_ts_ms,
      );
      continue;
    }
    const evidence = [card, ...tests].some((c) => (graph.supportersOf.get(c.id) ?? []).some((s) => s.type === "evidence"));
    if (!evidence)
      signal(
        "BM4_HYPOTHESIS_NO_EVIDENCE",
        "warning",
        `Hypothesis ${card.id} has tests but no evidence yet.`,
        [card.id, ...tests.map((t) => t.id)],
        card.last_ts_ms,
      );
  }

  // BM5/BM8: runnable tests: never run, stale, or all fresh.
  const runnable = newest.filter((card) => card.type === "test" && isActive(card) && hasCommand(card));
  let fresh = 0;
  for (const test of runnable) {
    const evidence = (graph.supportersOf.get(test.id) ?? []).filter((c) => c.type === "evidence");
    const days = metaNumber(test, "stale_after_days");
    const staleMs = metaNumber(test, "stale_after_ms") ?? (days === undefined ? DEFAULT_STALE_MS : days * DAY_MS);
    const latest = Math.max(0, ...evidence.map((c) => c.last_ts_ms));
    // Running is the caller's job (the engine never executes anything): record the result as evidence.
    const command = commandOf(test) ?? fill("the test's command");
    const run = {
      tool: "think_add_evidence",
      args: { title: `Result of ${label(test)}`, text: `CMD: ${command}\nLINK: <fill: result url>`, supports: [test.id] },
    };
    if (evidence.length === 0) {
      action("run_test", "high", `Run test ${test.id}`, "A runnable test has never produced evidence.", [test.id], [run], test.last_ts_ms);
    } else if (now - latest > staleMs) {
      signal("BM8_EVIDENCE_STALE", "warning", `The evidence for test ${test.id} is older than its freshness window.`, [test.id], latest);
      action("run_test", "medium", `Re-run test ${test.id}`, "Stale evidence proves an older state.", [test.id], [run], latest);
    } else fresh++;
  }
  if (runnable.length > 0 && fresh === runnable.length) {
    const latest = Math.max(...runnable.map((c) => c.last_ts_ms));
    signal(
      "BM5_RUNNABLE_TESTS_FRESH",
      "info",
      `All ${runnable.length} runnable test(s) have fresh evidence.`,
      runnable.map((c) => c.id),
      latest,
    );
  }

  // BM1: supported and blocked at once.
  const contradicted = newest
    .filter((c) => ["hypothesis", "test", "decision"].includes(c.type) && isActive(c))
    .slice(0, MAX_CONTRADICTION_CHECKS);
  for (const card of contradicted) {
    const blockers = graph.blockersOf.get(card.id) ?? [];
    if ((graph.supportersOf.get(card.id) ?? []).length === 0 || blockers.length === 0) continue;
    signal(
      "BM1_CONTRADICTION_SUPPORTS_BLOCKS",
      "high",
      `${card.id} is both supported and blocked.`,
      [card.id, ...blockers.map((b) => b.id)],
      card.last_ts_ms,
    );
    action(
      "resolve_contradiction",
      "high",
      `Resolve the contradiction on ${card.id}`,
      "Evidence points both ways.",
      [card.id],
      [{ tool: "think_add_question", args: { title: `Which holds for ${card.id}: its support or its blockers?`, supports: [card.id] } }],
      card.last_ts_ms,
    );
  }

  // BM2 signal: weak evidence where it matters (pinned, or under a pinned decision).
  const weak = newest
    .filter((c) => c.type === "evidence")
    .map((c) => ({ card: c, score: evidenceScore(c, graph) }))
    .filter(
      ({ card, score }) =>
        score < WEAK_EVIDENCE_SCORE &&
        (card.tags.includes("pinned") ||
          (graph.supportedBy.get(card.id) ?? []).some((t) => t.type === "decision" && t.tags.includes("pinned"))),
    )
    .sort((a, b) => a.score - b.score || a.card.id.localeCompare(b.card.id))
    .slice(0, MAX_WEAK_EVIDENCE);
  for (const { card, score } of weak)
    signal(
      "BM2_EVIDENCE_WEAK",
      "warning",
      `Evidence ${card.id} scores ${score}/100: add a CMD: and a LINK: receipt.`,
      [card.id],
      card.last_ts_ms,
    );

  // BM3: confidence propagation (evidence from its score; others from supporters against blockers).
  const confidence = new Map<string, number>();
  for (const card of cards) confidence.set(card.id, card.type === "evidence" ? evidenceScore(card, graph) / 100 : 0.5);
  for (let round = 0; round < CONFIDENCE_ROUNDS; round++) {
    const next = new Map(confidence);
    for (const card of cards) {
      if (card.type === "evidence") continue;
      const sum = (list: EngineCard[]) =>
        list.reduce((total, c) => total + (WEIGHTS[c.type] ?? DEFAULT_WEIGHT) * (confidence.get(c.id) ?? 0.5), 0);
      const pos = 1 + sum(graph.supportersOf.get(card.id) ?? []);
      const neg = 1 + sum(graph.blockersOf.get(card.id) ?? []);
      next.set(card.id, pos / (pos + neg));
    }
    for (const [id, value] of next) confidence.set(id, value);
  }
  for (const card of newest) {
    const c = confidence.get(card.id) ?? 0.5;
    if (card.type === "decision" && isActive(card) && card.tags.includes("pinned") && c <= DECISION_LOW) {
      signal(
        "BM3_DECISION_LOW_CONFIDENCE",
        "warning",
        `Pinned decision ${card.id} rests on weak support (confidence ${c.toFixed(2)}).`,
        [card.id],
        card.last_ts_ms,
      );
      action(
        "run_experiment",
        "medium",
        `Test decision ${card.id} with an experiment`,
        "What is pinned should be proven.",
        [card.id],
        [{ tool: "think_add_test", args: { title: `Experiment: ${label(card)}`, supports: [card.id] } }],
        card.last_ts_ms,
      );
    } else if (card.type === "hypothesis" && isActive(card) && c <= HYPOTHESIS_LOW) {
      signal(
        "BM3_HYPOTHESIS_LOW_CONFIDENCE",
        "info",
        `Hypothesis ${card.id} is more blocked than supported (confidence ${c.toFixed(2)}).`,
        [card.id],
        card.last_ts_ms,
      );
    }
  }

  // BM6: a closed assumption still holding up something active.
  for (const card of newest.filter((c) => c.tags.includes("assumption") && !isActive(c))) {
    const dependents = (graph.supportedBy.get(card.id) ?? []).filter(
      (t) => (t.type === "decision" || t.type === "hypothesis") && isActive(t),
    );
    if (dependents.length === 0) continue;
    signal(
      "BM6_ASSUMPTION_NOT_OPEN_BUT_USED",
      "warning",
      `Assumption ${card.id} is ${card.status} but still supports ${dependents.map((d) => d.id).join(", ")}.`,
      [card.id, ...dependents.map((d) => d.id)],
      card.last_ts_ms,
    );
    action(
      "recheck_assumption",
      "medium",
      `Recheck what rests on ${card.id}`,
      "A changed assumption may invalidate what it supports.",
      [card.id],
      [{ tool: "think_add_update", args: { title: `Recheck after assumption ${card.id} changed`, supports: dependents.map((d) => d.id) } }],
      card.last_ts_ms,
    );
  }

  // BM9: a choice between options → a criteria matrix.
  for (const card of newest
    .filter((c) => (c.type === "question" || c.type === "decision") && isActive(c) && TRADEOFF.test(textOf(c)))
    .slice(0, 1)) {
    action(
      "criteria_matrix",
      "low",
      `Compare the options of ${card.id} in a criteria matrix`,
      "It weighs alternatives.",
      [card.id],
      [
        {
          tool: "think_add_note",
          args: { title: `Criteria matrix for ${card.id}`, text: "<fill: options × criteria>", supports: [card.id] },
        },
      ],
      card.last_ts_ms,
    );
  }

  // BM7/BM10: supported, never challenged.
  for (const card of newest.filter(
    (c) => (c.type === "hypothesis" || c.type === "decision") && isActive(c) && !c.tags.includes("counter"),
  )) {
    if ((graph.supportersOf.get(card.id) ?? []).length === 0 || (graph.blockersOf.get(card.id) ?? []).length > 0) continue;
    signal("BM10_NO_COUNTER_EDGES", "info", `${card.id} has support and no counter-argument.`, [card.id], card.last_ts_ms);
    action(
      "add_counter_hypothesis",
      "low",
      `Steelman the case against ${card.id}`,
      "Nothing has tried to disprove it.",
      [card.id],
      [{ tool: "think_add_hypothesis", args: { title: `Counter: ${label(card)}`, blocks: [card.id], tags: ["bm7", "counter"] } }],
      card.last_ts_ms,
    );
  }

  // BM10: stuck: many card notes, no evidence or decision among the latest trace entries. A task
  // event is an `event` entry (only the server writes those); a note's own meta.type is not one.
  const recent = [...trace].sort((a, b) => b.seq - a.seq).slice(0, STUCK_WINDOW);
  const cardNotes = recent.filter((entry) => typeof entry.meta?.card_id === "string");
  const progress = recent.some(
    (entry) =>
      (entry.kind === "event" && entry.meta?.type === "evidence_captured") ||
      entry.meta?.card_type === "evidence" ||
      entry.meta?.card_type === "decision",
  );
  if (cardNotes.length >= STUCK_CARD_NOTES && !progress) {
    const ts = Math.max(...recent.map((entry) => entry.ts_ms));
    signal(
      "BM10_STUCK_NO_EVIDENCE",
      "warning",
      `${cardNotes.length} of the last ${recent.length} trace entries are cards, with no evidence or decision.`,
      [],
      ts,
    );
    action(
      "break_loop",
      "medium",
      "Get evidence or decide",
      "Thinking without new evidence goes in circles.",
      [],
      [{ tool: "think_add_evidence", args: { title: "<fill: what you observed>", text: "CMD: <fill: command>\nLINK: <fill: url>" } }],
      ts,
    );
  }
  return found;
}
