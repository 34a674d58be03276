/**
 * The one slice the signal engine reads for a scope (a branch, its graph and trace docs, the lanes
 * shown, and the plan or task it belongs to), so every read that shows the engine — `think_frontier`,
 * `think_next`, `think_watch`, `context_pack`, the resume views and `status` — gives the same answer
 * for the same state. A read may show fewer signals than another (a prefix of the same ranked list),
 * never different ones. The slice is fixed and bounded: its card pages read together from the term index
 * (graph-terms.store.ts: the ranges, then the rows), one statement for the supports/blocks edges between
 * them, one for the trace tail. A task with an open step makes the
 * answer step-aware (its step's cards first). A call reads a scope's slice once (`ctx.memo`): `status`
 * and its portal capsule's "what waits" run the engine over the same one.
 */
import type { CommandContext } from "../../commands/context";
import { type Branch, checkoutOf, findBranch, type Source, sourcesOf } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { stepFocusTagOf } from "../../place/targets";
import { suggest } from "../../shared/suggestion";
import type { Entry } from "../docs/docs.schema";
import { readTail } from "../docs/tail";
import { edgesBetween } from "../graph/graph-edges.store";
import { allOf, type NodeFilter } from "../graph/graph-filters.store";
import { ANY, BLOCKERS, OPEN, ofType, taggedWith } from "./card-filters";
import { visibleCardPages } from "./card-view";
import { runEngine } from "./engine";
import type { EngineCard, EngineResult } from "./engine.model";

/** Newest cards of any type, closed ones too (a closed assumption still in use is a finding): the pack's and status's size. */
const RECENT_CARDS = 30;
/** Open questions, hypotheses, tests and decisions per type, older ones included: the analyzers check up to 12 of a type. */
const OPEN_PER_TYPE = 10;
/** Newest evidence cards: evidence strength, confidence and staleness weigh evidence against what it supports. */
const EVIDENCE_CARDS = 20;
/** Cards marked blocked, and open questions: contradictions and confidence weigh blockers. */
const BLOCKER_CARDS = 10;
/** Cards tagged `assumption`, any status: BM6 looks for closed ones that still support active cards. */
const ASSUMPTION_CARDS = 10;
/** Cards tagged `pinned`: weak evidence, low confidence and draft decisions matter most when pinned. */
const PINNED_CARDS = 10;
/** Cards tagged with the step focus, any status: the step-aware pass reads only these. */
const STEP_CARDS = 20;
/** Newest trace entries: the stuck detector's window (BM10). */
const TRACE_ENTRIES = 12;
/** Edges read between the slice's cards at most. */
const MAX_SLICE_EDGES = 500;
/** Signals and actions kept when a read does not choose (actions: the best and one backup). */
const DEFAULT_LIMITS = { signals: 5, actions: 2 } as const;
/**
 * What the checkout's answer keeps by default: `status` shows 3 signals and no action (it answers many
 * questions at once; the portal capsule ranks the engine's best action among what waits, and
 * `think_next` gives the moves).
 */
const CHECKOUT_LIMITS = { signals: 3, actions: 0 } as const;

const OPEN_TYPES = ["question", "hypothesis", "test", "decision"] as const;

/** Where the engine reads: the branch, its docs, the lanes shown, and the plan or task aimed at. */
export interface EngineScope {
  branch: Branch;
  /** The branch's sources, when the caller has them already (they are read otherwise). */
  sources?: Source[] | undefined;
  graphDoc: string;
  traceDoc: string;
  allLanes: boolean;
  /** The plan or task the scope belongs to (its reasoning ref); a task's first open step makes the answer step-aware. */
  target?: string | undefined;
  /** The caller's own checkout: proposed think calls name no place, since think tools default to it. */
  checkout?: boolean;
  /** Read already by the caller, to save the reads: the target's step tag (null: no open step). */
  stepTag?: string | null;
  /** Read already by the caller: a tail page of the trace doc's newest entries (oldest first, no cursor). */
  traceTail?: { entries: Entry[]; pagination: { has_more: boolean } };
}

/** The engine's trace window from a tail the caller read, when that tail covers it. */
function knownTrace(tail: EngineScope["traceTail"]): Entry[] | undefined {
  if (tail === undefined || (tail.entries.length < TRACE_ENTRIES && tail.pagination.has_more)) return undefined;
  return tail.entries.slice(-TRACE_ENTRIES);
}

/** The canonical slice's card pages, read together; with a step tag, that step's cards lead. */
function slicePages(stepTag: string | undefined): { filter: NodeFilter; limit: number }[] {
  return [
    ...(stepTag === undefined ? [] : [{ filter: taggedWith(stepTag), limit: STEP_CARDS }]),
    { filter: ANY, limit: RECENT_CARDS },
    ...OPEN_TYPES.map((type) => ({ filter: allOf(ofType(type), OPEN), limit: OPEN_PER_TYPE })),
    { filter: ofType("evidence"), limit: EVIDENCE_CARDS },
    { filter: BLOCKERS, limit: BLOCKER_CARDS },
    { filter: taggedWith("assumption"), limit: ASSUMPTION_CARDS },
    { filter: taggedWith("pinned"), limit: PINNED_CARDS },
  ];
}

/** What the engine reads of a scope: its cards (each once), the supports/blocks edges between them, its trace window. */
interface Slice {
  cards: EngineCard[];
  edges: { from: string; rel: string; to: string }[];
  trace: Entry[];
}

/** A slice kept in the call's memo, with the rows the call had written when it was read. */
interface KeptSlice {
  written: number;
  slice: Slice;
}

/** The scope's slice, read once per call while the call writes nothing (`ctx.memo`). */
function sliceOf(ctx: CommandContext, scope: EngineScope, sources: Source[], stepTag: string | undefined): Slice {
  const key = `engine.slice:${JSON.stringify([scope.branch.id, scope.graphDoc, scope.traceDoc, scope.allLanes, stepTag ?? null])}`;
  const kept = ctx.memo.get(key) as KeptSlice | undefined;
  if (kept !== undefined && kept.written === ctx.db.rowsWritten) return kept.slice;
  const found = visibleCardPages(ctx, scope.graphDoc, sources, slicePages(stepTag), scope.allLanes).flatMap((page) => page.cards);
  const cards = [...new Map(found.map((card) => [card.id, card])).values()];
  const trace =
    knownTrace(scope.traceTail) ?? readTail(ctx, scope.branch, scope.traceDoc, undefined, TRACE_ENTRIES, sources, scope.allLanes).entries;
  const edges =
    cards.length === 0
      ? []
      : edgesBetween(
          ctx.db,
          sources,
          scope.graphDoc,
          cards.map((card) => card.id),
          MAX_SLICE_EDGES,
        ).rows.map((row) => ({ from: row.from_id ?? "", rel: row.rel ?? "", to: row.to_id ?? "" }));
  const slice = { cards, edges, trace };
  ctx.memo.set(key, { written: ctx.db.rowsWritten, slice } satisfies KeptSlice);
  return slice;
}

/**
 * The engine's answer for a scope: the canonical slice read and analysed, step-aware under a task with
 * an open step, its proposed think calls aimed at the scope. `limits` only cut the ranked lists.
 */
export function engineAnswer(ctx: CommandContext, scope: EngineScope, limits: { signals?: number; actions?: number } = {}): EngineResult {
  const sources = scope.sources ?? sourcesOf(ctx.db, scope.branch);
  const stepTag = scope.stepTag === undefined ? stepFocusTagOf(ctx.db, scope.target) : (scope.stepTag ?? undefined);
  const slice = sliceOf(ctx, scope, sources, stepTag);
  const callScope =
    scope.target !== undefined
      ? { target: scope.target }
      : scope.checkout
        ? {}
        : { branch: scope.branch.name, trace_doc: scope.traceDoc, graph_doc: scope.graphDoc };
  return engineOver(ctx, slice, {
    stepTag,
    signals: limits.signals ?? DEFAULT_LIMITS.signals,
    actions: limits.actions ?? DEFAULT_LIMITS.actions,
    scope: callScope,
  });
}

/** Runs the engine over a slice. */
function engineOver(
  ctx: CommandContext,
  { cards, edges, trace }: Slice,
  options: { stepTag: string | undefined; signals: number; actions: number; scope: Record<string, unknown> },
): EngineResult {
  const result = runEngine({
    cards,
    edges,
    trace: trace.map((entry) => ({
      seq: entry.seq,
      ts_ms: entry.ts_ms,
      kind: entry.kind,
      title: entry.title,
      content: entry.content,
      meta: entry.meta,
    })),
    stepTag: options.stepTag,
    viewer: ctx.principal.agent_id,
    limits: { signals: options.signals, actions: options.actions },
  });
  return withScope(result, options.scope);
}

/**
 * The engine proposes calls without knowing where the slice came from; think tools default to the
 * checkout, so each proposed think call gets the slice's scope (its target, or its branch and docs)
 * and can be sent as it is.
 */
function withScope(result: EngineResult, scope: Record<string, unknown>): EngineResult {
  return {
    ...result,
    actions: result.actions.map((action) => ({
      ...action,
      calls: action.calls.map((call) =>
        call.tool.startsWith("think_") ? suggest(call.tool, { ...scope, ...call.args }, call.purpose) : call,
      ),
    })),
  };
}

/** The engine over the caller's checkout (its `graph` and `trace` docs, for `status`), or undefined when there is nothing to say. */
export function checkoutEngine(
  ctx: CommandContext,
  limits: { signals: number; actions: number } = CHECKOUT_LIMITS,
): EngineResult | undefined {
  if (findBranch(ctx.db, "main") === undefined) return undefined;
  const branch = checkoutOf(ctx.db, ctx.principal.agent_id);
  const result = engineAnswer(
    ctx,
    { branch, graphDoc: DEFAULT_DOCS.graph, traceDoc: DEFAULT_DOCS.trace, allLanes: false, checkout: true },
    limits,
  );
  return result.signals.length + result.actions.length > 0 ? result : undefined;
}
