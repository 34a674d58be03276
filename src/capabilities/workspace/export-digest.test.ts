// The incremental export digest is FNV-1a 64 (shared/hash.ts) over the lines joined with newlines.
import { describe, expect, it } from "vitest";
import { fnv1a64 } from "../../shared/hash";
import { DIGEST_START, digestLines } from "./export-digest";

describe("export digest", () => {
  it("equals fnv1a64 of the newline-terminated lines, however they are split", () => {
    const lines = ['{"n":0,"format":"x"}', "ünïcödé — 🙂", "", '{"n":3,"r":[1,null,"a\\"b"]}'];
    const whole = fnv1a64(lines.map((line) => `${line}\n`).join(""));
    expect(digestLines(DIGEST_START, lines)).toBe(whole);
    const half = digestLines(DIGEST_START, lines.slice(0, 2));
    expect(digestLines(half, lines.slice(2))).toBe(whole);
    expect(digestLines(DIGEST_START, [])).toBe(DIGEST_START);
    expect(fnv1a64("")).toBe(DIGEST_START);
  });
});
