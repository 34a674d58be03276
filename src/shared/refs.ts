/**
 * The ref grammar of `open` (seed 002, facts §3.4): one stable string names any artifact. This module
 * only parses and validates a ref into a typed value; what a ref points at is looked up elsewhere.
 * Pure: no I/O, no clock.
 *
 *   CARD-…                                  a thinking card (incl. CARD-PUB-…)
 *   <doc>@<seq>                             the document entry with that global seq
 *   TASK-… / PLAN-… / STEP-… / JOB-…        a task, plan, step or job (JOB-…@<seq>: a job event)
 *   a:<slug>                                an anchor (slug: lowercase letters, digits, dashes, ≤ 64)
 *   code:<path>#L<a>-L<b>[@sha256:<hex64>]  a slice of a repo file (1-based inclusive, ≤ 240 lines)
 *   R<n>[@v<version>]                       a Record-Sync record (R001), or one of its versions (R001@v2)
 */
import { anchorId, anchorProblem, suggestSlug } from "./slugs";

/** The grammar, as told to callers in descriptions and recovery hints. */
export const REF_GRAMMAR =
  "CARD-<id>, <doc>@<seq> (e.g. notes@12), TASK-<n>, PLAN-<n>, STEP-<hex>, JOB-<id>, a:<slug>, code:<path>#L<a>-L<b>[@sha256:<64 hex>], R<n>[@v<version>] (a record, e.g. R001@v2)";

/** Most lines one code slice may span (the original's bound). */
export const MAX_CODE_REF_LINES = 240;
/** Line numbers and seqs: digits accepted before converting (keeps numbers exact). */
const MAX_DIGITS = 15;

const ENTRY_REF = new RegExp(`^(.+)@([0-9]{1,${MAX_DIGITS}})$`);
const LINE_RANGE = new RegExp(`#L([0-9]{1,${MAX_DIGITS}})-L([0-9]{1,${MAX_DIGITS}})$`);
const SHA256 = /^[0-9a-fA-F]{64}$/;
/**
 * A record id (R001) and maybe a version (`@v2`, as get_record_history and get_record_diff name
 * versions). Read before entry refs: `R001@v2` is no entry ref, and `R001@12` stays one (doc R001).
 */
const RECORD_REF = new RegExp(`^(R[0-9]{1,${MAX_DIGITS}})(?:@[vV]([0-9]{1,${MAX_DIGITS}}))?$`);
const SHA_MARK = "@sha256:";
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to reject control characters.
const CONTROL = /[\x00-\x1f\x7f]/;

export type Ref =
  | { kind: "card"; id: string }
  | { kind: "entry"; doc: string; seq: number }
  | { kind: "task" | "plan" | "step"; id: string }
  | { kind: "job"; id: string }
  | { kind: "anchor"; slug: string; tag: string }
  | { kind: "code"; path: string; start: number; end: number; sha256?: string; normalized: string }
  | { kind: "record"; id: string; version?: number }
  /** A ref of a known form that breaks its rules: `problem` says what is wrong. */
  | { kind: "malformed"; form: "anchor" | "code"; problem: string; suggestion?: string }
  | { kind: "unknown" };

export function parseRef(raw: string): Ref {
  const id = raw.trim();
  if (id.startsWith("code:")) return parseCodeRef(id);
  if (id.startsWith("a:")) return parseAnchor(id.slice(2));
  if (id.startsWith("JOB-")) return { kind: "job", id };
  const record = RECORD_REF.exec(id);
  if (record) return { kind: "record", id: record[1] as string, ...(record[2] === undefined ? {} : { version: Number(record[2]) }) };
  const entry = ENTRY_REF.exec(id);
  if (entry) {
    const doc = entry[1] as string;
    // A doc name has no control characters or '|' and no surrounding spaces (shared/names.ts).
    if (!CONTROL.test(doc) && !doc.includes("|") && doc.trim() === doc) return { kind: "entry", doc, seq: Number(entry[2]) };
    return { kind: "unknown" };
  }
  if (id.startsWith("CARD-")) return { kind: "card", id };
  if (id.startsWith("TASK-")) return { kind: "task", id };
  if (id.startsWith("PLAN-")) return { kind: "plan", id };
  if (id.startsWith("STEP-")) return { kind: "step", id };
  return { kind: "unknown" };
}

/** Anchor slugs follow the anchors' own rules (shared/slugs.ts), so every ref `open` accepts can be registered. */
function parseAnchor(slug: string): Ref {
  const problem = anchorProblem(slug);
  if (problem === undefined) return { kind: "anchor", slug, tag: anchorId(slug) };
  const suggestion = suggestSlug(slug);
  return { kind: "malformed", form: "anchor", problem, ...(suggestion ? { suggestion: anchorId(suggestion) } : {}) };
}

function parseCodeRef(id: string): Ref {
  const malformed = (problem: string): Ref => ({ kind: "malformed", form: "code", problem });
  let rest = id.slice("code:".length);
  let sha256: string | undefined;
  const mark = rest.lastIndexOf(SHA_MARK);
  if (mark !== -1 && mark > rest.lastIndexOf("#")) {
    const hex = rest.slice(mark + SHA_MARK.length);
    if (!SHA256.test(hex)) return malformed("the sha256 suffix must be exactly 64 hex digits");
    sha256 = hex.toLowerCase();
    rest = rest.slice(0, mark);
  } else if (rest.lastIndexOf("@") > rest.lastIndexOf("#")) {
    return malformed("only @sha256:<64 hex> may follow the line range");
  }
  const range = LINE_RANGE.exec(rest);
  if (!range) return malformed("the line range is missing or malformed (expected #L<a>-L<b>, e.g. #L10-L42)");
  const path = rest.slice(0, range.index);
  const start = Number(range[1]);
  const end = Number(range[2]);
  if (path.length === 0) return malformed("the path is empty");
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return malformed("the path must be repo-relative, not absolute");
  if (path.includes("\\")) return malformed("the path may not contain a backslash (use /)");
  if (path.endsWith("/")) return malformed("the path names a directory; name a file");
  if (CONTROL.test(path)) return malformed("the path may not contain control characters");
  if (path.split("/").includes("..")) return malformed("the path may not contain a '..' segment");
  if (start < 1) return malformed("line numbers start at 1");
  if (end < start) return malformed(`the range ends (L${end}) before it starts (L${start})`);
  if (end - start + 1 > MAX_CODE_REF_LINES) return malformed(`the range spans ${end - start + 1} lines; at most ${MAX_CODE_REF_LINES}`);
  const normalized = `code:${path}#L${start}-L${end}${sha256 === undefined ? "" : `${SHA_MARK}${sha256}`}`;
  return { kind: "code", path, start, end, ...(sha256 === undefined ? {} : { sha256 }), normalized };
}
