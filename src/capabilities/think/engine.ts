/**
 * The reasoning signal engine (seed 003 "Reasoning Signal Engine"), pure and deterministic: a function
 * of the slice it is given — cards, the supports/blocks edges between them, trace entries — and nothing
 * else. "Now" is the newest timestamp in the slice, never the wall clock. It reads only and returns
 * ranked `signals` and ranked `actions` (by default 1 best + 1 backup).
 *
 * Analyzers, in seed 003's order: lane hygiene, evidence strength (BM2), blind spots (BM4), runnable
 * tests and staleness (BM5/BM8), contradictions (BM1), confidence propagation (BM3), assumptions (BM6),
 * reasoning patterns (BM9), counter-arguments (BM7/BM10), and being stuck (BM10).
 */
import { fill, type Suggestion, suggest } from "../../shared/suggestion";

export interface EngineCard {
  id: string;
  type: string;
  title?: string | undefined;
  text?: string | undefined;
  status?: string | undefined;
  tags: string[];
  meta?: Record<string, unknown> | undefined;
  lane: string;
  last_seq: number;
  last_ts_ms: number;
}

export interface EngineEdge {
  from: string;
  rel: string;
  to: string;
}

export interface EngineTraceEntry {
  seq: number;
  ts_ms: number;
  kind: string;
  title?: string | undefined;
  content: string;
  meta?: Record<string, unknown> | undefined;
}

export type Severity = "critical" | "high" | "warning" | "info";
export type Priority = "high" | "medium" | "low";

export interface Signal {
  code: string;
  severity: Severity;
  message: string;
  refs: { kind: "card"; id: string }[];
}

export interface EngineAction {
  kind: string;
  priority: Priority;
  title: string;
  why: string;
  refs: { kind: "card"; id: string }[];
  /** Calls that carry the action out (suggestions: rendered for the caller's connection). */
  calls: Suggestion[];
}

/** A call as the rules below write it; `action` turns it into a suggestion with the action's title. */
type RawCall = { tool: string; args: Record<string, unknown> };

export interface EngineResult {
  signals: Signal[];
  actions: EngineAction[];
  mode: "global" | "step_aware";
  step_tag?: string;
}

export interface EngineInput {
  cards: EngineCard[];
  edges: EngineEdge[];
  trace: EngineTraceEntry[];
  /** The step focus tag (`step:<id>`): that slice is analysed first. */
  stepTag?: string | undefined;
  limits?: { signals?: number; actions?: number };
}

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

/** Card statuses that count as closed everywhere (engine, frontier, resume views, strict mode). */
export const CLOSED_STATUSES = ["done", "closed", "resolved", "rejected", "canceled", "superseded"] as const;
const CLOSED: ReadonlySet<string> = new Set(CLOSED_STATUSES);
const CI_TAGS = new Set(["ci", "github-actions", "buildkite", "jenkins"]);
const TRADEOFF = /( vs\.? | versus |tradeoff|trade-off|\ba\/b\b)/i;
const SEVERITY_RANK: Record<Severity, number> = { critical: 4, high: 3, warning: 2, info: 1 };
const PRIORITY_RANK: Record<Priority, number> = { high: 3, medium: 2, low: 1 };

const isActive = (card: EngineCard) => !CLOSED.has((card.status ?? "open").toLowerCase());
const ref = (id: string) => ({ kind: "card" as const, id });
const label = (card: EngineCard) => card.title ?? (card.text ?? card.id).slice(0, 80);

function textOf(card: EngineCard): string {
  return `${card.title ?? ""}\n${card.text ?? ""}`;
}

function metaString(card: EngineCard, ...paths: string[][]): string | undefined {
  for (const path of paths) {
    let value: unknown = card.meta;
    for (const key of path) value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value === "string" && value.length > 0) return value;
  }
  return undefined;
}

function metaNumber(card: EngineCard, key: string): number | undefined {
  const value = card.meta?.[key];
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

const CMD_LINE = /^\s*CMD:\s*(\S.*?)\s*$/im;

/** The command a test card records: meta `run.cmd` or `cmd`, else its text's first `CMD:` line. */
function commandOf(card: EngineCard): string | undefined {
  return metaString(card, ["run", "cmd"], ["cmd"]) ?? CMD_LINE.exec(textOf(card))?.[1];
}

function hasCommand(card: EngineCard): boolean {
  return commandOf(card) !== undefined;
}

function hasLink(card: EngineCard): boolean {
  return (
    metaString(card, ["link"], ["url"], ["artifact"]) !== undefined ||
    /^\s*LINK:\s*\S/im.test(textOf(card)) ||
    /https?:\/\/\S+/i.test(textOf(card))
  );
}

interface Graph {
  byId: Map<string, EngineCard>;
  supportersOf: Map<string, EngineCard[]>;
  blockersOf: Map<string, EngineCard[]>;
  supportedBy: Map<string, EngineCard[]>;
}

function graphOf(cards: EngineCard[], edges: EngineEdge[]): Graph {
  const byId = new Map(cards.map((card) => [card.id, card]));
  const push = (map: Map<string, EngineCard[]>, key: string, card: EngineCard) => map.set(key, [...(map.get(key) ?? []), card]);
  const graph: Graph = { byId, supportersOf: new Map(), blockersOf: new Map(), supportedBy: new Map() };
  for (const edge of edges) {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (!from || !to) continue;
    if (edge.rel === "supports") {
      push(graph.supportersOf, to.id, from);
      push(graph.supportedBy, from.id, to);
    } else if (edge.rel === "blocks") push(graph.blockersOf, to.id, from);
  }
  return graph;
}

/** BM2: 0-100 from receipts, where it ran, and what it supports. */
export function evidenceScore(card: EngineCard, graph: Graph): number {
  let score = 0;
  if (hasCommand(card)) score += 25;
  if (hasLink(card)) score += 25;
  const ci = card.tags.some((tag) => CI_TAGS.has(tag)) || metaString(card, ["env"])?.toLowerCase() === "ci";
  score += ci ? 20 : 10;
  const targets = graph.supportedBy.get(card.id) ?? [];
  if (targets.some((target) => target.type === "test")) score += 20;
  else if (targets.some((target) => target.type === "hypothesis" || target.type === "decision")) score += 10;
  return Math.min(100, score);
}

interface Found {
  signals: (Signal & { ts: number })[];
  actions: (EngineAction & { ts: number })[];
}

function analyze(cards: EngineCard[], edges: EngineEdge[], trace: EngineTraceEntry[]): Found {
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

  // BM10: stuck: many card notes, no evidence or decision among the latest trace entries.
  const recent = [...trace].sort((a, b) => b.seq - a.seq).slice(0, STUCK_WINDOW);
  const cardNotes = recent.filter((entry) => typeof entry.meta?.card_id === "string");
  const progress = recent.some(
    (entry) => entry.meta?.type === "evidence_captured" || entry.meta?.card_type === "evidence" || entry.meta?.card_type === "decision",
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

function rankSignals(signals: (Signal & { ts: number })[]): Signal[] {
  return [...signals]
    .sort(
      (a, b) =>
        SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
        b.ts - a.ts ||
        a.code.localeCompare(b.code) ||
        (a.refs[0]?.id ?? "").localeCompare(b.refs[0]?.id ?? ""),
    )
    .map(({ ts: _ts, ...signal }) => signal);
}

function rankActions(actions: (EngineAction & { ts: number })[]): EngineAction[] {
  return [...actions]
    .sort(
      (a, b) =>
        PRIORITY_RANK[b.priority] - PRIORITY_RANK[a.priority] ||
        b.ts - a.ts ||
        a.kind.localeCompare(b.kind) ||
        (a.refs[0]?.id ?? "").localeCompare(b.refs[0]?.id ?? ""),
    )
    .map(({ ts: _ts, ...action }) => action);
}

const signalKey = (signal: Signal) => `${signal.code}|${signal.refs.map((r) => r.id).join(",")}`;
const actionKey = (action: EngineAction) => `${action.kind}|${action.refs.map((r) => r.id).join(",")}`;

/** Runs the analyzers: over the step slice first when a step tag is given, then over the whole slice. */
export function runEngine(input: EngineInput): EngineResult {
  const signalLimit = input.limits?.signals ?? 10;
  const actionLimit = input.limits?.actions ?? 2;
  const global = analyze(input.cards, input.edges, input.trace);
  let signals = rankSignals(global.signals);
  let actions = rankActions(global.actions);
  const result: EngineResult = { signals: [], actions: [], mode: "global" };
  if (input.stepTag !== undefined) {
    const stepCards = input.cards.filter((card) => card.tags.includes(input.stepTag as string));
    const ids = new Set(stepCards.map((card) => card.id));
    const step = analyze(
      stepCards,
      input.edges.filter((edge) => ids.has(edge.from) && ids.has(edge.to)),
      [],
    );
    const stepSignals = rankSignals(step.signals);
    const stepActions = rankActions(step.actions);
    const seenSignals = new Set(stepSignals.map(signalKey));
    const seenActions = new Set(stepActions.map(actionKey));
    signals = [...stepSignals, ...signals.filter((s) => !seenSignals.has(signalKey(s)))];
    actions = [...stepActions, ...actions.filter((a) => !seenActions.has(actionKey(a)))];
    result.mode = "step_aware";
    result.step_tag = input.stepTag;
  }
  result.signals = signals.slice(0, signalLimit);
  result.actions = actions.slice(0, actionLimit);
  return result;
}
