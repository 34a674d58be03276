/**
 * Code refs adapted to a remote server (issue 9, seed 002 "Code refs"): the server cannot read the
 * agent's repository, so attaching stores the slice the caller sends; checking and opening compare the
 * stored slice with what the caller has now, or, when the caller sends nothing, with the newer slices of
 * the same path and range (warning CODE_REF_STALE, naming the newer ref); a sha no slice of a stored
 * range has reads as that range's latest slice, stale; cards and anchors may carry only refs whose slice
 * is stored. The rules of a slice are `code-slice.ts`; the SQL is `code-refs.store.ts`.
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { insertSlice, latestSlice, type StoredSlice, sliceBySha, sliceWithLatest } from "./code-refs.store";
import {
  attachAction,
  type CodeRefQuery,
  checkRange,
  codeRef,
  currentSha,
  MAX_CODE_REFS,
  missingShaWarning,
  type NewerSlice,
  outdatedWarning,
  parseCodeRef,
  sliceOf,
  staleWarning,
} from "./code-slice";

/** The card meta key that holds a card's code refs (a list of refs, or one ref as a string). */
export const CARD_CODE_REFS_KEY = "code_refs";

/** A stored slice as every answer shows it (without its text). */
export interface CodeSlice {
  ref: string;
  path: string;
  start_line: number;
  end_line: number;
  sha256: string;
  lines: number;
  repo?: string;
}

function view(row: StoredSlice): CodeSlice {
  return {
    ref: codeRef({ path: row.path, start: row.start_line, end: row.end_line }, row.sha256),
    path: row.path,
    start_line: row.start_line,
    end_line: row.end_line,
    sha256: row.sha256,
    lines: row.end_line - row.start_line + 1,
    ...(row.repo === null ? {} : { repo: row.repo }),
  };
}

export interface AttachArgs {
  path: string;
  start_line: number;
  end_line: number;
  text: string;
  repo?: string | undefined;
}

/** Stores the slice unless it is stored already (then nothing is written): its normalized ref with its sha. */
export function attachSlice(ctx: CommandContext, args: AttachArgs): CodeSlice & { created: boolean } {
  const range = checkRange(args.path, args.start_line, args.end_line);
  const slice = sliceOf(range, args.text);
  const repo = args.repo?.trim() || null;
  const stored = sliceBySha(ctx.db, range, slice.sha256);
  if (stored) {
    if (repo !== null && stored.repo !== repo) {
      ctx.warn({
        code: "CODE_REF_REPO_KEPT",
        message: `This slice is stored already${stored.repo === null ? " without a repo" : ` with repo "${stored.repo}"`}; a slice keeps the repo of its first attach.`,
        recovery: "Nothing to do: a ref names the slice by its path, range and content, whatever the repo.",
      });
    }
    return { ...view(stored), created: false };
  }
  const id = insertSlice(ctx.db, { ...range, ...slice, repo, createdBy: ctx.principal.agent_id, createdAtMs: ctx.nowMs });
  const created = view({
    id,
    path: range.path,
    start_line: range.start,
    end_line: range.end,
    sha256: slice.sha256,
    text: slice.text,
    repo,
  });
  ctx.journal({ target: created.ref, summary: `code slice ${range.path}#L${range.start}-L${range.end}` });
  return { ...created, created: true };
}

/**
 * A resolved ref: the stored slice, and the sha of the range's latest slice when a newer one was stored
 * after it. `missingSha`: the ref's sha, which no stored slice of the range has; `stored` is then the
 * range's latest slice.
 */
interface Resolved {
  stored: StoredSlice;
  newerSha?: string;
  missingSha?: string;
}

/**
 * The stored slice a ref names: that exact sha when it carries one (with the range's latest slice, when
 * that one is newer), else the range's latest; UNKNOWN_ID otherwise. "The same range" is the same path
 * and exactly the same lines: overlapping ranges are other slices (docs/think.md "Staleness"). With
 * `latestForMissingSha` (the reads), a sha no slice of a stored range has resolves to the range's latest
 * slice instead of UNKNOWN_ID.
 */
function resolve(ctx: CommandContext, query: CodeRefQuery, field: string, latestForMissingSha = false): Resolved {
  if (query.sha256 === undefined) {
    const latest = latestSlice(ctx.db, query);
    if (latest) return { stored: latest };
  } else {
    const found = sliceWithLatest(ctx.db, query, query.sha256);
    if (found) {
      const { latest_sha256, ...stored } = found;
      return latest_sha256 === stored.sha256 ? { stored } : { stored, newerSha: latest_sha256 };
    }
  }
  const ref = codeRef(query, query.sha256);
  const latest = query.sha256 === undefined ? undefined : latestSlice(ctx.db, query);
  if (latest && latestForMissingSha) return { stored: latest, newerSha: latest.sha256, missingSha: query.sha256 };
  if (latest) {
    const latestRef = view(latest).ref;
    fail(
      "UNKNOWN_ID",
      `No slice with that sha256 is stored for ${codeRef(query)}; other versions of those lines are.`,
      `Cite a stored version (the latest is ${latestRef}), or attach the lines you mean with code_ref_attach.`,
      { field, ref, latest_ref: latestRef },
      [attachAction(query)],
    );
  }
  fail(
    "UNKNOWN_ID",
    `No code slice is stored for ${ref}.`,
    "Attach it first with code_ref_attach {path, start_line, end_line, text}: the server cannot read your repository.",
    { field, ref },
    [attachAction(query)],
  );
}

export interface CurrentText {
  current_text?: string | undefined;
  current_sha256?: string | undefined;
}

/**
 * Compares the slice a ref names with what the caller has now; warns CODE_REF_STALE when they differ.
 * Without the caller's text or sha, the slice is stale when a newer slice of the same path and range
 * was stored after it. The caller's text decides when given: a slice equal to it is not stale, newer
 * slices or not (the code may have gone back to it). `newer_ref` names the range's latest slice whenever
 * it is not this one. A ref whose sha no stored slice of its range has (the range has others) answers
 * the range's latest slice and is stale whatever the caller's text: it names lines the server never stored.
 */
export function checkCodeRef(ctx: CommandContext, ref: string, current: CurrentText) {
  const query = parseCodeRef(ref);
  const { stored, newerSha, missingSha } = resolve(ctx, query, "ref", true);
  const now = currentSha({ text: current.current_text, sha256: current.current_sha256 });
  const slice = view(stored);
  const newer = newerSha === undefined ? undefined : { ref: codeRef(query, newerSha), sha256: newerSha };
  if (missingSha !== undefined) {
    ctx.warn(missingShaWarning(codeRef(query, missingSha), { ref: slice.ref, sha256: slice.sha256 }, now));
    return { slice, stored, stale: true, current_sha256: now, newer_ref: slice.ref };
  }
  const stale = now === undefined ? newer !== undefined : now !== stored.sha256;
  if (stale)
    ctx.warn(now === undefined ? outdatedWarning(slice.ref, newer as NewerSlice) : staleWarning(slice.ref, stored.sha256, now, newer));
  return { slice, stored, stale, current_sha256: now, ...(newer === undefined ? {} : { newer_ref: newer.ref }) };
}

/**
 * `open` of a code ref: the stored slice with its text and normalized ref (with its sha), and
 * `newer_ref` when a newer slice of the same range was stored after it. A difference with the caller's
 * current text or sha, or without them a newer slice, is the warning CODE_REF_STALE. Reads one row.
 */
export function openCodeRef(ctx: CommandContext, ref: string, options: CurrentText = {}) {
  const { slice, stored, newer_ref } = checkCodeRef(ctx, ref, options);
  return {
    kind: "code" as const,
    ref: slice.ref,
    path: slice.path,
    start_line: slice.start_line,
    end_line: slice.end_line,
    sha256: slice.sha256,
    lines: slice.lines,
    ...(slice.repo === undefined ? {} : { repo: slice.repo }),
    text: stored.text,
    ...(newer_ref === undefined ? {} : { newer_ref }),
  };
}

/** Characters a slice's text is cut to, largest first, when the whole slice does not fit a read's budget. */
const TEXT_CUTS = [16_000, 8_000, 4_000, 2_000, 1_000, 500, 200, 0];

/** Small forms of an `openCodeRef` answer for `open`'s budget: the text cut shorter and shorter (`text_truncated`). */
export function codeOpenStubs(original: Record<string, unknown>): Record<string, unknown>[] {
  const text = typeof original.text === "string" ? original.text : "";
  return TEXT_CUTS.filter((cut) => cut < text.length).map((cut) => ({
    ...original,
    text: text.slice(0, cut),
    text_truncated: true,
    truncated: true,
  }));
}

/**
 * Refuses refs that are not stored code refs (INVALID_INPUT when malformed, UNKNOWN_ID when not stored,
 * both pointing at code_ref_attach); returns the slices, in order, each with its normalized ref. For
 * anything that carries code refs: cards (`meta.code_refs`), anchors.
 */
export function requireCodeRefs(ctx: CommandContext, refs: readonly string[], field = "code_refs"): CodeSlice[] {
  if (refs.length > MAX_CODE_REFS) {
    fail("INVALID_INPUT", `${refs.length} code refs; at most ${MAX_CODE_REFS}.`, "Cite the slices that matter most.", {
      field,
      max: MAX_CODE_REFS,
    });
  }
  return refs.map((ref, index) => {
    const item = `${field}[${index}]`;
    return view(resolve(ctx, parseCodeRef(ref, item), item).stored);
  });
}

/** A card's `meta.code_refs` (a list of refs, or one ref): each must be a stored code ref. */
export function requireCardCodeRefs(ctx: CommandContext, meta: Record<string, unknown>): void {
  const refs = meta[CARD_CODE_REFS_KEY];
  if (refs === undefined) return;
  const field = `card.meta.${CARD_CODE_REFS_KEY}`;
  const list = typeof refs === "string" ? [refs] : refs;
  if (!Array.isArray(list) || list.some((ref) => typeof ref !== "string")) {
    fail(
      "INVALID_INPUT",
      `${field} must be a list of code refs.`,
      'Pass the refs code_ref_attach returned, e.g. ["code:src/a.ts#L1-L9@sha256:…"].',
      {
        field,
      },
    );
  }
  requireCodeRefs(ctx, list as string[], field);
}
