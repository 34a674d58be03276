// Unit tests of the 3-way decision (pure). The merge through MCP is in test/graph.test.ts.
import { describe, expect, it } from "vitest";
import { changedFields, decide, type KeyState } from "./merge";

const node = (title: string, extra: Partial<KeyState> = {}): KeyState => ({ node_type: "hypothesis", title, deleted: false, ...extra });

describe("decide", () => {
  it("skips when theirs equals base or ours, applies when only theirs changed, conflicts otherwise", () => {
    expect(decide(node("a"), node("a"), node("b"))).toBe("same_as_base");
    expect(decide(node("a"), node("b"), node("b"))).toBe("same_as_ours");
    expect(decide(node("a"), node("b"), node("a"))).toBe("apply");
    expect(decide(node("a"), node("b"), node("c"))).toBe("conflict");
  });

  it("treats an absent key as a tombstone", () => {
    expect(decide(undefined, node("new"), undefined)).toBe("apply");
    expect(decide(undefined, { deleted: true }, undefined)).toBe("same_as_base");
    expect(decide(node("a"), { deleted: true }, node("a"))).toBe("apply");
    expect(decide(node("a"), { deleted: true }, node("edited"))).toBe("conflict");
  });

  it("ignores merge bookkeeping in meta but not other meta", () => {
    expect(changedFields(node("a", { meta: { _merge: { from: "x" } } }), node("a"))).toEqual([]);
    expect(changedFields(node("a", { meta: { weight: 1 } }), node("a"))).toEqual(["meta"]);
    expect(changedFields(node("a", { tags: ["x"] }), node("b", { tags: ["y"] }))).toEqual(["title", "tags"]);
  });
});
