/**
 * Code ref commands (issue 9, dotted under `think.code.*`): `code_ref_attach` stores a slice the caller
 * sends (the server cannot read the repository) and returns its normalized ref with its sha256;
 * `code_ref_check` compares a stored slice with the caller's current text or sha and names a newer slice
 * of the same range. `open` reads a slice through `openCodeRef` (code-refs.ts); cards carry refs in
 * `meta.code_refs`.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { attachSlice, checkCodeRef } from "./code-refs";
import {
  CODE_REF_GRAMMAR,
  MAX_CODE_LINE,
  MAX_CODE_PATH_CHARS,
  MAX_CODE_REF_LINES,
  MAX_CODE_REPO_CHARS,
  MAX_CODE_SLICE_BYTES,
} from "./code-slice";

/** Longest ref accepted: the longest path with a range and a sha (the same bound as `open`'s id). */
const MAX_REF_CHARS = 512;

const line = z.number().int().min(1).max(MAX_CODE_LINE);
const sliceText = z.string().max(MAX_CODE_SLICE_BYTES);
const sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, "64 hex digits");

export const codeRefAttach = defineCommand({
  name: "think.code.attach",
  tool: "code_ref_attach",
  redaction: {
    note: "The slice's sha256 is of the redacted text: check it with code_ref_check {text} (redacted the same way), not with a sha256 computed locally.",
  },
  title: "Attach a code slice",
  description: `Store a slice of a file of your repository and get its ref ${CODE_REF_GRAMMAR} with the sha256 of the text. The server cannot read your repository: send the lines. path: repo-relative (no leading /, no .., no backslash; ./ and // are dropped; symlinks cannot be checked remotely); lines 1-based inclusive, at most ${MAX_CODE_REF_LINES}; text: exactly end_line - start_line + 1 lines (\\r\\n counts as \\n; a final newline ends the last line, so an empty last line needs its own). The same slice again returns the same ref and writes nothing (created: false). Cite the ref in cards (meta.code_refs) and open it later.`,
  kind: "write",
  idempotent: true,
  // A slice is code as it is: it may quote anything, a placeholder too.
  verbatim: ["text"],
  example: { path: "src/app.ts", start_line: 1, end_line: 2, text: "export const a = 1;\nexport const b = 2;\n" },
  input: {
    path: z.string().min(1).max(MAX_CODE_PATH_CHARS).describe("Repo-relative path of the file, e.g. src/app.ts."),
    start_line: line.describe("First line of the slice (1-based)."),
    end_line: line.describe(`Last line of the slice (inclusive); at most ${MAX_CODE_REF_LINES} lines in all.`),
    text: sliceText.describe(`The slice's lines as they are now (at most ${MAX_CODE_SLICE_BYTES} UTF-8 bytes).`),
    repo: z
      .string()
      .min(1)
      .max(MAX_CODE_REPO_CHARS)
      .optional()
      .describe("A label of the repository (e.g. github.com/acme/app); kept from the slice's first attach."),
  },
  output: {
    ref: z.string().describe("The normalized ref: code:<path>#L<a>-L<b>@sha256:<hex>."),
    path: z.string(),
    start_line: z.number(),
    end_line: z.number(),
    sha256: z.string().describe("SHA-256 of the slice text as stored (lines joined by \\n, no trailing newline), lowercase hex."),
    lines: z.number(),
    repo: z.string().optional(),
    created: z.boolean().describe("false: this slice was stored already and nothing was written."),
  },
  handler: (ctx, args) => attachSlice(ctx, args),
});

export const codeRefCheck = defineCommand({
  name: "think.code.check",
  tool: "code_ref_check",
  // Compared with the stored (redacted) slice: an unchanged slice that held a secret is not stale.
  redaction: { compare: ["text"] },
  title: "Check a code ref",
  description: `Compare a stored slice with what you have now: give its ref (${CODE_REF_GRAMMAR}; without a sha, the latest slice stored for that path and range) and your current text of those lines, or its sha256 (over the lines joined by \\n, no trailing newline). stale: true, with the warning CODE_REF_STALE, when they differ (your text decides, newer slices or not). newer_ref: the latest slice of the same path and range, when one was attached after this one. A sha no stored slice of the range has checks the range's latest slice instead, stale: true. Reads one row; writes nothing.`,
  kind: "read",
  example: { ref: "code:src/app.ts#L1-L2", text: "export const a = 1;\nexport const b = 2;\n" },
  input: {
    ref: z.string().min(1).max(MAX_REF_CHARS).describe("The code ref, as code_ref_attach returned it or without its sha."),
    text: sliceText.optional().describe("Your current text of those lines (hashed like an attach)."),
    sha256: sha256.optional().describe("Or the sha256 you computed over your current text."),
  },
  output: {
    ref: z.string().describe("The stored slice's normalized ref (with its sha)."),
    stale: z.boolean(),
    stored_sha256: z.string(),
    current_sha256: z.string(),
    newer_ref: z
      .string()
      .optional()
      .describe("The latest slice of the same path and range (with its sha), when it was attached after this one."),
  },
  handler: (ctx, args) => {
    if (args.text === undefined && args.sha256 === undefined) {
      fail("INVALID_INPUT", "Give your current text of the slice, or its sha256.", "Send `text` (the server hashes it) or `sha256`.", {
        field: "text",
      });
    }
    const checked = checkCodeRef(ctx, args.ref, { current_text: args.text, current_sha256: args.sha256 });
    return {
      ref: checked.slice.ref,
      stale: checked.stale,
      stored_sha256: checked.slice.sha256,
      current_sha256: checked.current_sha256 as string,
      ...(checked.newer_ref === undefined ? {} : { newer_ref: checked.newer_ref }),
    };
  },
});
