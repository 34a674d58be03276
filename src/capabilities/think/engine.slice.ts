/**
 * Feeds the signal engine from a read's own slice: the cards it returns, the supports/blocks edges
 * between them (one bounded read), and the trace entries it returns. Nothing beyond the slice is read,
 * so the engine costs one query on top of the view that shows it.
 */
import type { CommandContext } from "../../commands/context";
import { suggest } from "../../shared/suggestion";
import { checkoutOf, findBranch, type Source, sourcesOf } from "../branches/branches.store";
import { DEFAULT_DOCS, type Entry } from "../docs/docs.schema";
import { edgesBetween } from "../graph/graph.store";
import { ANY } from "./card-filters.store";
import { visibleCards } from "./card-view";
import { runEngine } from "./engine";
import type { EngineCard, EngineResult } from "./engine.model";

/** Edges read between the slice's cards at most. */
const MAX_SLICE_EDGES = 500;

export function engineOver(
  ctx: CommandContext,
  sources: Source[],
  graphDoc: string,
  cards: EngineCard[],
  trace: Entry[],
  options: { stepTag?: string | undefined; signals?: number; actions?: number; scope?: Record<string, unknown> } = {},
): EngineResult {
  const unique = [...new Map(cards.map((card) => [card.id, card])).values()];
  const edges =
    unique.length === 0
      ? []
      : edgesBetween(
          ctx.db,
          sources,
          graphDoc,
          unique.map((card) => card.id),
          MAX_SLICE_EDGES,
        ).rows.map((row) => ({
          from: row.from_id ?? "",
          rel: row.rel ?? "",
          to: row.to_id ?? "",
        }));
  const result = runEngine({
    cards: unique,
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
    limits: { signals: options.signals ?? 5, actions: options.actions ?? 2 },
  });
  return options.scope === undefined ? result : withScope(result, options.scope);
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

/** Cards of the checkout's `graph` doc the status engine looks at (the newest). */
const STATUS_CARDS = 30;

/** The engine over the newest cards of the caller's checkout (for `status`), or undefined when there is nothing to say. */
export function checkoutEngine(ctx: CommandContext): EngineResult | undefined {
  if (findBranch(ctx.db, "main") === undefined) return undefined;
  const branch = checkoutOf(ctx.db, ctx.principal.agent_id);
  const sources = sourcesOf(ctx.db, branch);
  const { cards } = visibleCards(ctx, DEFAULT_DOCS.graph, sources, ANY, { limit: STATUS_CARDS, allLanes: false });
  if (cards.length === 0) return undefined;
  const result = engineOver(ctx, sources, DEFAULT_DOCS.graph, cards, [], { signals: 3, actions: 2 });
  return result.signals.length + result.actions.length > 0 ? result : undefined;
}
