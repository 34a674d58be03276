/**
 * The cards suite's model of what it imported (cards-layout.ts): which card each view shows, and so the
 * answers the checks expect — a doc's newest cards (of a type, or any), its frontier (the open
 * questions, hypotheses, tests and decisions), the cards a view may name at all. A view is a branch and
 * doc as `bench` reads it: the branch's own versions, its bases' up to each fork's cutoff (the nearest
 * source of a card wins), in the shared lane and `agent/bench` (or every lane), newest first.
 */
import { BENCH_AGENT, type CardsLayout, type CardVersion, CLOSED_STATUSES, type EdgeVersion, type FRONTIER_TYPES } from "./cards-layout.ts";

export type Frontier = Record<(typeof FRONTIER_TYPES)[number], string[]>;

const CLOSED = new Set<string>(CLOSED_STATUSES);
const OWN_LANES = new Set(["shared", `agent/${BENCH_AGENT}`]);

export class CardsModel {
  private readonly views = new Map<string, CardVersion[]>();
  private readonly edgeViews = new Map<string, EdgeVersion[]>();
  private readonly ids = new Set<string>();

  private readonly layout: CardsLayout;

  constructor(layout: CardsLayout) {
    this.layout = layout;
    for (const version of layout.versions) this.ids.add(version.id);
  }

  /** The branch and its bases, each with the order of the last version it shows. */
  private lineage(branch: string): { branch: string; cutoff: number }[] {
    const out = [{ branch, cutoff: Number.POSITIVE_INFINITY }];
    for (let base = this.layout.bases.get(branch); base !== undefined; base = this.layout.bases.get(base.base)) {
      out.push({ branch: base.base, cutoff: base.cutoff });
    }
    return out;
  }

  /** The versions of `doc` the branch's view shows, newest first: each key's version from its nearest source. */
  private nearest<V extends { branch: string; doc: string; order: number }>(
    branch: string,
    doc: string,
    all: V[],
    keyOf: (v: V) => string,
  ): V[] {
    const sources = this.lineage(branch);
    const best = new Map<string, { rank: number; version: V }>();
    for (const version of all) {
      if (version.doc !== doc) continue;
      const rank = sources.findIndex((source) => source.branch === version.branch && version.order <= source.cutoff);
      if (rank < 0) continue;
      const key = keyOf(version);
      const held = best.get(key);
      if (held === undefined || rank < held.rank || (rank === held.rank && version.order > held.version.order))
        best.set(key, { rank, version });
    }
    return [...best.values()].map((entry) => entry.version).sort((a, b) => b.order - a.order);
  }

  /** Every card the view shows (every lane), newest first. */
  private effective(branch: string, doc: string): CardVersion[] {
    const key = `${branch}\u0000${doc}`;
    const known = this.views.get(key) ?? this.nearest(branch, doc, this.layout.versions, (version) => version.id);
    this.views.set(key, known);
    return known;
  }

  /** Every live edge of the view, newest first (the layout deletes none; an edge has no lane, its ends do). */
  edges(branch: string, doc: string): EdgeVersion[] {
    const key = `${branch}\u0000${doc}`;
    const known = this.edgeViews.get(key) ?? this.nearest(branch, doc, this.layout.edges, (e) => `${e.from}|${e.rel}|${e.to}`);
    this.edgeViews.set(key, known);
    return known;
  }

  /** The view's cards as `bench` sees them (its lanes, or every lane), newest first. */
  visible(branch: string, doc: string, allLanes = false): CardVersion[] {
    const cards = this.effective(branch, doc);
    return allLanes ? cards : cards.filter((card) => OWN_LANES.has(card.lane));
  }

  /** The ids of the view's `limit` newest cards passing `where`. */
  newest(branch: string, doc: string, limit: number, where: (card: CardVersion) => boolean = () => true, allLanes = false): string[] {
    const out: string[] = [];
    for (const card of this.visible(branch, doc, allLanes)) {
      if (out.length >= limit) break;
      if (where(card)) out.push(card.id);
    }
    return out;
  }

  /** `think_frontier`'s lists: per type the newest `perType` open cards. */
  frontier(branch: string, doc: string, perType: number): Frontier {
    const open = (type: string) => (card: CardVersion) => card.type === type && !CLOSED.has(card.status);
    return {
      question: this.newest(branch, doc, perType, open("question")),
      hypothesis: this.newest(branch, doc, perType, open("hypothesis")),
      test: this.newest(branch, doc, perType, open("test")),
      decision: this.newest(branch, doc, perType, open("decision")),
    };
  }

  /** Whether `id` names an imported card (of any doc, branch or lane). */
  isCard(id: string): boolean {
    return this.ids.has(id);
  }

  /** The imported card ids the view may name (its own lanes). */
  nameable(branch: string, doc: string): Set<string> {
    return new Set(this.visible(branch, doc).map((card) => card.id));
  }
}

/**
 * The imported card ids an answer names that its view does not show (another agent's draft, a card of
 * another branch or doc): a leak, so the check fails on any. Strings that are no card id are ignored.
 */
export function foreignCards(model: CardsModel, answer: unknown, allowed: ReadonlySet<string>, out = new Set<string>()): Set<string> {
  if (typeof answer === "string") {
    if (model.isCard(answer) && !allowed.has(answer)) out.add(answer);
  } else if (Array.isArray(answer)) {
    for (const item of answer) foreignCards(model, item, allowed, out);
  } else if (answer !== null && typeof answer === "object") {
    for (const value of Object.values(answer)) foreignCards(model, value, allowed, out);
  }
  return out;
}
