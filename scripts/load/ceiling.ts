/**
 * What the local stack itself can carry, measured by the load test before its agents start, at the
 * agents' concurrency: how many `GET /health` requests (answered by the Worker alone: no MCP, no
 * Durable Object) the server answers per second, and then, side by side on the hot workspace, three
 * phases per round: `ping` calls (the no-op command through the whole stack: the write ceiling),
 * acknowledged note writes (`notes_commit`, each with an idempotency key, as the agents write notes) and
 * acknowledged card writes (`think_card`, each with an idempotency key: a graph node, its term-index rows
 * and a trace note in one transaction). The phases follow each other for CEILING_ROUNDS rounds so the
 * machine's drift falls on all three; each rate is the median of its rounds.
 *
 * With a second server (`--compare-root`: a checkout of an earlier revision), every round runs the three
 * phases on each server in turn, in an order that rotates from round to round, and the report sets the
 * two revisions' rates side by side.
 *
 * The writes go to documents of their own (CEILING_DOC for notes, CEILING_GRAPH_DOC and
 * CEILING_TRACE_DOC for cards, apart from the agents' `notes`, `graph` and `trace`) and are read back
 * (`show` pages and `think_query` pages): every acknowledged one exactly once.
 */
import { performance } from "node:perf_hooks";
import { statsOf } from "../bench/stats.ts";
import { type Json, type McpClient, requestSignal, timedFetch } from "../lib/mcp-http.ts";
import { pageShow } from "./verify.ts";

/** Length of one phase: long enough for a stable rate (hundreds of calls), short next to the run itself. */
export const CEILING_SECONDS = 3;
/**
 * Rounds of ping, note and card phases: an odd count, so each median is one phase's rate. Three rounds
 * of 2 s gave single-round ratios from 0.65 to 0.88 in one run; five of 3 s steady the medians.
 */
export const CEILING_ROUNDS = 5;
/** The hot workspace's document the ceiling's notes go to, apart from the agents' `notes`. */
export const CEILING_DOC = "ceiling";
/** The graph and trace documents the ceiling's cards go to, apart from the agents' `graph` and `trace`. */
export const CEILING_GRAPH_DOC = "ceiling-graph";
export const CEILING_TRACE_DOC = "ceiling-trace";
/** Targets, reported and never asserted: writes at the ceiling against ping, and card writes against the earlier revision. */
export const TARGET_NOTES_RATIO = 0.8;
export const TARGET_CARDS_AGAINST_BEFORE = 0.9;
/** Cards per `think_query` page of the read-back (its largest limit). */
const CARD_PAGE = 200;

/** One server the ceiling is measured on. */
export interface CeilingTarget {
  /** `now` (this checkout) or `before` (`--compare-root`). */
  label: string;
  base: string;
  client: McpClient;
}

export interface RoundRates {
  ping_per_s: number;
  notes_per_s: number;
  cards_per_s: number;
}

/** Acknowledged writes of one kind and what the read-back found of them. */
export interface ReadBack {
  acked: number;
  /** Acknowledged writes read back (at least once). */
  found: number;
  /** Acknowledged writes not read back. */
  lost: number;
  /** Markers read back more than once. */
  duplicated: number;
  /** Rows read back in all. */
  rows: number;
}

export interface RevisionCeiling extends RoundRates {
  label: string;
  health_per_s: number;
  /** notes_per_s / ping_per_s and cards_per_s / ping_per_s (medians of the rounds). */
  notes_ratio: number;
  cards_ratio: number;
  /** Each round's rates, in round order. */
  rounds: RoundRates[];
  notes: ReadBack;
  cards: ReadBack;
}

export interface Ceiling {
  concurrency: number;
  workspace: string;
  rounds: number;
  phase_seconds: number;
  /** This checkout first, then the earlier revision when compared. */
  revisions: RevisionCeiling[];
  /** Each round's order of the servers (labels), when compared. */
  orders: string[][];
  /**
   * now / before, when compared: of each median (`ping`, `notes`, `cards`), of think_card's ratio to ping
   * (`cards_ratio`: net of the two servers' ping), and of the card phases round by round (`cards_by_round`,
   * the two phases of a pair at most a few seconds apart) with their median.
   */
  comparison: {
    ping: number;
    notes: number;
    cards: number;
    cards_ratio: number;
    cards_by_round: number[];
    cards_by_round_median: number;
  } | null;
}

async function rate(concurrency: number, call: () => Promise<unknown>): Promise<number> {
  let done = 0;
  const started = performance.now();
  const end = started + CEILING_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await call();
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/** Every card of the graph doc, every lane, newest first: `think_query` pages of CARD_PAGE, at most `maxPages`. */
export async function pageCards(client: McpClient, ws: string, graphDoc: string, maxPages: number): Promise<Json[]> {
  const cards: Json[] = [];
  let cursor: number | undefined;
  for (let page = 0; page < maxPages; page++) {
    const args: Json = { workspace: ws, branch: "main", graph_doc: graphDoc, all_lanes: true, limit: CARD_PAGE, max_chars: 1_000_000 };
    if (cursor !== undefined) args.cursor = cursor;
    const { value } = await client.callTool("think_query", args);
    const batch = (value.cards as Json[] | undefined) ?? [];
    cards.push(...batch);
    const next = (value.pagination as Json | undefined)?.next_cursor;
    if (typeof next !== "number" || batch.length === 0) return cards;
    cursor = next;
  }
  throw new Error(`think_query on ${ws}/${graphDoc}: more than ${maxPages} pages of ${CARD_PAGE} cards`);
}

function readBack(acked: ReadonlySet<string>, markers: readonly string[]): ReadBack {
  const count = new Map<string, number>();
  for (const marker of markers) count.set(marker, (count.get(marker) ?? 0) + 1);
  const found = [...acked].filter((marker) => (count.get(marker) ?? 0) >= 1).length;
  return {
    acked: acked.size,
    found,
    lost: acked.size - found,
    duplicated: [...count.values()].filter((n) => n > 1).length,
    rows: markers.length,
  };
}

const firstWord = (text: unknown): string => String(text ?? "").split(" ")[0] ?? "";

/** One server's phases, its writes and their markers. */
class Phases {
  readonly rounds: RoundRates[] = [];
  healthPerS = 0;
  private written = 0;
  private readonly notes = new Set<string>();
  private readonly cards = new Set<string>();

  readonly target: CeilingTarget;
  private readonly workspace: string;
  private readonly concurrency: number;
  private readonly signal: AbortSignal;

  constructor(target: CeilingTarget, workspace: string, concurrency: number, signal: AbortSignal) {
    this.target = target;
    this.workspace = workspace;
    this.concurrency = concurrency;
    this.signal = signal;
  }

  async health(): Promise<void> {
    const { base } = this.target;
    this.healthPerS = await rate(this.concurrency, async () => {
      const { response, text } = await timedFetch(`${base}/health`, { signal: requestSignal(this.signal) });
      if (response.status !== 200) throw new Error(`GET ${base}/health: HTTP ${response.status}: ${text.slice(0, 200)}`);
    });
  }

  async round(): Promise<void> {
    const { client } = this.target;
    const workspace = this.workspace;
    const ping = await rate(this.concurrency, () => client.callTool("ping", { workspace }));
    const notes = await rate(this.concurrency, async () => {
      const marker = `ceiling-note-${++this.written}`;
      await client.callTool("notes_commit", {
        workspace,
        branch: "main",
        doc: CEILING_DOC,
        content: `${marker} note body`,
        idempotency_key: marker,
      });
      this.notes.add(marker);
    });
    const cards = await rate(this.concurrency, async () => {
      const marker = `ceiling-card-${++this.written}`;
      // No id: the server names each card (CARD-<n>), as a new card each call; the key makes a retry a replay.
      await client.callTool("think_card", {
        workspace,
        branch: "main",
        graph_doc: CEILING_GRAPH_DOC,
        trace_doc: CEILING_TRACE_DOC,
        card: { type: "note", title: "ceiling card", text: `${marker} card body` },
        idempotency_key: marker,
      });
      this.cards.add(marker);
    });
    this.rounds.push({ ping_per_s: ping, notes_per_s: notes, cards_per_s: cards });
  }

  async result(): Promise<RevisionCeiling> {
    const { client, label } = this.target;
    const notes = await pageShow(client, this.workspace, CEILING_DOC);
    // Bounded: twice the pages the acknowledged cards fill, and a few more (unacknowledged writes may have landed).
    const maxPages = Math.ceil((2 * this.cards.size) / CARD_PAGE) + 10;
    const cards = await pageCards(client, this.workspace, CEILING_GRAPH_DOC, maxPages);
    const median = (pick: (r: RoundRates) => number) => statsOf(this.rounds.map(pick)).median_ms;
    const ping = median((r) => r.ping_per_s);
    const notesPerS = median((r) => r.notes_per_s);
    const cardsPerS = median((r) => r.cards_per_s);
    return {
      label,
      health_per_s: this.healthPerS,
      ping_per_s: ping,
      notes_per_s: notesPerS,
      cards_per_s: cardsPerS,
      notes_ratio: notesPerS / ping,
      cards_ratio: cardsPerS / ping,
      rounds: this.rounds,
      notes: readBack(
        this.notes,
        notes.map((entry) => firstWord(entry.content)),
      ),
      cards: readBack(
        this.cards,
        cards.map((card) => firstWord(card.text)),
      ),
    };
  }
}

/**
 * Measures the ceiling on `targets` (this checkout first; an earlier revision second, when compared):
 * GET /health on each, then CEILING_ROUNDS rounds of ping, notes_commit and think_card phases on each
 * in turn, the servers' order rotating by one per round; then reads every server's writes back.
 */
export async function measureCeiling(
  targets: readonly CeilingTarget[],
  workspace: string,
  concurrency: number,
  signal: AbortSignal,
): Promise<Ceiling> {
  const phases = targets.map((target) => new Phases(target, workspace, concurrency, signal));
  for (const server of phases) await server.health();
  const orders: string[][] = [];
  for (let round = 0; round < CEILING_ROUNDS; round++) {
    const order = phases.map((_, i) => phases[(i + round) % phases.length] as Phases);
    orders.push(order.map((server) => server.target.label));
    for (const server of order) await server.round();
  }
  const revisions: RevisionCeiling[] = [];
  for (const server of phases) revisions.push(await server.result());
  const [now, before] = revisions;
  const byRound =
    now === undefined || before === undefined
      ? []
      : now.rounds.map((r, i) => r.cards_per_s / (before.rounds[i]?.cards_per_s ?? Number.NaN));
  return {
    concurrency,
    workspace,
    rounds: CEILING_ROUNDS,
    phase_seconds: CEILING_SECONDS,
    revisions,
    orders: phases.length > 1 ? orders : [],
    comparison:
      now === undefined || before === undefined
        ? null
        : {
            ping: now.ping_per_s / before.ping_per_s,
            notes: now.notes_per_s / before.notes_per_s,
            cards: now.cards_per_s / before.cards_per_s,
            cards_ratio: now.cards_ratio / before.cards_ratio,
            cards_by_round: byRound,
            cards_by_round_median: statsOf(byRound).median_ms,
          },
  };
}

/** The summary's lines for the ceiling: each revision's rates and ratios, its rounds, its read-back, and the comparison. */
export function ceilingLines(ceiling: Ceiling, compareRoot: string | undefined): string[] {
  const f0 = (n: number) => n.toFixed(0);
  const f2 = (n: number) => n.toFixed(2);
  const lines: string[] = [];
  const compared = ceiling.revisions.length > 1;
  for (const r of ceiling.revisions) {
    const name = compared ? (r.label === "now" ? "now (this checkout)" : `before (${compareRoot ?? "--compare-root"})`) : "";
    const at = `${ceiling.concurrency} concurrent, median of ${ceiling.rounds} rounds of ${ceiling.phase_seconds}-s phases on ${ceiling.workspace}`;
    lines.push(
      `stack ceiling${compared ? ` ${name}` : " before the run"}, ${ceiling.concurrency} concurrent: GET /health ${f0(r.health_per_s)}/s (Worker only), ping ${f0(r.ping_per_s)}/s (the no-op command through MCP and the Durable Object)`,
      `writes at the ceiling${compared ? ` ${r.label}` : ""} (${at}): ` +
        `notes_commit ${f0(r.notes_per_s)}/s = ${f2(r.notes_ratio)} of ping (target ≥ ${f2(TARGET_NOTES_RATIO)}), ` +
        `think_card ${f0(r.cards_per_s)}/s = ${f2(r.cards_ratio)} of ping`,
      `  rounds${compared ? ` ${r.label}` : ""} (ping/notes/cards per s): ${r.rounds.map((x) => `${f0(x.ping_per_s)}/${f0(x.notes_per_s)}/${f0(x.cards_per_s)}`).join(", ")}`,
      `  read back${compared ? ` ${r.label}` : ""}: notes ${r.notes.found} of ${r.notes.acked} acknowledged (lost ${r.notes.lost}, duplicated ${r.notes.duplicated}) from ${CEILING_DOC}; ` +
        `cards ${r.cards.found} of ${r.cards.acked} acknowledged (lost ${r.cards.lost}, duplicated ${r.cards.duplicated}) from ${CEILING_GRAPH_DOC}`,
    );
  }
  const c = ceiling.comparison;
  if (c !== null) {
    lines.push(
      `now / before: think_card ${f2(c.cards)} (target ≥ ${f2(TARGET_CARDS_AGAINST_BEFORE)}), notes_commit ${f2(c.notes)}, ping ${f2(c.ping)}; ` +
        `think_card's ratio to ping, now over before, ${f2(c.cards_ratio)}`,
      `  think_card now / before round by round: ${c.cards_by_round.map(f2).join(", ")} (median ${f2(c.cards_by_round_median)}); ` +
        `servers' order per round ${ceiling.orders.map((o) => o.join(" then ")).join(", ")}`,
    );
  }
  return lines;
}

/** Lost and duplicated ceiling writes over every revision: any is a failure. */
export function ceilingFailures(ceiling: Ceiling): number {
  return ceiling.revisions.reduce((sum, r) => sum + r.notes.lost + r.notes.duplicated + r.cards.lost + r.cards.duplicated, 0);
}
