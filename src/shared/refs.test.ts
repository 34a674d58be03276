// Unit: the ref grammar of `open` — every kind, precedence between forms, and malformed code and anchor refs.
import { describe, expect, it } from "vitest";
import { parseRef } from "./refs";
import { suggestSlug } from "./slugs";

const SHA = "ab".repeat(32);

describe("parseRef", () => {
  it("recognizes every kind of ref", () => {
    expect(parseRef("CARD-12")).toEqual({ kind: "card", id: "CARD-12" });
    expect(parseRef("CARD-PUB-CARD-3")).toEqual({ kind: "card", id: "CARD-PUB-CARD-3" });
    expect(parseRef("notes@12")).toEqual({ kind: "entry", doc: "notes", seq: 12 });
    expect(parseRef("TASK-001")).toEqual({ kind: "task", id: "TASK-001" });
    expect(parseRef("PLAN-002")).toEqual({ kind: "plan", id: "PLAN-002" });
    expect(parseRef("STEP-0000000A")).toEqual({ kind: "step", id: "STEP-0000000A" });
    expect(parseRef("JOB-7")).toEqual({ kind: "job", id: "JOB-7" });
    expect(parseRef("a:storage-layer")).toEqual({ kind: "anchor", slug: "storage-layer", tag: "a:storage-layer" });
    expect(parseRef("code:src/a.ts#L3-L9")).toEqual({
      kind: "code",
      path: "src/a.ts",
      start: 3,
      end: 9,
      normalized: "code:src/a.ts#L3-L9",
    });
  });

  it("reads <doc>@<seq> before an id prefix, and JOB-…@<seq> as a job", () => {
    expect(parseRef("TASK-001-trace@40")).toEqual({ kind: "entry", doc: "TASK-001-trace", seq: 40 });
    expect(parseRef("my doc@home@5")).toEqual({ kind: "entry", doc: "my doc@home", seq: 5 });
    expect(parseRef("JOB-7@12")).toEqual({ kind: "job", id: "JOB-7@12" });
    expect(parseRef("  notes@3 ")).toEqual({ kind: "entry", doc: "notes", seq: 3 });
  });

  it("answers unknown for anything else", () => {
    for (const id of ["hello", "card-1", "notes@", "notes@x1", "@12", "x @1", "task-001", "code", "a", "N-draft", "a|b@3"]) {
      expect(parseRef(id), id).toEqual({ kind: "unknown" });
    }
  });

  it("normalizes a code ref's sha256 to lowercase and keeps paths with # in them", () => {
    expect(parseRef(`code:docs/a#b.md#L1-L240@sha256:${SHA.toUpperCase()}`)).toEqual({
      kind: "code",
      path: "docs/a#b.md",
      start: 1,
      end: 240,
      sha256: SHA,
      normalized: `code:docs/a#b.md#L1-L240@sha256:${SHA}`,
    });
    expect(parseRef("code:a.ts#L007-L008")).toMatchObject({ start: 7, end: 8, normalized: "code:a.ts#L7-L8" });
  });

  it("says what is wrong with a malformed code ref", () => {
    const problem = (id: string) => {
      const ref = parseRef(id);
      return ref.kind === "malformed" && ref.form === "code" ? ref.problem : `not malformed: ${JSON.stringify(ref)}`;
    };
    expect(problem("code:/etc/passwd#L1-L2")).toMatch(/repo-relative/);
    expect(problem("code:C:/x.ts#L1-L2")).toMatch(/repo-relative/);
    expect(problem("code:src/../secret#L1-L2")).toMatch(/'\.\.'/);
    expect(problem("code:..#L1-L2")).toMatch(/'\.\.'/);
    expect(problem("code:src\\a.ts#L1-L2")).toMatch(/backslash/);
    expect(problem("code:src/#L1-L2")).toMatch(/directory/);
    expect(problem("code:#L1-L2")).toMatch(/path is empty/);
    expect(problem("code:a.ts#L0-L2")).toMatch(/start at 1/);
    expect(problem("code:a.ts#L5-L4")).toMatch(/ends \(L4\) before it starts \(L5\)/);
    expect(problem("code:a.ts#L1-L241")).toMatch(/241 lines; at most 240/);
    expect(problem("code:a.ts")).toMatch(/line range/);
    expect(problem("code:a.ts#L1")).toMatch(/line range/);
    expect(problem("code:a.ts#L1-L2@sha256:abc")).toMatch(/64 hex/);
    expect(problem("code:a.ts#L1-L2@main")).toMatch(/only @sha256/);
    expect(problem("code:a\u0001.ts#L1-L2")).toMatch(/control/);
  });

  it("refuses malformed anchors with a suggested slug", () => {
    expect(parseRef("a:Storage Layer")).toMatchObject({ kind: "malformed", form: "anchor", suggestion: "a:storage-layer" });
    expect(parseRef("a:")).toMatchObject({ kind: "malformed", form: "anchor", problem: "the anchor slug is empty" });
    expect(parseRef(`a:${"x".repeat(65)}`)).toMatchObject({ kind: "malformed", problem: expect.stringMatching(/longer than 64/) });
    expect(parseRef("a:-x")).toMatchObject({ kind: "malformed", suggestion: "a:x" });
    expect(parseRef("a:!!")).not.toHaveProperty("suggestion");
    // Cut to 64 characters, then no trailing dash: "abc-" × 16 is 64 characters ending in a dash.
    expect(suggestSlug(` ${"Abc ".repeat(30)}`)).toBe(`${"abc-".repeat(15)}abc`);
  });
});
