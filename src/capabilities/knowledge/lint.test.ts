// Knowledge lint findings over key rows: duplicates, overloaded keys, expiry; sorted and deterministic.
import { describe, expect, it } from "vitest";
import { type LintRow, lintKnowledge } from "./lint";

function row(anchor: string, key: string, content: string, expiry: string | null = "never"): LintRow {
  return { anchor, key, lane: "shared", card_id: `CARD-KN-${anchor}-${key}`, content_hash: content, expiry };
}

const codes = (rows: LintRow[], asOf: string | null = null) => lintKnowledge(rows, asOf).map((issue) => issue.code);

describe("knowledge lint", () => {
  it("finds nothing in a clean set", () => {
    expect(lintKnowledge([row("api", "limits", "h1"), row("db", "wal", "h2")], "2030-01-01")).toEqual([]);
  });

  it("flags duplicate content under one anchor (warning) and across anchors (info)", () => {
    const same = lintKnowledge([row("api", "a", "h"), row("api", "b", "h")], null);
    expect(same).toHaveLength(1);
    expect(same[0]).toMatchObject({
      severity: "warning",
      code: "KNOWLEDGE_DUPLICATE_CONTENT_SAME_ANCHOR",
      evidence: { anchor: "a:api", keys: ["a", "b"] },
    });
    expect(codes([row("api", "k", "h"), row("db", "k", "h")])).toEqual(["KNOWLEDGE_DUPLICATE_CONTENT_SAME_KEY_ACROSS_ANCHORS"]);
    expect(codes([row("api", "k1", "h"), row("db", "k2", "h")])).toEqual(["KNOWLEDGE_DUPLICATE_CONTENT_ACROSS_ANCHORS_MULTIPLE_KEYS"]);
  });

  it("flags a key overloaded across anchors, or its outliers when most anchors agree", () => {
    expect(codes([row("api", "limits", "h1"), row("db", "limits", "h2")])).toEqual(["KNOWLEDGE_KEY_OVERLOADED_ACROSS_ANCHORS"]);
    const outliers = lintKnowledge([row("a1", "k", "h1"), row("a2", "k", "h1"), row("a3", "k", "h2")], null);
    expect(outliers.map((issue) => issue.code)).toEqual([
      "KNOWLEDGE_DUPLICATE_CONTENT_SAME_KEY_ACROSS_ANCHORS",
      "KNOWLEDGE_KEY_OVERLOADED_OUTLIERS",
    ]);
    expect(outliers[1]?.evidence).toMatchObject({ outliers: { anchors: ["a:a3"] }, majority: { anchors: ["a:a1", "a:a2"] } });
  });

  it("honours Expiry against the given date only: missing, invalid, expired (the day itself is still valid)", () => {
    const rows = [
      row("x", "none", "h1", null),
      row("x", "bad", "h2", "soon"),
      row("x", "old", "h3", "2024-01-01"),
      row("x", "today", "h4", "2025-06-01"),
    ];
    expect(codes(rows, "2025-06-01")).toEqual(["KNOWLEDGE_EXPIRED", "KNOWLEDGE_EXPIRY_INVALID", "KNOWLEDGE_MISSING_EXPIRY"]);
    expect(codes(rows, null)).toEqual(["KNOWLEDGE_EXPIRY_INVALID", "KNOWLEDGE_MISSING_EXPIRY"]);
    expect(lintKnowledge(rows, "2025-06-01")[0]?.evidence).toMatchObject({ key: "old", expiry: "2024-01-01", as_of: "2025-06-01" });
  });

  it("gives the same list whatever the order of its rows", () => {
    const rows = [row("api", "a", "h"), row("api", "b", "h"), row("db", "a", "h2", null), row("db", "c", "h3", "2000-01-01")];
    expect(lintKnowledge([...rows].reverse(), "2025-01-01")).toEqual(lintKnowledge(rows, "2025-01-01"));
  });
});
