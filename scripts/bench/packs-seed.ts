/**
 * Puts a packs layout into a fresh workspace (`workspace_import` for the bulk, batched under the
 * server's limits; `think_card` for the newest cards), checks every call's seqs against the model,
 * times it, and checks what `context_pack` and `think_context` return against the model before
 * anything is measured: the exact entries and cards by seq and id, the budget of the default answer,
 * and what survives `max_chars` 2000. A store that is not what the layout claims fails the run.
 */
import { performance } from "node:perf_hooks";
import { log } from "../lib/dev-server.ts";
import type { Json, McpClient } from "../lib/mcp-http.ts";
import { type ExpectedPack, PACK_LIMITS, type PackStep, type PacksLayout, THINK_CONTEXT_CARDS } from "./packs-layout.ts";

/** Server limits of one import call (MAX_IMPORT_OPS, MAX_IMPORT_GRAPH_OPS), and a body safely under its 1 MiB cap. */
const MAX_ITEMS = 2_000;
const MAX_GRAPH_OPS_PER_CALL = 5_000;
const MAX_BODY_BYTES = 900_000;
/** The default budget profile (BUDGET_PROFILES.default in `src/shared/limits.ts`), in characters. */
export const DEFAULT_PROFILE_CHARS = 20_000;
/** The audit profile (BUDGET_PROFILES.audit): room for the untrimmed pack, whose size the report shows. */
const AUDIT_PROFILE_CHARS = 80_000;
/** The issue's small budget: the essentials must survive it. */
export const SMALL_BUDGET_CHARS = 2_000;

type ImportItem =
  | { op: "note"; doc: "notes" | "trace"; title?: string; content: string }
  | { op: "graph"; ops: Extract<PackStep, { kind: "graph" }>["op"][] };

type Call =
  | { kind: "import"; items: ImportItem[]; graphOps: number; notes: number; firstSeq: number; lastSeq: number }
  | Extract<PackStep, { kind: "think_card" }>;

export interface PacksSeeding {
  ms: number;
  calls: number;
  import_calls: number;
  think_card_calls: number;
  trace_entries: number;
  notes: number;
  cards: number;
  card_versions: number;
  status_updates: number;
  seqs: number;
  seqs_per_s: number;
  max_call_ms: number;
}

/** The next call's worth of steps, or undefined when the layout is exhausted. */
function nextCall(layout: PacksLayout, pending: { step: PackStep | undefined }): Call | undefined {
  let batch: Extract<Call, { kind: "import" }> | undefined;
  let bytes = 0;
  for (;;) {
    let step = pending.step;
    pending.step = undefined;
    if (step === undefined) {
      const next = layout.steps.next();
      step = next.done ? undefined : next.value;
    }
    if (step === undefined) return batch;
    if (step.kind === "think_card") {
      if (batch === undefined) return step;
      pending.step = step;
      return batch;
    }
    const item: ImportItem =
      step.kind === "graph"
        ? { op: "graph", ops: [step.op] }
        : step.title === undefined
          ? { op: "note", doc: step.doc, content: step.content }
          : { op: "note", doc: step.doc, title: step.title, content: step.content };
    const itemBytes = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (
      batch !== undefined &&
      (batch.items.length >= MAX_ITEMS ||
        bytes + itemBytes > MAX_BODY_BYTES ||
        (step.kind === "graph" && batch.graphOps >= MAX_GRAPH_OPS_PER_CALL))
    ) {
      pending.step = step;
      return batch;
    }
    // The layout recorded this step's seq when it produced it, and nothing was produced since.
    const seq = layout.model.seq;
    batch ??= { kind: "import", items: [], graphOps: 0, notes: 0, firstSeq: seq, lastSeq: seq };
    batch.items.push(item);
    batch.lastSeq = seq;
    bytes += itemBytes;
    if (step.kind === "graph") batch.graphOps++;
    else batch.notes++;
  }
}

async function runCall(client: McpClient, workspace: string, call: Call): Promise<number> {
  if (call.kind === "think_card") {
    const { card } = call;
    const { ms, value } = await client.callTool("think_card", {
      workspace,
      card: { id: card.id, type: card.type, title: card.title, text: card.text, status: card.status, tags: card.tags },
    });
    if (value.card_id !== card.id || value.inserted !== true || value.lane !== "shared" || value.last_seq !== call.traceSeq) {
      throw new Error(
        `think_card ${card.id} in ${workspace}: expected card ${card.id} inserted at seqs ${call.nodeSeq}-${call.traceSeq}, got ${JSON.stringify(value)}`,
      );
    }
    return ms;
  }
  const { ms, value } = await client.callTool("workspace_import", { workspace, ops: call.items });
  if (
    value.first_seq !== call.firstSeq ||
    value.last_seq !== call.lastSeq ||
    value.graph_ops_applied !== call.graphOps ||
    value.notes_imported !== call.notes
  ) {
    throw new Error(
      `seeding ${workspace}: expected seqs ${call.firstSeq}-${call.lastSeq} for ${call.notes} notes and ${call.graphOps} graph ops, ` +
        `got ${String(value.first_seq)}-${String(value.last_seq)} for ${String(value.notes_imported)} and ${String(value.graph_ops_applied)} (is the workspace fresh?)`,
    );
  }
  return ms;
}

export async function seedPacks(client: McpClient, workspace: string, layout: PacksLayout): Promise<PacksSeeding> {
  const pending: { step: PackStep | undefined } = { step: undefined };
  let imports = 0;
  let thinkCards = 0;
  let maxCall = 0;
  const started = performance.now();
  let call = nextCall(layout, pending);
  while (call !== undefined) {
    const running = runCall(client, workspace, call);
    // Build the next call while the server works on this one.
    const following = nextCall(layout, pending);
    maxCall = Math.max(maxCall, await running);
    if (call.kind === "import") imports++;
    else thinkCards++;
    if ((imports + thinkCards) % 20 === 0 || following === undefined) {
      const seconds = (performance.now() - started) / 1000;
      log(`  seeded ${layout.model.seq.toLocaleString("en-US")} seqs in ${seconds.toFixed(1)} s`);
    }
    call = following;
  }
  const ms = performance.now() - started;
  const { model } = layout;
  if (model.trace.length !== layout.size || model.cards.size !== layout.cards || model.notes.length !== layout.notes) {
    throw new Error(
      `packs layout of ${layout.size}: ${model.trace.length} trace entries, ${model.cards.size} cards, ${model.notes.length} notes`,
    );
  }
  return {
    ms,
    calls: imports + thinkCards,
    import_calls: imports,
    think_card_calls: thinkCards,
    trace_entries: model.trace.length,
    notes: model.notes.length,
    cards: model.cards.size,
    card_versions: model.cardVersions,
    status_updates: model.updates,
    seqs: model.seq,
    seqs_per_s: model.seq / (ms / 1000),
    max_call_ms: maxCall,
  };
}

// ---------------------------------------------------------------------------------------------
// Checks

type Item = Json & { trimmed?: boolean };

/** A pack's lists as the checks read them: entries by seq, cards by `id@last_seq`, and which kept their bodies. */
export interface PackLists {
  notes: Item[];
  trace: Item[];
  cards: Item[];
  decisions: Item[];
  evidence: Item[];
  blockers: Item[];
}

export const LIST_NAMES = ["notes", "trace", "cards", "decisions", "evidence", "blockers"] as const;
export type ListName = (typeof LIST_NAMES)[number];

export function packLists(pack: Json): PackLists {
  const entries = (part: unknown): Item[] => ((part as { entries?: Item[] } | undefined)?.entries ?? []) as Item[];
  const signals = (pack.signals ?? {}) as Record<string, Item[] | undefined>;
  return {
    notes: entries(pack.notes),
    trace: entries(pack.trace),
    cards: (pack.cards ?? []) as Item[],
    decisions: signals.decisions ?? [],
    evidence: signals.evidence ?? [],
    blockers: signals.blockers ?? [],
  };
}

export const keyOf = (list: ListName, item: Item): string =>
  list === "notes" || list === "trace" ? String(item.seq) : `${String(item.id)}@${String(item.last_seq)}`;

const expectedKeys = (want: ExpectedPack, list: ListName): string[] => want[list].map(String);

/** Whether `got` is `want` with some items dropped from its ends (what budget trimming may do), in order. */
function isTrimmedFrom(got: string[], want: string[]): boolean {
  if (got.length === 0) return true;
  const start = want.indexOf(got[0] ?? "");
  return start >= 0 && got.every((key, i) => want[start + i] === key);
}

/** What one list of a checked answer held: items, and items that kept their bodies (not stubbed). */
export interface ListShape {
  items: number;
  bodies: number;
}

export interface AnswerShape {
  used_chars: number;
  max_chars: number;
  truncated: boolean;
  lists: Record<ListName, ListShape>;
  /** Item keys (seq, or id@last_seq) that lost their bodies, per list. */
  stubbed: Record<ListName, string[]>;
  /** Non-empty lists whose newest expected item is missing: the budget dropped the newest items first. */
  lost_newest: ListName[];
}

function shapeOf(pack: Json): AnswerShape {
  const budget = (pack.budget ?? {}) as { used_chars?: number; max_chars?: number; truncated?: boolean };
  const lists = packLists(pack);
  const shape = {} as Record<ListName, ListShape>;
  const stubbed = {} as Record<ListName, string[]>;
  for (const name of LIST_NAMES) {
    shape[name] = { items: lists[name].length, bodies: lists[name].filter((item) => item.trimmed !== true).length };
    stubbed[name] = lists[name].filter((item) => item.trimmed === true).map((item) => keyOf(name, item));
  }
  return {
    used_chars: budget.used_chars ?? Number.NaN,
    max_chars: budget.max_chars ?? Number.NaN,
    truncated: budget.truncated === true,
    lists: shape,
    stubbed,
    lost_newest: [],
  };
}

/** The list's newest item: tails are oldest first, cards and signals newest first. */
const newestOf = (name: ListName, keys: string[]): string | undefined =>
  name === "notes" || name === "trace" ? keys[keys.length - 1] : keys[0];

/**
 * Checks a `context_pack` answer against the model. `exact`: every list holds exactly the expected
 * items (bodies may be stubbed); otherwise each list may have lost items from its ends. Always: the
 * budget was honoured (`used_chars` ≤ `maxChars`). Returns the answer's shape.
 */
export function checkPack(where: string, pack: Json, want: ExpectedPack, maxChars: number, exact: boolean): AnswerShape {
  const shape = shapeOf(pack);
  if (!(shape.used_chars <= maxChars)) throw new Error(`${where}: budget.used_chars ${shape.used_chars} exceeds ${maxChars}`);
  const lists = packLists(pack);
  for (const name of LIST_NAMES) {
    const got = lists[name].map((item) => keyOf(name, item));
    const expected = expectedKeys(want, name);
    const ok = exact ? got.join(" ") === expected.join(" ") : isTrimmedFrom(got, expected);
    if (!ok) throw new Error(`${where}: ${name}: expected ${exact ? "" : "a run of "}[${expected.join(", ")}], got [${got.join(", ")}]`);
    if (got.length > 0 && !got.includes(newestOf(name, expected) ?? "")) shape.lost_newest.push(name);
  }
  return shape;
}

/** `think_context` must return exactly the model's newest cards. */
export function checkThinkContext(where: string, value: Json, want: ExpectedPack): AnswerShape {
  const cards = ((value.cards ?? []) as Item[]).map((card) => keyOf("cards", card));
  if (cards.join(" ") !== want.cards.join(" "))
    throw new Error(`${where}: expected cards [${want.cards.join(", ")}], got [${cards.join(", ")}]`);
  const shape = shapeOf({ cards: value.cards, budget: value.budget });
  if (!(shape.used_chars <= DEFAULT_PROFILE_CHARS))
    throw new Error(`${where}: budget.used_chars ${shape.used_chars} exceeds ${DEFAULT_PROFILE_CHARS}`);
  return shape;
}

/** What the checks before measuring found: the shapes of the default, audit and small-budget answers. */
export interface PackCheck {
  expected: { notes: number; trace: number; cards: number; decisions: number; evidence: number; blockers: number };
  /** `context_pack {workspace}`: the default profile. */
  default: AnswerShape;
  /** `context_pack {budget_profile: "audit"}`: the untrimmed pack (its size is what the default profile trims). */
  audit: AnswerShape;
  /** `context_pack {max_chars: 2000}`. */
  small: AnswerShape;
  think_context: AnswerShape;
}

async function call(client: McpClient, tool: string, args: Json): Promise<Json> {
  try {
    return (await client.callTool(tool, args)).value;
  } catch (error) {
    throw new Error(`${tool} ${JSON.stringify(args)}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The checks before measuring; see the module comment. */
export async function verifyPacks(client: McpClient, workspace: string, want: ExpectedPack): Promise<PackCheck> {
  const where = (args: string): string => `context_pack ${args} on ${workspace}`;
  const audit = checkPack(
    where("audit"),
    await call(client, "context_pack", { workspace, budget_profile: "audit" }),
    want,
    AUDIT_PROFILE_CHARS,
    true,
  );
  if (audit.truncated) throw new Error(`${where("audit")}: the untrimmed pack does not fit the audit profile`);
  const full = checkPack(where("{workspace}"), await call(client, "context_pack", { workspace }), want, DEFAULT_PROFILE_CHARS, true);
  const small = checkPack(
    where(`max_chars ${SMALL_BUDGET_CHARS}`),
    await call(client, "context_pack", { workspace, max_chars: SMALL_BUDGET_CHARS }),
    want,
    SMALL_BUDGET_CHARS,
    false,
  );
  if (small.lists.decisions.items === 0)
    throw new Error(`${where(`max_chars ${SMALL_BUDGET_CHARS}`)}: the decisions signal did not survive`);
  const think = checkThinkContext(
    `think_context on ${workspace}`,
    await call(client, "think_context", { workspace, limit_cards: THINK_CONTEXT_CARDS }),
    want,
  );
  return {
    expected: {
      notes: PACK_LIMITS.notes,
      trace: PACK_LIMITS.trace,
      cards: PACK_LIMITS.cards,
      decisions: want.decisions.length,
      evidence: want.evidence.length,
      blockers: want.blockers.length,
    },
    default: full,
    audit,
    small,
    think_context: think,
  };
}
