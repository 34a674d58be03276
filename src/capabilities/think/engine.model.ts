/**
 * The signal engine's model: the slice it reads (the card, edge and trace shapes, which statuses count
 * as closed, what a card records: its command, its link, meta values; the supports/blocks graph
 * between the slice's cards, and the evidence score, BM2) and the answer it gives (signals and
 * actions). Pure.
 */
import type { Suggestion } from "../../shared/suggestion";
import { CLOSED_STATUSES } from "../graph/card-shape";

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
const CLOSED: ReadonlySet<string> = new Set(CLOSED_STATUSES);
const CI_TAGS = new Set(["ci", "github-actions", "buildkite", "jenkins"]);
export const isActive = (card: EngineCard) => !CLOSED.has((card.status ?? "open").toLowerCase());
export function textOf(card: EngineCard): string {
  return `${card.title ?? ""}\n${card.text ?? ""}`;
}
export function metaString(card: EngineCard, ...paths: string[][]): string | undefined {
  for (const path of paths) {
    let value: unknown = card.meta;
    for (const key of path) value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value === "string" && value.length > 0) return value;
  }
  return undefined;
}
export function metaNumber(card: EngineCard, key: string): number | undefined {
  const value = card.meta?.[key];
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number > 0 ? number : undefined;
}
const CMD_LINE = /^\s*CMD:\s*(\S.*?)\s*$/im;
/** The command a test card records: meta `run.cmd` or `cmd`, else its text's first `CMD:` line. */
export function commandOf(card: EngineCard): string | undefined {
  return metaString(card, ["run", "cmd"], ["cmd"]) ?? CMD_LINE.exec(textOf(card))?.[1];
}
export function hasCommand(card: EngineCard): boolean {
  return commandOf(card) !== undefined;
}
export function hasLink(card: EngineCard): boolean {
  return (
    metaString(card, ["link"], ["url"], ["artifact"]) !== undefined ||
    /^\s*LINK:\s*\S/im.test(textOf(card)) ||
    /https?:\/\/\S+/i.test(textOf(card))
  );
}
export interface Graph {
  byId: Map<string, EngineCard>;
  supportersOf: Map<string, EngineCard[]>;
  blockersOf: Map<string, EngineCard[]>;
  supportedBy: Map<string, EngineCard[]>;
}
export function graphOf(cards: EngineCard[], edges: EngineEdge[]): Graph {
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
  /**
   * The agent the answer is for: only drafts in its own lane get a publish action, since publishing
   * another agent's draft is refused (FORBIDDEN). Without it, every draft gets one.
   */
  viewer?: string | undefined;
  limits?: { signals?: number; actions?: number };
}
