/**
 * The packs suite's store layout and its model: a deterministic stream of writes (trace entries,
 * cards, status updates, notes) in the order a long working session would make them, recorded in a
 * `PacksModel` as they are produced, so the benchmark knows every seq and can derive exactly what
 * `context_pack` and `think_context` must return before it measures them.
 *
 * For n trace entries (all on `main`, one seq clock for entries and graph versions):
 * - trace entry j (doc `trace`) is, by j mod 5: 0, the trace note of a new card `c<j/5>` (the card's
 *   graph node in doc `graph` is written just before it, as `think_card` does); 2, for one slot in 4,
 *   the trace note of a status update of an older card (a new version of its node, just before it);
 *   otherwise a plain step. So there are n/5 cards, about n/20 status updates, and n trace entries;
 * - 2,000 notes in doc `notes`, one after every floor(n/2,000)-th trace entry;
 * - the newest 5 cards go through `think_card` (node and trace note in one call), the rest through
 *   `workspace_import` (node_upsert graph items, note items with `doc: "trace"`).
 *
 * Cards have one of the 8 card types, a status (decisions and evidence `accepted`, questions `open`,
 * some tests and other cards `blocked`, the rest `open`; updates move them on), 2 tags and
 * `meta: {lane: "shared"}`.
 */
import { noteText } from "./layout.ts";

/** The workspace: 20k cards for 100k trace entries (one trace entry in 5 is a card's note). */
export const CARD_EVERY = 5;
/** The workspace: 2,000 notes whatever the size. */
export const PACK_NOTES = 2_000;
/** Newest cards written through `think_card`, so the head of the pack is what the real write path makes. */
export const THINK_CARD_WRITES = 5;
/** Smallest size: 2,000 notes need at least one note per 5 trace entries. */
export const MIN_PACK_SIZE = 10_000;
/** `context_pack`'s defaults (DEFAULTS in `src/capabilities/think/packs.commands.ts`). */
export const PACK_LIMITS = { notes: 20, trace: 50, cards: 30, signals: 5 } as const;
/** `think_context`'s default slice, passed explicitly. */
export const THINK_CONTEXT_CARDS = 30;
/** The server examines at most this many versions per source for a card page (MAX_EXAMINED_PER_SOURCE). */
export const EXAMINED_PER_SOURCE = 1_000;
/** Status updates target cards at least this many cards old, so never one written by `think_card`. */
export const UPDATE_MIN_AGE = 10;
/** ... and at most this many cards older than that (recent work gets revisited). */
export const UPDATE_SPAN = 200;

export const CARD_TYPES = ["frame", "hypothesis", "question", "test", "evidence", "decision", "note", "update"] as const;
export type CardType = (typeof CARD_TYPES)[number];

const TAGS = ["cache", "storage", "latency", "merge", "index", "api", "budget", "infra", "docs", "risk"];

export interface CardFields {
  id: string;
  type: CardType;
  title: string;
  text: string;
  status: string;
  tags: string[];
}

export type NodeUpsert = CardFields & { op: "node_upsert"; meta: { lane: string } };

export type PackStep =
  | { kind: "note"; doc: "notes" | "trace"; title?: string; content: string }
  | { kind: "graph"; op: NodeUpsert }
  | { kind: "think_card"; card: CardFields; nodeSeq: number; traceSeq: number };

/** What a pack list must hold: entries by seq, cards by `id@last_seq`. */
export interface ExpectedPack {
  notes: number[];
  trace: number[];
  cards: string[];
  decisions: string[];
  evidence: string[];
  blockers: string[];
}

/** A deterministic 32-bit hash of (i, salt). */
function hash(i: number, salt: number): number {
  let x = Math.imul(i + 1, 2654435761) ^ Math.imul(salt + 7, 40503);
  x = Math.imul(x ^ (x >>> 15), 2246822507);
  x = Math.imul(x ^ (x >>> 13), 3266489909);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Deterministic filler of `min`-`max` characters (the notes suite's word list). */
function filler(seed: number, label: string, min: number, max: number): string {
  const text = noteText(seed, label);
  return text.slice(0, min + (hash(seed, 9) % (max - min + 1)));
}

/** Cards are blockers when marked blocked, or when they are questions still open (the server's rule). */
export const isBlocker = (type: string, status: string): boolean => status === "blocked" || (type === "question" && status === "open");

function initialStatus(k: number, type: CardType): string {
  const h = hash(k, 5);
  switch (type) {
    case "decision":
    case "evidence":
      return "accepted";
    case "question":
    case "hypothesis":
      return "open";
    case "test":
      return h % 4 === 0 ? "blocked" : "open";
    default:
      return h % 10 === 0 ? "blocked" : "open";
  }
}

/** A status different from `status`, as a later step of the work would set it. */
function nextStatus(card: { type: string; status: string }, salt: number): string {
  if (card.status === "blocked") return "open";
  const next =
    card.type === "hypothesis"
      ? hash(salt, 6) % 2 === 0
        ? "accepted"
        : "rejected"
      : card.type === "question"
        ? "answered"
        : card.type === "test"
          ? "passed"
          : "done";
  return next === card.status ? "revised" : next;
}

function newCard(k: number): CardFields {
  const type = CARD_TYPES[hash(k, 4) % CARD_TYPES.length] ?? "note";
  const id = `c${k}`;
  return {
    id,
    type,
    title: filler(k, `${type} ${id}`, 24, 48),
    text: filler(k + 7_000_000, `${id} because`, 60, 140),
    status: initialStatus(k, type),
    tags: [TAGS[hash(k, 7) % TAGS.length] ?? "api", TAGS[hash(k, 8) % TAGS.length] ?? "docs"],
  };
}

/** Every seq the layout writes, and the current state of every card. */
export class PacksModel {
  /** The last seq written. */
  seq = 0;
  readonly notes: number[] = [];
  readonly trace: number[] = [];
  readonly cards = new Map<string, CardFields & { seq: number }>();
  cardVersions = 0;
  updates = 0;

  note(doc: "notes" | "trace"): number {
    this.seq++;
    (doc === "notes" ? this.notes : this.trace).push(this.seq);
    return this.seq;
  }

  card(fields: CardFields): number {
    this.seq++;
    this.cardVersions++;
    this.cards.set(fields.id, { ...fields, tags: [...fields.tags], seq: this.seq });
    return this.seq;
  }

  /**
   * What the pack must return: the tails oldest first, the cards and each signal newest first by the
   * seq of their current version. Throws when a signal's cards lie beyond the server's examination
   * bound, where the server would legitimately return a short list: the layout is then too sparse.
   */
  expected(limits: { notes: number; trace: number; cards: number; signals: number }): ExpectedPack {
    const current = [...this.cards.values()].sort((a, b) => b.seq - a.seq);
    const key = (card: { id: string; seq: number }): string => `${card.id}@${card.seq}`;
    const signal = (name: string, keep: (card: CardFields) => boolean): string[] => {
      const found: string[] = [];
      for (let i = 0; i < current.length && found.length < limits.signals; i++) {
        const card = current[i];
        if (card === undefined || !keep(card)) continue;
        if (i >= EXAMINED_PER_SOURCE)
          throw new Error(`packs layout: the ${name} signal reaches beyond the newest ${EXAMINED_PER_SOURCE} cards`);
        found.push(key(card));
      }
      if (found.length < limits.signals) throw new Error(`packs layout: only ${found.length} ${name} cards`);
      return found;
    };
    return {
      notes: this.notes.slice(-limits.notes),
      trace: this.trace.slice(-limits.trace),
      cards: current.slice(0, limits.cards).map(key),
      decisions: signal("decisions", (card) => card.type === "decision"),
      evidence: signal("evidence", (card) => card.type === "evidence"),
      blockers: signal("blockers", (card) => isBlocker(card.type, card.status)),
    };
  }
}

export interface PacksLayout {
  size: number;
  cards: number;
  notes: number;
  model: PacksModel;
  steps: Generator<PackStep>;
}

/** One note in doc `notes` after every this-many trace entries. */
export const noteSpacing = (size: number): number => Math.floor(size / PACK_NOTES);

function* steps(size: number, model: PacksModel): Generator<PackStep> {
  const cards = size / CARD_EVERY;
  const spacing = noteSpacing(size);
  const created: CardFields[] = [];
  let notes = 0;
  const traceNote = (title: string, content: string): PackStep => {
    model.note("trace");
    return { kind: "note", doc: "trace", title, content };
  };
  const node = (fields: CardFields): PackStep => {
    model.card(fields);
    return { kind: "graph", op: { op: "node_upsert", ...fields, tags: [...fields.tags], meta: { lane: "shared" } } };
  };
  for (let j = 0; j < size; j++) {
    const k = Math.floor(j / CARD_EVERY);
    if (j % CARD_EVERY === 0) {
      const card = newCard(k);
      created.push(card);
      if (k >= cards - THINK_CARD_WRITES) {
        const nodeSeq = model.card(card);
        const traceSeq = model.note("trace");
        yield { kind: "think_card", card, nodeSeq, traceSeq };
      } else {
        yield node(card);
        // What think_card writes to the trace: title, and the text as content.
        yield traceNote(card.title, card.text);
      }
    } else if (j % CARD_EVERY === 2 && hash(j, 3) % 4 === 0 && k >= UPDATE_MIN_AGE) {
      const target = created[k - UPDATE_MIN_AGE - (hash(j, 2) % Math.min(UPDATE_SPAN, k - UPDATE_MIN_AGE + 1))];
      if (target === undefined) throw new Error(`packs layout: no card to update at trace entry ${j}`);
      target.status = nextStatus(target, j);
      model.updates++;
      yield node(target);
      yield traceNote(`status ${target.id}`, `${target.id} is now ${target.status}: ${filler(j, "update", 20, 60)}`);
    } else {
      yield traceNote(`step ${j}`, filler(j + 3_000_000, "observed", 60, 160));
    }
    if ((j + 1) % spacing === 0 && notes < PACK_NOTES) {
      notes++;
      model.note("notes");
      const seq = model.seq;
      yield notes % 8 === 0
        ? { kind: "note", doc: "notes", title: `note ${notes}`, content: noteText(seq, "note") }
        : { kind: "note", doc: "notes", content: noteText(seq, "note") };
    }
  }
}

export function buildPacksLayout(size: number): PacksLayout {
  if (size < MIN_PACK_SIZE || size % CARD_EVERY !== 0) {
    throw new Error(`pack size ${size} must be at least ${MIN_PACK_SIZE} and a multiple of ${CARD_EVERY}`);
  }
  const model = new PacksModel();
  return { size, cards: size / CARD_EVERY, notes: PACK_NOTES, model, steps: steps(size, model) };
}
