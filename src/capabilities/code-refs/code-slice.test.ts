// Unit: code slice rules — path checks and normalization, the canonical text and its line count, size
// bounds, refs parsed for lookups, and the caller's current sha.
import { describe, expect, it } from "vitest";
import { CommandError } from "../../shared/errors";
import {
  canonicalText,
  checkRange,
  codeRef,
  currentSha,
  MAX_CODE_SLICE_BYTES,
  outdatedWarning,
  parseCodeRef,
  sliceOf,
  staleWarning,
} from "./code-slice";
import { sha256Hex } from "./sha256";

/** The typed error a call throws (and the test fails when it throws none or something else). */
function errorOf(call: () => unknown) {
  try {
    call();
  } catch (error) {
    if (error instanceof CommandError) return error.error;
    throw error;
  }
  throw new Error("expected a CommandError");
}

describe("checkRange", () => {
  it("refuses paths that are not repo-relative files, and ranges the grammar refuses", () => {
    const cases: [string, number, number, RegExp][] = [
      ["/etc/passwd", 1, 1, /repo-relative/],
      ["C:/src/a.ts", 1, 1, /repo-relative/],
      ["src/../secrets.txt", 1, 1, /'\.\.'/],
      ["..", 1, 1, /'\.\.'/],
      ["src\\a.ts", 1, 1, /backslash/],
      ["src/", 1, 1, /directory/],
      [" src/a.ts", 1, 1, /whitespace/],
      [".", 1, 1, /names no file/],
      ["src/a.ts", 1, 241, /241 lines; at most 240/],
      ["src/a.ts", 5, 4, /before it starts/],
    ];
    for (const [path, start, end, problem] of cases) {
      const error = errorOf(() => checkRange(path, start, end));
      expect(error.code, path).toBe("INVALID_INPUT");
      expect(error.details?.problem, path).toMatch(problem);
      expect(error.recovery_hint).toContain("code:<repo-relative path>");
    }
  });

  it("drops . and empty segments, so one file has one spelling", () => {
    expect(checkRange("./src//lib/./a.ts", 3, 9)).toEqual({ path: "src/lib/a.ts", start: 3, end: 9 });
    expect(checkRange("src/a.ts", 1, 240)).toEqual({ path: "src/a.ts", start: 1, end: 240 });
  });
});

describe("canonicalText and sliceOf", () => {
  it("joins the lines by \\n: CRLF becomes LF, a final newline ends the last line", () => {
    expect(canonicalText("a\nb")).toEqual({ text: "a\nb", lines: 2 });
    expect(canonicalText("a\nb\n")).toEqual({ text: "a\nb", lines: 2 });
    expect(canonicalText("a\r\nb\r\n")).toEqual({ text: "a\nb", lines: 2 });
    expect(canonicalText("a\rb")).toEqual({ text: "a\rb", lines: 1 });
    // An empty last line needs a newline of its own.
    expect(canonicalText("x\n")).toEqual({ text: "x", lines: 1 });
    expect(canonicalText("x\n\n")).toEqual({ text: "x\n", lines: 2 });
    expect(canonicalText("")).toEqual({ text: "", lines: 1 });
    expect(canonicalText("\n")).toEqual({ text: "", lines: 1 });
  });

  it("stores exactly the range's lines, hashed as stored", () => {
    const range = { path: "src/a.ts", start: 10, end: 12 };
    expect(sliceOf(range, "one\r\ntwo\r\nthree\r\n")).toEqual({ text: "one\ntwo\nthree", lines: 3, sha256: sha256Hex("one\ntwo\nthree") });
    const mismatch = errorOf(() => sliceOf(range, "one\ntwo"));
    expect(mismatch).toMatchObject({ code: "INVALID_INPUT", details: { field: "text", expected_lines: 3, got_lines: 2 } });
    expect(errorOf(() => sliceOf(range, "a\nb\nc\nd\n")).details).toMatchObject({ expected_lines: 3, got_lines: 4 });
  });

  it("bounds a slice in UTF-8 bytes", () => {
    const range = { path: "a.min.js", start: 1, end: 1 };
    expect(sliceOf(range, "x".repeat(MAX_CODE_SLICE_BYTES)).lines).toBe(1);
    expect(errorOf(() => sliceOf(range, "é".repeat(MAX_CODE_SLICE_BYTES / 2 + 1))).code).toBe("PAYLOAD_TOO_LARGE");
  });
});

describe("parseCodeRef", () => {
  const SHA = "AB".repeat(32);

  it("parses a code ref, lowercasing its sha and normalizing its path", () => {
    expect(parseCodeRef(`code:./src/a.ts#L3-L9@sha256:${SHA}`)).toEqual({ path: "src/a.ts", start: 3, end: 9, sha256: SHA.toLowerCase() });
    expect(parseCodeRef(" code:src/a.ts#L3-L9 ")).toEqual({ path: "src/a.ts", start: 3, end: 9 });
    expect(codeRef({ path: "src/a.ts", start: 3, end: 9 }, "ab".repeat(32))).toBe(`code:src/a.ts#L3-L9@sha256:${"ab".repeat(32)}`);
  });

  it("refuses other refs and malformed code refs, naming the field", () => {
    expect(errorOf(() => parseCodeRef("CARD-1", "code_refs[0]"))).toMatchObject({
      code: "INVALID_INPUT",
      details: { field: "code_refs[0]" },
    });
    expect(errorOf(() => parseCodeRef("code:src/a.ts")).details?.problem).toMatch(/line range/);
    expect(errorOf(() => parseCodeRef("code:src/a.ts#L1-L2@sha256:abc")).details?.problem).toMatch(/64 hex/);
    expect(errorOf(() => parseCodeRef("code:/abs.ts#L1-L2")).details?.problem).toMatch(/repo-relative/);
  });
});

describe("currentSha", () => {
  it("hashes the current text like an attach, or takes the caller's sha", () => {
    expect(currentSha({ text: "a\r\nb\n" })).toBe(sha256Hex("a\nb"));
    expect(currentSha({ sha256: "CD".repeat(32) })).toBe("cd".repeat(32));
    expect(currentSha({})).toBeUndefined();
  });

  it("refuses both at once and a sha that is not 64 hex digits", () => {
    expect(errorOf(() => currentSha({ text: "a\nb", sha256: "cd".repeat(32) })).code).toBe("INVALID_INPUT");
    expect(errorOf(() => currentSha({ sha256: "xyz" })).code).toBe("INVALID_INPUT");
  });

  it("words the stale warning with both shas", () => {
    expect(staleWarning("code:a.ts#L1-L2", "1".repeat(64), "2".repeat(64))).toMatchObject({
      code: "CODE_REF_STALE",
      message: expect.stringContaining("111111111111"),
      recovery: expect.stringContaining("code_ref_attach"),
    });
  });

  it("names the newer slice: without the caller's text, when the text is the newer slice, and beside an attach", () => {
    const newer = { ref: `code:a.ts#L1-L2@sha256:${"3".repeat(64)}`, sha256: "3".repeat(64) };
    const open = `open {id: "${newer.ref}"}`;
    expect(outdatedWarning("code:a.ts#L1-L2", newer)).toMatchObject({ code: "CODE_REF_STALE", recovery: expect.stringContaining(open) });
    expect(staleWarning("code:a.ts#L1-L2", "1".repeat(64), newer.sha256, newer).recovery).toBe(`Cite the newer slice: ${open}.`);
    const unknown = staleWarning("code:a.ts#L1-L2", "1".repeat(64), "2".repeat(64), newer).recovery;
    expect(unknown).toContain("code_ref_attach");
    expect(unknown).toContain(open);
  });
});
