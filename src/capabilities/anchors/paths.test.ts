// Path bindings: normal forms, refusals, prefixes deepest first; and the canon rule.
import { describe, expect, it } from "vitest";
import { canonRank, isCanon } from "./canon";
import { normalizePath, pathBindings, pathPrefixes } from "./paths";

describe("anchor path bindings", () => {
  it("normalises repo-relative paths and refuses the rest", () => {
    expect(normalizePath("./src//storage/")).toEqual({ ok: true, path: "src/storage" });
    for (const bad of ["/etc", "C:/x", "src/../x", "src\\x", "", ".", "a/./b"]) expect(normalizePath(bad).ok, bad).toBe(false);
  });

  it("lists a path's prefixes deepest first", () => {
    expect(pathPrefixes("src/storage/sql.ts")).toEqual(["src/storage/sql.ts", "src/storage", "src"]);
  });

  it("reads the bindings among refs", () => {
    expect(pathBindings(["path:src/b/", "code:x#L1-L2", "path:src/a", "path:/abs"])).toEqual({
      paths: ["src/a", "src/b"],
      problems: [{ ref: "path:/abs", problem: "the path must be repo-relative, not absolute" }],
    });
  });
});

describe("canon cards", () => {
  it("are shared, not v:draft, and pinned, v:canon, or a decision/evidence/test", () => {
    expect(isCanon("decision", [], "shared")).toBe(true);
    expect(isCanon("note", ["pinned"], "shared")).toBe(true);
    expect(isCanon("knowledge", ["v:canon"], "shared")).toBe(true);
    expect(isCanon("note", [], "shared")).toBe(false);
    expect(isCanon("decision", [], "agent/alice")).toBe(false);
    expect(isCanon("decision", ["v:draft"], "shared")).toBe(false);
  });

  it("rank pinned, v:canon, decision, evidence, test, then the rest", () => {
    expect(
      [
        ["note", []],
        ["test", []],
        ["note", ["v:canon"]],
        ["evidence", []],
        ["note", ["pinned"]],
        ["decision", []],
      ].map(([type, tags]) => canonRank(type as string, tags as string[])),
    ).toEqual([5, 4, 1, 3, 0, 2]);
  });
});
