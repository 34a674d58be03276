// The line diff and its unified format: minimal scripts, hunks with 3 lines of context, deterministic
// output, the version-spec grammar of get_record_diff.
import { describe, expect, it } from "vitest";
import { cutDiff, diffLines, splitLines, unifiedDiff } from "./diff";
import { parseVersionSpec } from "./version-spec";

const labels = { from: "R001@v1", to: "R001@v2" };

describe("line diff", () => {
  it("is empty for equal texts and keeps common lines", () => {
    expect(unifiedDiff("a\nb", "a\nb", labels)).toBe("");
    const ops = diffLines(["a", "b", "c"], ["a", "x", "c"]);
    expect(ops).toEqual([
      { kind: "same", line: "a" },
      { kind: "del", line: "b" },
      { kind: "add", line: "x" },
      { kind: "same", line: "c" },
    ]);
  });

  it("prints one hunk with context and line ranges", () => {
    expect(unifiedDiff("one\ntwo\nthree\nfour", "one\ntwo\n3\nfour\nfive", labels)).toBe(
      ["--- R001@v1", "+++ R001@v2", "@@ -1,4 +1,5 @@", " one", " two", "-three", "+3", " four", "+five"].join("\n"),
    );
  });

  it("splits distant changes into separate hunks and numbers them", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const after = [...before];
    after[1] = "changed 2";
    after[17] = "changed 18";
    const diff = unifiedDiff(before.join("\n"), after.join("\n"), labels);
    expect(diff.split("\n").filter((line) => line.startsWith("@@"))).toEqual(["@@ -1,5 +1,5 @@", "@@ -15,6 +15,6 @@"]);
    expect(diff).toContain("-line 2\n+changed 2");
    expect(diff).toContain("-line 18\n+changed 18");
  });

  it("diffs from and to empty texts", () => {
    expect(unifiedDiff("", "new", labels)).toBe("--- R001@v1\n+++ R001@v2\n@@ -0,0 +1 @@\n+new");
    expect(unifiedDiff("old\ntext", "", labels)).toBe("--- R001@v1\n+++ R001@v2\n@@ -1,2 +0,0 @@\n-old\n-text");
    expect(splitLines("")).toEqual([]);
  });

  it("gives the same script for the same inputs (ties prefer deletions first)", () => {
    const a = "x\ny\nx\ny";
    const b = "y\nx\ny\nx";
    expect(unifiedDiff(a, b, labels)).toBe(unifiedDiff(a, b, labels));
    expect(diffLines(["a", "b"], ["b", "a"])).toEqual([
      { kind: "del", line: "a" },
      { kind: "same", line: "b" },
      { kind: "add", line: "a" },
    ]);
  });

  it("cuts long diffs at a line boundary", () => {
    expect(cutDiff("aaa\nbbb\nccc", 9)).toEqual({ text: "aaa\nbbb", truncated: true });
    expect(cutDiff("short", 9)).toEqual({ text: "short", truncated: false });
  });
});

describe("version specs", () => {
  it("parses current, last_save, versions, ticks and ISO timestamps, and refuses the rest", () => {
    expect(parseVersionSpec("current")).toEqual({ kind: "current" });
    expect(parseVersionSpec("last_save")).toEqual({ kind: "last_save" });
    expect(parseVersionSpec("v3")).toEqual({ kind: "version", version: 3 });
    expect(parseVersionSpec("tick:12")).toEqual({ kind: "tick", tick: 12 });
    expect(parseVersionSpec("2025-01-31T12:00:00Z")).toEqual({ kind: "time", ts_ms: Date.UTC(2025, 0, 31, 12) });
    for (const bad of ["3", "version", "tick:", "v", "yesterday", "2025-13-45T99"]) expect(parseVersionSpec(bad), bad).toBeUndefined();
  });
});
