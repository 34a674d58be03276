/**
 * The records suite's project layout and its model, as pure data: which records a project of n
 * records holds (type, title, summary, body, state, parent), in id order, so the benchmark knows what
 * `search_records`, `activate` and `get_record_ref` must answer before it measures them.
 *
 * For n records, imported in id order into a fresh workspace (R001 … Rn):
 * - R001, a root, and R002 ("the big record"), its only child, with BIG_CHILDREN children: every other
 *   one OPEN, the others LATER, RESOLVED or DISCARDED in turn. Every GRANDCHILD_EVERY-th child gets
 *   GRANDCHILDREN_EACH children of its own, written right after it (so ids interleave);
 * - the rest "spread": one in ROOT_EVERY is a new root, every other record is the child of a recent
 *   record: one of the PARENT_WINDOW spread records before it, chosen by a hash, above depth
 *   MAX_SPREAD_DEPTH and with fewer than MAX_FANOUT children (a new root after PARENT_TRIES misses);
 *   6 in 10 OPEN, 2 RESOLVED (by R001), 1 LATER, 1 DISCARDED;
 * - text: titles of 4-8 words, summaries of one or two sentences, bodies of 3-6 sentences (about
 *   300-600 characters), drawn from a vocabulary of design words with Zipf frequencies (the most common
 *   word is in nearly every record, the least common in a few percent), so the search index has real
 *   posting lists; RARE_WORD is put in RARE_RECORDS records spread over the project (2 in a title).
 *
 * The model counts, per word, the records whose title, summary or body holds it (FTS5's unicode61
 * tokenizer on ASCII text: lowercase runs of letters and digits), and picks the measured words: the
 * vocabulary word in closest to COMMON_SHARE of the records, and RARE_WORD.
 */

export type RecordState = "OPEN" | "LATER" | "RESOLVED" | "DISCARDED";

/** The record: 1,000 children, half of them OPEN. */
export const BIG_CHILDREN = 1_000;
export const GRANDCHILD_EVERY = 4;
export const GRANDCHILDREN_EACH = 3;
export const ROOT_EVERY = 250;
export const PARENT_WINDOW = 2_000;
export const MAX_SPREAD_DEPTH = 8;
export const MAX_FANOUT = 20;
export const PARENT_TRIES = 8;
/** The common word of the measured searches is in about this share of the records. */
export const COMMON_SHARE = 0.1;
export const RARE_WORD = "obsidian";
export const RARE_RECORDS = 12;
/** Smallest size: the big record's tree (1,752 records) and a spread several times larger. */
export const MIN_RECORD_SIZE = 5_000;
/** Loading bounds of a bundle (MAX_BUNDLE_CHILDREN, MAX_BUNDLE_GRANDCHILDREN in `src/capabilities/records/records.schema.ts`). */
export const BUNDLE_CHILDREN = 100;
export const BUNDLE_GRANDCHILDREN = 200;
/**
 * search_records' default page (DEFAULT_SEARCH_LIMIT), the cap of its total (MAX_COUNTED_MATCHES) and
 * how many of the newest matches it ranks (MAX_RANKED_MATCHES); the cap of the overview's totals
 * (MAX_COUNTED_RECORDS).
 */
export const SEARCH_LIMIT = 20;
export const SEARCH_COUNT_CAP = 1_000;
export const RANKED_MATCHES = 500;
export const COUNT_CAP = 10_000;

const LATER_REASON = "Revisit once the storage decision is made";
const DISCARD_REASON = "Superseded by a simpler design";

/** A `workspace_import` record op, exactly as sent. */
export interface RecordOp {
  op: "record";
  parent_id?: string;
  type: string;
  title: string;
  summary: string;
  body: string;
  state: RecordState;
  reason?: string;
  resolved_by?: string;
}

export interface RecordsLayout {
  size: number;
  /** ops[i] creates record number i + 1. */
  ops: RecordOp[];
  /** parent[num] = the parent's number (0 for a root); depth[num], 1 for a root. Index 0 unused. */
  parent: Int32Array;
  depth: Int8Array;
  /** children_count per number. */
  childCount: Int32Array;
  bigNum: number;
  /** The big record's first grandchild: a record with a parent and no children (the reference activation). */
  leafNum: number;
  roots: number;
  states: Record<RecordState, number>;
  maxDepth: number;
  /** Records (by number) holding each vocabulary word and RARE_WORD. */
  df: Map<string, number>;
  commonWord: string;
  rareWord: string;
}

export const recordId = (num: number): string => `R${String(num).padStart(3, "0")}`;

// ---- text ----------------------------------------------------------------------------------------

/** Design-discussion words, most frequent first (Zipf rank = position + 1). */
const VOCABULARY = (
  "the storage data we should use for cache write read index query latency session record design option " +
  "because durable object request worker sqlite table schema budget token agent tick version conflict branch " +
  "merge search page limit cost edge region replica consistency transaction commit rollback lock lease queue " +
  "batch stream event journal snapshot migration backup restore retention quota throttle retry timeout error " +
  "failure recovery monitor metric trace log alert dashboard deploy release rollout canary feature flag config " +
  "secret key rotation auth permission role scope tenant workspace project user client server proxy gateway " +
  "router handler middleware payload header body response status protocol transport socket connection pool " +
  "thread isolate runtime memory heap garbage compile bundle module package dependency library framework " +
  "interface contract boundary layer service domain model entity aggregate invariant validation parser " +
  "serializer encoder format json binary compression checksum hash shard partition key range scan seek sort " +
  "filter join aggregate count total cursor offset pagination ranking relevance snippet tokenizer stemming " +
  "vocabulary posting segment compaction vacuum fragment overflow bloom estimate sample median percentile " +
  "histogram benchmark baseline regression profile flame bottleneck hotspot contention fairness priority " +
  "deadline schedule alarm cron backoff jitter idempotent duplicate ordering causal clock drift skew " +
  "watermark checkpoint resume handoff capsule focus step plan task evidence hypothesis decision question " +
  "conclusion assumption risk tradeoff constraint requirement milestone roadmap owner reviewer approval audit"
)
  .split(" ")
  .filter((word, index, all) => all.indexOf(word) === index);

const TYPES_SPREAD = ["question", "option", "note", "conclusion", "decision", "idea"] as const;
const TYPES_CHILDREN = ["option", "note", "question", "conclusion"] as const;

/** Cumulative Zipf weights (s = 1) over the vocabulary. */
const CUMULATIVE = (() => {
  const out: number[] = [];
  let sum = 0;
  for (let rank = 1; rank <= VOCABULARY.length; rank++) {
    sum += 1 / rank;
    out.push(sum);
  }
  return out.map((value) => value / sum);
})();

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function zipfWord(next: () => number): string {
  const u = next();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((CUMULATIVE[mid] as number) < u) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo] as string;
}

function words(next: () => number, min: number, max: number): string[] {
  const count = min + Math.floor(next() * (max - min + 1));
  return Array.from({ length: count }, () => zipfWord(next));
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const sentence = (next: () => number): string => `${capitalize(words(next, 8, 16).join(" "))}.`;
const sentences = (next: () => number, min: number, max: number): string =>
  Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, () => sentence(next)).join(" ");

/** FTS5 unicode61 on ASCII text: lowercase runs of letters and digits. */
export function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 0);
}

// ---- layout --------------------------------------------------------------------------------------

export function buildRecordsLayout(size: number): RecordsLayout {
  if (size < MIN_RECORD_SIZE) throw new Error(`a records layout needs at least ${MIN_RECORD_SIZE} records, got ${size}`);
  const ops: RecordOp[] = [];
  const parent = new Int32Array(size + 1);
  const depth = new Int8Array(size + 1);
  const childCount = new Int32Array(size + 1);
  const states: Record<RecordState, number> = { OPEN: 0, LATER: 0, RESOLVED: 0, DISCARDED: 0 };
  const rareNums: number[] = [];
  // The spread starts after the big record's tree; RARE_RECORDS of its records get the rare word.
  const spreadStart = 2 + BIG_CHILDREN + (BIG_CHILDREN / GRANDCHILD_EVERY) * GRANDCHILDREN_EACH + 1;
  for (let k = 0; k < RARE_RECORDS; k++) rareNums.push(spreadStart + Math.floor(((k + 0.5) * (size - spreadStart)) / RARE_RECORDS));

  const add = (type: string, parentNum: number, state: RecordState): number => {
    const num = ops.length + 1;
    const next = rng(num * 2654435761);
    let title = capitalize(words(next, 4, 8).join(" "));
    const summary = sentences(next, 1, 2);
    let body = sentences(next, 3, 6);
    const rare = rareNums.indexOf(num);
    if (rare >= 0) {
      body = `${body} The ${RARE_WORD} prototype settles it.`;
      if (rare % 6 === 0) title = `${title} ${RARE_WORD}`;
    }
    const op: RecordOp = { op: "record", type, title, summary, body, state };
    if (parentNum > 0) op.parent_id = recordId(parentNum);
    if (state === "LATER") op.reason = LATER_REASON;
    if (state === "DISCARDED") op.reason = DISCARD_REASON;
    if (state === "RESOLVED") op.resolved_by = recordId(1);
    ops.push(op);
    parent[num] = parentNum;
    depth[num] = parentNum === 0 ? 1 : (depth[parentNum] as number) + 1;
    if (parentNum > 0) childCount[parentNum] = (childCount[parentNum] as number) + 1;
    states[state]++;
    return num;
  };

  // The big record's tree.
  add("question", 0, "OPEN");
  const bigNum = add("question", 1, "OPEN");
  const otherStates: RecordState[] = ["LATER", "RESOLVED", "DISCARDED"];
  for (let i = 0; i < BIG_CHILDREN; i++) {
    const state = i % 2 === 0 ? "OPEN" : (otherStates[((i - 1) / 2) % 3] as RecordState);
    const child = add(TYPES_CHILDREN[i % TYPES_CHILDREN.length] as string, bigNum, state);
    if (i % GRANDCHILD_EVERY === 0) {
      for (let g = 0; g < GRANDCHILDREN_EACH; g++) add("note", child, g === 1 ? "LATER" : "OPEN");
    }
  }
  if (ops.length + 1 !== spreadStart) throw new Error("records layout: the big record's tree has an unexpected size");

  // The spread.
  const spreadNums: number[] = [];
  for (let s = 0; ops.length < size; s++) {
    const h = rng(s * 40503 + 17);
    let parentNum = 0;
    if (s % ROOT_EVERY !== 0) {
      // A recent record with room (not too deep, not too many children); after PARENT_TRIES misses, a root.
      for (let attempt = 0; attempt < PARENT_TRIES && parentNum === 0; attempt++) {
        const candidate = spreadNums[s - 1 - Math.floor(h() * Math.min(s, PARENT_WINDOW))] as number;
        if ((depth[candidate] as number) < MAX_SPREAD_DEPTH && (childCount[candidate] as number) < MAX_FANOUT) parentNum = candidate;
      }
    }
    const roll = Math.floor(h() * 10);
    const state: RecordState = roll < 6 ? "OPEN" : roll < 8 ? "RESOLVED" : roll === 8 ? "LATER" : "DISCARDED";
    spreadNums.push(add(TYPES_SPREAD[Math.floor(h() * TYPES_SPREAD.length)] as string, parentNum, state));
  }

  // Document frequencies, and the measured words.
  const df = new Map<string, number>();
  for (const op of ops) {
    for (const token of new Set(tokens(`${op.title} ${op.summary} ${op.body}`))) df.set(token, (df.get(token) ?? 0) + 1);
  }
  let commonWord = VOCABULARY[0] as string;
  for (const word of VOCABULARY) {
    const distance = (w: string) => Math.abs((df.get(w) ?? 0) - size * COMMON_SHARE);
    if (distance(word) < distance(commonWord)) commonWord = word;
  }
  let roots = 0;
  let maxDepth = 0;
  for (let num = 1; num <= size; num++) {
    if (parent[num] === 0) roots++;
    maxDepth = Math.max(maxDepth, depth[num] as number);
  }
  const leafNum = bigNum + 2;
  if (parent[leafNum] !== bigNum + 1 || childCount[leafNum] !== 0) throw new Error("records layout: the leaf record is not a leaf");
  return { size, ops, parent, depth, childCount, bigNum, leafNum, roots, states, maxDepth, df, commonWord, rareWord: RARE_WORD };
}

// ---- what the server must answer ------------------------------------------------------------------

/** The numbers of the records holding `word` (title, summary or body), in number order. */
export function matchesOf(layout: RecordsLayout, word: string): number[] {
  const out: number[] = [];
  layout.ops.forEach((op, index) => {
    if (tokens(`${op.title} ${op.summary} ${op.body}`).includes(word)) out.push(index + 1);
  });
  return out;
}

export interface ExpectedSearch {
  word: string;
  /** Every matching record, by number. */
  matches: Set<number>;
  /** The matches the server ranks: the newest RANKED_MATCHES (highest numbers). */
  ranked: Set<number>;
  total: number;
  total_capped: boolean;
  results: number;
}

export function expectedSearch(layout: RecordsLayout, word: string): ExpectedSearch {
  const matches = matchesOf(layout, word);
  const ranked = [...matches].sort((a, b) => b - a).slice(0, RANKED_MATCHES);
  return {
    word,
    matches: new Set(matches),
    ranked: new Set(ranked),
    total: Math.min(matches.length, SEARCH_COUNT_CAP),
    total_capped: matches.length > SEARCH_COUNT_CAP,
    results: Math.min(matches.length, SEARCH_LIMIT),
  };
}

/** What activating the big record loads (before the budget): ids in number order, and the counts. */
export interface ExpectedBundle {
  target: string;
  parent: string;
  open_children: number;
  other_children: number;
  /** The first BUNDLE_CHILDREN OPEN children and other children, and the first BUNDLE_GRANDCHILDREN grandchildren (children of the first BUNDLE_CHILDREN children). */
  open_loaded: string[];
  other_loaded: string[];
  grand_loaded: string[];
  /** counts.grandchildren: the children counts of the first BUNDLE_CHILDREN children, summed. */
  grandchildren: number;
}

export function expectedBundle(layout: RecordsLayout): ExpectedBundle {
  const big = layout.bigNum;
  const children: number[] = [];
  for (let num = 1; num <= layout.size; num++) if (layout.parent[num] === big) children.push(num);
  const state = (num: number) => layout.ops[num - 1]?.state;
  const open = children.filter((num) => state(num) === "OPEN");
  const other = children.filter((num) => state(num) !== "OPEN");
  const scanned = new Set(children.slice(0, BUNDLE_CHILDREN));
  const grand: number[] = [];
  for (let num = 1; num <= layout.size; num++) if (scanned.has(layout.parent[num] as number)) grand.push(num);
  return {
    target: recordId(big),
    parent: recordId(layout.parent[big] as number),
    open_children: open.length,
    other_children: other.length,
    open_loaded: open.slice(0, BUNDLE_CHILDREN).map(recordId),
    other_loaded: other.slice(0, BUNDLE_CHILDREN).map(recordId),
    grand_loaded: grand.slice(0, BUNDLE_GRANDCHILDREN).map(recordId),
    grandchildren: [...scanned].reduce((sum, num) => sum + (layout.childCount[num] as number), 0),
  };
}

// ---- the projects of list_projects --------------------------------------------------------------

/** Projects seeded for list_projects (the issue: 200 projects in one call). */
export const LISTED_PROJECTS = 200;
/** list_projects' largest page; 200+ projects fit in one call under the audit profile (docs/projects.md). */
export const PROJECT_PAGE = 500;
export const PROJECT_PREFIX = "bench/rp/";

export interface SmallProject {
  id: string;
  name: string;
  description: string;
  records: RecordOp[];
  open: number;
}

/** Project k: 1-3 records (the second LATER), so every summary has its own tick and open count. */
export function smallProjects(count: number): SmallProject[] {
  return Array.from({ length: count }, (_, k) => {
    const records: RecordOp[] = [];
    for (let j = 0; j <= k % 3; j++) {
      const state: RecordState = j === 1 ? "LATER" : "OPEN";
      records.push({
        op: "record",
        type: "question",
        title: `Topic ${j + 1} of project ${k}`,
        summary: "",
        body: "",
        state,
        ...(state === "LATER" ? { reason: LATER_REASON } : {}),
      });
    }
    return {
      id: `${PROJECT_PREFIX}p${String(k).padStart(3, "0")}`,
      name: `Bench project ${k}`,
      description: `Design notes ${k}`,
      records,
      open: records.filter((record) => record.state === "OPEN").length,
    };
  });
}
