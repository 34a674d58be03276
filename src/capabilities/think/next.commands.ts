/**
 * What to think about next (seed 001 v0.2): `think_frontier` (the open questions, hypotheses, tests and
 * decisions, newest first, with the engine's signals), `think_next` (1 best + 1 backup move),
 * `think_watch` (the frontier, the latest trace entries and a watch capsule: where, why, next, backup),
 * and `think_playbook` (a named reasoning skeleton). The engine's answer is the scope's one answer
 * (engine.slice.ts), the same `context_pack`, the resume views and `status` give for that state. Under
 * the tightest budgets each answers with a small stub that still names the next move, never with an
 * empty payload.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { sourcesOf } from "../../place/branches.store";
import { fail } from "../../shared/errors";
import { fill, suggest } from "../../shared/suggestion";
import { clip } from "../../shared/text";
import { ENTRY_KEEP } from "../docs/docs.schema";
import { entryViewSchema, entryViews } from "../docs/entry-view";
import { readTail } from "../docs/tail";
import { type Card, cardSchema } from "../graph/card-shape";
import { GRAPH_KEEP } from "../graph/graph.schema";
import { allOf } from "../graph/graph-filters.store";
import { OPEN, ofType } from "./card-filters";
import { cardEntryHeldBy, visibleCardPages } from "./card-view";
import type { EngineAction, EngineResult } from "./engine.model";
import { engineSchema } from "./engine.schema";
import { engineAnswer } from "./engine.slice";
import { type FrontierScope as Scope, frontierScopeFields as scopeFields, frontierScopeOf as scopeOf } from "./frontier-scope";
import { findPlaybook, PLAYBOOKS } from "./playbooks";

/** Candidates per type on the frontier, by default and at most. */
const DEFAULT_PER_TYPE = 5;
const MAX_PER_TYPE = 50;
/** Trace entries a watch shows. */
const WATCH_TRACE = 10;

/**
 * The open cards of each type, read together. Called after the engine's answer: at the default width
 * they are prefixes of the slice's open pages, which the call keeps (card-view.ts).
 */
function frontierOf(ctx: CommandContext, scope: Scope, perType: number, allLanes: boolean) {
  const sources = sourcesOf(ctx.db, scope.branch);
  const types = ["question", "hypothesis", "test", "decision"] as const;
  const pages = types.map((type) => ({ filter: allOf(ofType(type), OPEN), limit: perType }));
  const [questions, hypotheses, tests, decisions] = visibleCardPages(ctx, scope.graphDoc, sources, pages, allLanes).map(
    (page) => page.cards,
  ) as [Card[], Card[], Card[], Card[]];
  return { questions, hypotheses, tests, decisions };
}

/** Signals the frontier reads show: more than a pack's, as the frontier is where reasoning is planned. */
const FRONTIER_SIGNALS = 10;

/** The engine's one answer for the scope (engine.slice.ts): the same for every read of the same state. */
function engineFor(ctx: CommandContext, scope: Scope, allLanes: boolean) {
  return engineAnswer(
    ctx,
    { branch: scope.branch, graphDoc: scope.graphDoc, traceDoc: scope.traceDoc, allLanes, target: scope.target },
    { signals: FRONTIER_SIGNALS },
  );
}

type Frontier = ReturnType<typeof frontierOf>;

const _allCards = (frontier: Frontier) => [...frontier.questions, ...frontier.hypotheses, ...frontier.tests, ...frontier.decisions];

/**
 * Moves when the engine has too few: answer the newest open question, test the newest hypothesis, frame
 * the problem, name an unknown. The last two are always there (and no engine action has their kinds),
 * so there are always a best and a backup move.
 */
function fallbackMoves(frontier: Frontier): EngineAction[] {
  const moves: EngineAction[] = [];
  const question = frontier.questions[0];
  if (question)
    moves.push({
      kind: "answer_question",
      priority: "medium",
      title: `Answer ${question.id}`,
      why: "An open question is the cheapest unknown to close.",
      refs: [{ kind: "card", id: question.id }],
      calls: [
        suggest(
          "think_add_evidence",
          { title: `Answer: ${question.title ?? question.id}`, supports: [question.id] },
          `Answer ${question.id}`,
        ),
      ],
    });
  const hypothesis = frontier.hypotheses[0];
  if (hypothesis)
    moves.push({
      kind: "test_hypothesis",
      priority: "medium",
      title: `Test ${hypothesis.id}`,
      why: "The newest open hypothesis.",
      refs: [{ kind: "card", id: hypothesis.id }],
      calls: [
        suggest(
          "think_add_test",
          { title: `Test: ${hypothesis.title ?? hypothesis.id}`, supports: [hypothesis.id] },
          `Test ${hypothesis.id}`,
        ),
      ],
    });
  moves.push({
    kind: "frame",
    priority: "low",
    title: "Frame the problem",
    why: "Nothing open to work on.",
    refs: [],
    calls: [suggest("think_add_frame", { title: fill("the problem") }, "Frame the problem")],
  });
  moves.push({
    kind: "ask_question",
    priority: "low",
    title: "Name an unknown",
    why: "An open question gives the reasoning something to work on.",
    refs: [],
    calls: [suggest("think_add_question", { title: fill("what you need to find out") }, "Name an unknown")],
  });
  return moves;
}

/** The best and the backup move: the engine's actions, then the fallback moves of kinds it did not propose. */
function movesOf(engine: EngineResult, frontier: Frontier, scope: Scope): [EngineAction, EngineAction] {
  const seen = new Set(engine.actions.map((action) => action.kind));
  const fallback = fallbackMoves(frontier).map((move) => ({
    ...move,
    calls: move.calls.map((call) => suggest(call.tool, { ...scope.callScope, ...call.args }, call.purpose)),
  }));
  // Two at least: `frame` and `ask_question` are always among the fallback moves.
  const [next, backup] = [...engine.actions, ...fallback.filter((move) => !seen.has(move.kind))] as [EngineAction, EngineAction];
  return [next, backup];
}

/** Lines of the watch capsule's `why`, and the length of each: a capsule stays small. */
const WHY_LINES = 3;
const WHY_LINE_CHARS = 120;

const clipLine = (line: string) => clip(line, WHY_LINE_CHARS);

/** Why the moves: the engine's top signals, else what the frontier holds (its counts, then its newest cards). */
function whyOf(engine: EngineResult, frontier: Frontier, graphDoc: string): string[] {
  if (engine.signals.length > 0) return engine.signals.slice(0, WHY_LINES).map((signal) => clipLine(`${signal.code}: ${signal.message}`));
  const lists = Object.entries(frontier).filter(([, cards]) => cards.length > 0);
  if (lists.length === 0) return [`nothing open in ${graphDoc}`];
  const counts = `open in ${graphDoc}: ${lists.map(([name, cards]) => `${name} ${cards.length}`).join(", ")}`;
  const newest = lists
    .flatMap(([, cards]) => cards.slice(0, 1))
    .map((card) => clipLine(`${card.type} ${card.id}: ${card.title ?? card.text ?? ""}`));
  return [counts, ...newest].slice(0, WHY_LINES);
}

const actionSchema = engineSchema.shape.actions.element;
const frontierSchema = z.object({
  questions: z.array(cardSchema),
  hypotheses: z.array(cardSchema),
  tests: z.array(cardSchema),
  decisions: z.array(cardSchema),
});
/** A move as the small forms keep it: the same shape, its first call only (fields are left out, never re-shaped). */
const slimMove = (action: EngineAction | null | undefined) => (action ? { ...action, calls: action.calls.slice(0, 1) } : null);
/**
 * A move as the smallest form keeps it: what and on what (kind, priority, title, refs), as a trimmed
 * action does; for budgets where even one call does not fit (long titles in its args), the ids stay.
 */
const bareMove = (action: EngineAction | null | undefined) =>
  action ? { kind: action.kind, priority: action.priority, title: action.title, refs: action.refs, trimmed: true } : null;

/** Each frontier list cut to its newest card's id and type. */
function frontierTops(frontier: Frontier) {
  const top = (cards: Frontier["questions"]) => cards.slice(0, 1).map((card) => ({ id: card.id, type: card.type, trimmed: true }));
  return {
    questions: top(frontier.questions),
    hypotheses: top(frontier.hypotheses),
    tests: top(frontier.tests),
    decisions: top(frontier.decisions),
  };
}

export const thinkFrontier = defineCommand({
  name: "think.frontier",
  tool: "think_frontier",
  title: "Open reasoning frontier",
  description: `The open questions, hypotheses, tests and decisions of a graph doc (newest first, ${DEFAULT_PER_TYPE} per type by default), with the signal engine's answer for the scope (the same one context_pack and the resume views give; step-aware under a task with an open step). Aim: target, branch + graph_doc, or your checkout.`,
  kind: "read",
  input: { ...scopeFields, limit_per_type: z.number().int().min(1).max(MAX_PER_TYPE).default(DEFAULT_PER_TYPE) },
  output: { branch: z.string(), graph_doc: z.string(), frontier: frontierSchema, engine: engineSchema, truncated: z.boolean() },
  budget: {
    lists: ["frontier.tests", "frontier.decisions", "frontier.hypotheses", "frontier.questions", "engine.signals"],
    keep: [...GRAPH_KEEP, "lane", "title", "code", "severity"],
    trimFromEnd: true,
    // Small forms: each list's newest card and the engine's best move; then the best move alone; then
    // what and on what it is, without its calls.
    stubs: (original) => {
      const engine = original.engine as EngineResult;
      const best = engine.actions.slice(0, 1).map(slimMove);
      return [
        {
          branch: original.branch,
          graph_doc: original.graph_doc,
          frontier: frontierTops(original.frontier as Frontier),
          engine: { mode: engine.mode, signals: [], actions: best },
        },
        { engine: { actions: best } },
        { engine: { actions: engine.actions.slice(0, 1).map(bareMove) } },
      ];
    },
  },
  handler: (ctx, args) => {
    const scope = scopeOf(ctx, args);
    const engine = engineFor(ctx, scope, args.all_lanes);
    const frontier = frontierOf(ctx, scope, args.limit_per_type, args.all_lanes);
    return { branch: scope.branch.name, graph_doc: scope.graphDoc, frontier, engine, truncated: false };
  },
});

export const thinkNext = defineCommand({
  name: "think.next",
  tool: "think_next",
  title: "Next reasoning move",
  description:
    "One best and one backup move over the open frontier: the signal engine's top actions, else answer the newest open question or test the newest hypothesis. Each move has copy-paste-safe calls.",
  kind: "read",
  input: scopeFields,
  output: {
    branch: z.string(),
    graph_doc: z.string(),
    next: actionSchema.nullable(),
    backup: actionSchema.nullable(),
    signals: engineSchema.shape.signals,
    truncated: z.boolean(),
  },
  budget: {
    lists: ["signals"],
    keep: ["code", "severity"],
    trimFromEnd: true,
    stubs: (original) => [
      { next: slimMove(original.next as EngineAction | null) },
      { next: bareMove(original.next as EngineAction | null) },
    ],
  },
  handler: (ctx, args) => {
    const scope = scopeOf(ctx, args);
    const engine = engineFor(ctx, scope, args.all_lanes);
    const frontier = frontierOf(ctx, scope, DEFAULT_PER_TYPE, args.all_lanes);
    const [next, backup] = movesOf(engine, frontier, scope);
    return {
      branch: scope.branch.name,
      graph_doc: scope.graphDoc,
      next,
      backup,
      signals: engine.signals,
      truncated: false,
    };
  },
});

export const thinkWatch = defineCommand({
  name: "think.watch",
  tool: "think_watch",
  title: "Watch the reasoning",
  description: `The frontier (${DEFAULT_PER_TYPE} per type), the latest ${WATCH_TRACE} trace entries and a watch capsule (where, why: up to ${WHY_LINES} lines, the best and backup move). When target is given, the docs come from its reasoning ref.`,
  kind: "read",
  input: scopeFields,
  output: {
    branch: z.string(),
    graph_doc: z.string(),
    trace_doc: z.string(),
    frontier: frontierSchema,
    trace: z.array(entryViewSchema),
    engine: engineSchema,
    watch_capsule: z.object({
      where: z.object({ branch: z.string(), graph_doc: z.string(), trace_doc: z.string() }),
      why: z.array(z.string()).max(WHY_LINES),
      next: actionSchema,
      backup: actionSchema,
    }),
    truncated: z.boolean(),
  },
  budget: {
    lists: ["trace", "frontier.tests", "frontier.decisions", "frontier.hypotheses", "frontier.questions", "engine.signals"],
    keep: [...new Set([...ENTRY_KEEP, ...GRAPH_KEEP, "lane", "title", "code", "severity"])],
    trimFromEnd: ["frontier.tests", "frontier.decisions", "frontier.hypotheses", "frontier.questions", "engine.signals"],
    stubs: (original) => [
      { watch_capsule: original.watch_capsule },
      { watch_capsule: { next: slimMove((original.watch_capsule as { next: EngineAction }).next) } },
      { watch_capsule: { next: bareMove((original.watch_capsule as { next: EngineAction }).next) } },
    ],
  },
  handler: (ctx, args) => {
    const scope = scopeOf(ctx, args);
    const engine = engineFor(ctx, scope, args.all_lanes);
    const frontier = frontierOf(ctx, scope, DEFAULT_PER_TYPE, args.all_lanes);
    const trace = readTail(ctx, scope.branch, scope.traceDoc, undefined, WATCH_TRACE, undefined, args.all_lanes).entries;
    const [next, backup] = movesOf(engine, frontier, scope);
    return {
      branch: scope.branch.name,
      graph_doc: scope.graphDoc,
      trace_doc: scope.traceDoc,
      frontier,
      // Leaner items (entry-view.ts): a card write the frontier shows at that version is named by card_id.
      trace: entryViews(trace, { branch: scope.branch.name, doc: scope.traceDoc }, cardEntryHeldBy(Object.values(frontier).flat())),
      engine,
      watch_capsule: {
        where: { branch: scope.branch.name, graph_doc: scope.graphDoc, trace_doc: scope.traceDoc },
        why: whyOf(engine, frontier, scope.graphDoc),
        next,
        backup,
      },
      truncated: false,
    };
  },
});

export const thinkPlaybook = defineCommand({
  name: "think.playbook",
  tool: "think_playbook",
  title: "Reasoning playbook",
  description: `A deterministic reasoning skeleton by name: ${PLAYBOOKS.map((playbook) => playbook.name).join(", ")}.`,
  kind: "read",
  input: { name: z.string().min(1).max(64).default("default") },
  output: {
    name: z.string(),
    purpose: z.string(),
    steps: z.array(z.object({ card_type: z.string(), title: z.string(), hint: z.string() })),
    playbooks: z.array(z.string()),
  },
  handler: (_ctx, args) => {
    const playbook = findPlaybook(args.name);
    if (!playbook) {
      fail("INVALID_INPUT", `No playbook "${args.name}".`, `Use one of: ${PLAYBOOKS.map((p) => p.name).join(", ")}.`, {
        name: args.name,
        playbooks: PLAYBOOKS.map((p) => p.name),
      });
    }
    return { ...playbook, playbooks: PLAYBOOKS.map((p) => p.name) };
  },
});
