/**
 * Code slices, pure: what a slice's parts must look like when an agent attaches one (the server cannot
 * read the repository, so the caller sends the lines), the one canonical form of a slice's text and its
 * sha256, refs parsed for lookups, and the stale warnings. The ref grammar and its path rules are
 * `src/shared/refs.ts` (`parseRef`); this module adds only what attaching needs on top of them.
 *
 * Canonical text: `\r\n` becomes `\n`, and one final `\n`, when present, ends the last line (it is
 * not an extra empty line): the slice is its lines joined by `\n`, with no newline after the last one.
 * So `a\nb` and `a\nb\n` are the same two lines; an empty last line is sent as `a\n\n`. The sha256 is
 * over the UTF-8 bytes of the canonical text, exactly as stored.
 */
import type { ErrorAction } from "../../shared/errors";
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import { MAX_CODE_REF_LINES, parseRef } from "../../shared/refs";
import type { Warning } from "../../shared/result";
import { suggest } from "../../shared/suggestion";
import { sha256Hex } from "./sha256";

export { MAX_CODE_REF_LINES };

/** Longest path: with `#L<7 digits>-L<7 digits>@sha256:<64 hex>` a whole ref stays under open's 512-character id. */
export const MAX_CODE_PATH_CHARS = 400;
/** Highest line number: seven digits (no source file has ten million lines), so refs stay short. */
export const MAX_CODE_LINE = 9_999_999;
/** One slice in UTF-8 bytes: 240 lines of ~270 bytes; far below the 2 MB row cap, and it fits an audit read. */
export const MAX_CODE_SLICE_BYTES = 64 * 1024;
/** Code refs one card (or anchor) may carry: enough to cite a change, small enough to check in one call. */
export const MAX_CODE_REFS = 20;
/** Optional repository label of a slice (`github.com/acme/app`, a clone's name). */
export const MAX_CODE_REPO_CHARS = 256;

export const CODE_REF_GRAMMAR = "code:<repo-relative path>#L<a>-L<b>[@sha256:<64 hex>]";
const PATH_RULES = `a repo-relative path (no leading /, no .. segment, no backslash), 1 <= a <= b, at most ${MAX_CODE_REF_LINES} lines`;
const SHA256 = /^[0-9a-f]{64}$/;

export interface CodeRange {
  path: string;
  start: number;
  end: number;
}

/** A code ref as parsed for a lookup: the sha, when the ref carries one, names one exact slice. */
export interface CodeRefQuery extends CodeRange {
  sha256?: string;
}

export interface SliceText {
  text: string;
  lines: number;
  sha256: string;
}

/** The normalized ref: `code:<path>#L<a>-L<b>`, plus `@sha256:<hex>` when a sha is given. */
export function codeRef(range: CodeRange, sha256?: string): string {
  return `code:${range.path}#L${range.start}-L${range.end}${sha256 === undefined ? "" : `@sha256:${sha256}`}`;
}

/** The call that stores a slice, as a copy-paste-safe action. */
export function attachAction(range: CodeRange): ErrorAction {
  return suggest(
    "code_ref_attach",
    { path: range.path, start_line: range.start, end_line: range.end, text: "<fill: the lines, as they are now>" },
    "Store the slice first: the server cannot read your repository.",
  );
}

function invalid(field: string, problem: string): never {
  return fail("INVALID_INPUT", `Invalid code ref: ${problem}.`, `Use ${CODE_REF_GRAMMAR}: ${PATH_RULES}.`, { field, problem });
}

/**
 * The path as stored: `src/shared/refs.ts`'s rules, no surrounding whitespace, and `.` and empty segments
 * dropped (`./src//a.ts` is `src/a.ts`), so one file has one spelling.
 */
function normalizePath(path: string, field: string): string {
  if (path.trim() !== path) invalid(field, "the path may not start or end with whitespace");
  const normalized = path
    .split("/")
    .filter((segment) => segment !== "." && segment !== "")
    .join("/");
  if (normalized.length === 0) invalid(field, "the path names no file");
  if (normalized.length > MAX_CODE_PATH_CHARS) invalid(field, `the path is longer than ${MAX_CODE_PATH_CHARS} characters`);
  return normalized;
}

/** Parses and checks a ref string against the grammar; not a code ref, or a malformed one → INVALID_INPUT. */
export function parseCodeRef(raw: string, field = "ref"): CodeRefQuery {
  const parsed = parseRef(raw);
  if (parsed.kind === "malformed" && parsed.form === "code") invalid(field, parsed.problem);
  if (parsed.kind !== "code") invalid(field, `"${raw.slice(0, 80)}" is not a code ref`);
  const range = { path: normalizePath(parsed.path, field), start: parsed.start, end: parsed.end };
  if (range.end > MAX_CODE_LINE) invalid(field, `line numbers go up to ${MAX_CODE_LINE}`);
  return parsed.sha256 === undefined ? range : { ...range, sha256: parsed.sha256 };
}

/** The parts of an attach, checked by the same grammar as a ref: the ref built from them must parse. */
export function checkRange(path: string, start: number, end: number): CodeRange {
  const range = parseCodeRef(codeRef({ path, start, end }), "path");
  return { path: range.path, start: range.start, end: range.end };
}

/** Canonical text (see the header) and how many lines it has. */
export function canonicalText(raw: string): { text: string; lines: number } {
  const lf = raw.replace(/\r\n/g, "\n");
  const text = lf.endsWith("\n") ? lf.slice(0, -1) : lf;
  return { text, lines: countLines(text) };
}

function countLines(text: string): number {
  let lines = 1;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) lines++;
  return lines;
}

/** The slice an attach stores: exactly the range's number of lines, size-bounded, with its sha256. */
export function sliceOf(range: CodeRange, raw: string): SliceText {
  const expected = range.end - range.start + 1;
  const { text, lines } = canonicalText(raw);
  if (lines !== expected) {
    fail(
      "INVALID_INPUT",
      `text has ${lines} line${lines === 1 ? "" : "s"}, but L${range.start}-L${range.end} spans ${expected}.`,
      "Send exactly the lines of the range, joined by newlines (a final newline ends the last line; an empty last line needs its own), or fix start_line/end_line.",
      { field: "text", expected_lines: expected, got_lines: lines },
    );
  }
  const bytes = utf8Bytes(text);
  if (bytes > MAX_CODE_SLICE_BYTES) {
    fail("PAYLOAD_TOO_LARGE", `The slice is ${bytes} bytes; at most ${MAX_CODE_SLICE_BYTES}.`, "Attach a shorter range.", {
      field: "text",
      bytes,
      max_bytes: MAX_CODE_SLICE_BYTES,
    });
  }
  return { text, lines, sha256: sha256Hex(text) };
}

/** What the caller has now, as a sha256: its text (canonicalized like an attach) or the sha it computed. */
export function currentSha(current: { text?: string | undefined; sha256?: string | undefined }): string | undefined {
  if (current.text !== undefined && current.sha256 !== undefined) {
    fail("INVALID_INPUT", "Give either the current text or its sha256, not both.", "Send `text` (the server hashes it) or `sha256`.", {
      field: "sha256",
    });
  }
  if (current.text !== undefined) return sha256Hex(canonicalText(current.text).text);
  if (current.sha256 === undefined) return undefined;
  const sha = current.sha256.toLowerCase();
  if (!SHA256.test(sha)) {
    fail("INVALID_INPUT", "sha256 must be 64 hex digits.", "Hash the canonical slice text (see code_ref_attach) or send `text`.", {
      field: "sha256",
    });
  }
  return sha;
}

/** The latest slice of a range, when it was stored after the slice a ref names. */
export interface NewerSlice {
  ref: string;
  sha256: string;
}

/** CODE_REF_STALE without the caller's text: a newer slice of the same path and range was stored after this one. */
export function outdatedWarning(ref: string, newer: NewerSlice): Warning {
  return {
    code: "CODE_REF_STALE",
    message: `${ref} is outdated: a newer slice of the same lines (sha256 ${newer.sha256.slice(0, 12)}…) was attached after it. This answer is the stored slice as it was.`,
    recovery: `Read and cite the newer slice: open {id: "${newer.ref}"}. If your lines still match this one, open it with current_text to check.`,
  };
}

/**
 * CODE_REF_STALE for a ref whose sha no stored slice of its range has: the answer is the range's latest
 * slice. The recovery follows the caller's current sha when given: that slice, or other lines to attach.
 */
export function missingShaWarning(ref: string, latest: NewerSlice, currentSha: string | undefined): Warning {
  const message = `No slice with the sha256 of ${ref} is stored; other versions of those lines are, and this answer is the latest, ${latest.ref}.`;
  if (currentSha === latest.sha256) {
    return {
      code: "CODE_REF_STALE",
      message: `${message} Your current text is that slice.`,
      recovery: `Cite the latest slice: open {id: "${latest.ref}"}.`,
    };
  }
  if (currentSha !== undefined) {
    return {
      code: "CODE_REF_STALE",
      message: `${message} Your current text is neither.`,
      recovery: `Attach the current lines with code_ref_attach and cite its new ref; the latest stored slice of these lines is open {id: "${latest.ref}"}.`,
    };
  }
  return {
    code: "CODE_REF_STALE",
    message,
    recovery: `Read and cite the latest slice: open {id: "${latest.ref}"}. If your lines differ from it, attach them with code_ref_attach and cite its ref.`,
  };
}

/**
 * CODE_REF_STALE with the caller's text: the stored slice differs from what the caller has now. When a
 * newer slice of the same range is stored (`newer`), the recovery names it.
 */
export function staleWarning(ref: string, storedSha: string, currentSha: string, newer?: NewerSlice): Warning {
  const message = `${ref} no longer matches your current text (stored sha256 ${storedSha.slice(0, 12)}…, current ${currentSha.slice(0, 12)}…).`;
  if (newer === undefined) {
    return {
      code: "CODE_REF_STALE",
      message,
      recovery: "Attach the current lines with code_ref_attach and cite its new ref; the stored slice still opens as it was.",
    };
  }
  if (newer.sha256 === currentSha) {
    return {
      code: "CODE_REF_STALE",
      message: `${message} Your current text is the newer slice ${newer.ref}.`,
      recovery: `Cite the newer slice: open {id: "${newer.ref}"}.`,
    };
  }
  return {
    code: "CODE_REF_STALE",
    message,
    recovery: `Attach the current lines with code_ref_attach and cite its new ref; the newest stored slice of these lines is open {id: "${newer.ref}"}.`,
  };
}
