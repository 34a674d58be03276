/**
 * The reasoning signal engine (seed 003 "Reasoning Signal Engine"), pure and deterministic: a function
 * of the slice it is given — cards, the supports/blocks edges between them, trace entries — and nothing
 * else. "Now" is the newest timestamp in the slice, never the wall clock. It reads only and returns
 * ranked `signals` and ranked `actions` (by default 1 best + 1 backup).
 *
 * This module runs the analyzers (engine.analyzers.ts) over a slice and ranks and bounds what they
 * find; the shapes are in engine.model.ts.
 */
import { analyze } from "./engine.analyzers";
import type { EngineAction, EngineInput, EngineResult, Priority, Severity, Signal } from "./engine.model";

const SEVERITY_RANK: Record<Severity, number> = { critical: 4, high: 3, warning: 2, info: 1 };
const PRIORITY_RANK: Record<Priority, number> = { high: 3, medium: 2, low: 1 };

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
  const global = analyze(input.cards, input.edges, input.trace, input.viewer);
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
      input.viewer,
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
