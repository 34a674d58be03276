// The recommended card text (Claim / Scope / Apply / Proof / Expiry) and card identity.
import { describe, expect, it } from "vitest";
import { expiryProblem, isIsoDate, knowledgeCardId, normalizeClaim, parseKnowledgeText, titleFromText, utcDate } from "./card-format";

describe("knowledge card text", () => {
  it("parses the five fields, proof parts and continuation lines", () => {
    const parsed = parseKnowledgeText(
      [
        "Claim: The cache TTL is 5 minutes",
        "  in production only",
        "scope: api/cache",
        "Apply: set CACHE_TTL=300",
        "Proof: CMD: npm test | LINK: https://ci/run/1 | FILE: src/cache.ts | see the review",
        "Expiry: 2030-01-31",
        "Expiry: 2031-01-01",
      ].join("\n"),
    );
    expect(parsed).toEqual({
      claim: "The cache TTL is 5 minutes\nin production only",
      scope: "api/cache",
      apply: "set CACHE_TTL=300",
      proof: [
        { kind: "CMD", value: "npm test" },
        { kind: "LINK", value: "https://ci/run/1" },
        { kind: "FILE", value: "src/cache.ts" },
        { kind: "TEXT", value: "see the review" },
      ],
      expiry: "2030-01-31",
    });
    expect(parseKnowledgeText("just a sentence")).toEqual({ proof: [] });
  });

  it("validates expiry dates on the calendar; never is allowed", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2023-02-29")).toBe(false);
    expect(isIsoDate("2030-13-01")).toBe(false);
    expect(isIsoDate("2030-1-1")).toBe(false);
    expect(expiryProblem("never")).toBeUndefined();
    expect(expiryProblem("Never")).toBeUndefined();
    expect(expiryProblem("soon")).toMatch(/YYYY-MM-DD/);
    expect(utcDate(Date.UTC(2030, 0, 31, 23, 59))).toBe("2030-01-31");
  });

  it("takes a title from the Claim line", () => {
    expect(titleFromText("Claim: Use WAL\nScope: db", 512)).toBe("Use WAL");
    expect(titleFromText("no claim here", 512)).toBeUndefined();
    expect(titleFromText(`Claim: ${"x".repeat(20)}`, 5)).toBe("xxxxx");
  });

  it("derives ids from anchor, key and the normalised claim; drafts get their own", () => {
    expect(normalizeClaim("  Use   WAL ", "Scope: db\n\n  Apply:  pragma  ")).toBe("Use WAL\nScope: db\nApply: pragma");
    const id = knowledgeCardId("storage", "wal", normalizeClaim("Use WAL", undefined));
    expect(id).toMatch(/^CARD-KN-[0-9a-f]{16}$/);
    expect(knowledgeCardId("storage", "wal", normalizeClaim(" Use  WAL", undefined))).toBe(id);
    expect(knowledgeCardId("storage", "wal2", "Use WAL")).not.toBe(id);
    expect(knowledgeCardId("storage", "wal", "Use WAL", "agent/alice")).not.toBe(id);
  });
});
