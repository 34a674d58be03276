import { describe, expect, it } from "vitest";
import { closestName, editDistance } from "./closest-name";

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("log", "log")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("notes.comit", "notes.commit")).toBe(1);
  });
});

describe("closestName", () => {
  const names = ["vcs.notes.commit", "notes_commit", "vcs.commit", "graph.merge", "graph_merge", "docs.merge", "log"];

  it("finds the name one typo away, whatever the separators and case", () => {
    expect(closestName("notes_comit", names)).toBe("notes_commit");
    expect(closestName("Graph/Merge", names)).toBe("graph.merge");
    expect(closestName("vcs-notes-commit", names)).toBe("vcs.notes.commit");
  });

  it("breaks ties by the longer shared prefix, then by candidate order", () => {
    // "graph.merg" is one edit from graph.merge and graph_merge (same after normalizing): the first wins.
    expect(closestName("graph.merg", names)).toBe("graph.merge");
    // "docs.mergx" is 1 from docs.merge, and shares its 9-character prefix.
    expect(closestName("docs.mergx", ["graph.merge", "docs.merge"])).toBe("docs.merge");
    expect(closestName("lag", ["lug", "log"])).toBe("lug");
  });

  it("is undefined without candidates and bounded for long inputs", () => {
    expect(closestName("anything", [])).toBeUndefined();
    expect(closestName("x".repeat(10_000), names)).toBeDefined();
  });
});
