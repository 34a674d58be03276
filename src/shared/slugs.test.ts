// Slug rules of keys and anchors, and suggested slugs.
import { describe, expect, it } from "vitest";
import { anchorProblem, anchorSlugOf, anchorSlugsOfTags, keyProblem, suggestKey, suggestSlug } from "./slugs";

describe("knowledge slugs", () => {
  it("accepts keys of lowercase words joined by single dashes, at most 64 characters", () => {
    for (const key of ["cache", "cache-ttl", "v2-api-limits", "a".repeat(64)]) expect(keyProblem(key), key).toBeUndefined();
    for (const key of ["", "Cache", "cache--ttl", "-cache", "cache-", "cache_ttl", "cache ttl", "a".repeat(65)])
      expect(keyProblem(key), key).toBeDefined();
  });

  it("accepts anchor slugs as open's a:<slug> grammar does", () => {
    for (const slug of ["storage", "storage-2", "9lives", "odd--but-valid"]) expect(anchorProblem(slug), slug).toBeUndefined();
    for (const slug of ["", "-storage", "Storage", "storage layer", "a".repeat(65)]) expect(anchorProblem(slug), slug).toBeDefined();
    expect(anchorSlugOf(" a:storage ")).toBe("storage");
    expect(anchorSlugOf("storage")).toBe("storage");
  });

  it("suggests slugs: lowercase words, one dash between, bounded", () => {
    expect(suggestSlug("Cache TTL -- 5 minutes!")).toBe("cache-ttl-5-minutes");
    expect(suggestSlug("  ")).toBe("");
    expect(suggestSlug(`${"word ".repeat(30)}`).length).toBeLessThanOrEqual(64);
    expect(suggestSlug("x".repeat(100))).toBe("x".repeat(64));
    expect(suggestKey("The cache TTL is five minutes in production")).toBe("the-cache-ttl-is-five-minutes");
    expect(keyProblem(suggestKey("Ünïcode and Ümlauts 2"))).toBeUndefined();
  });

  it("reads the anchors of a card's tags: valid a:<slug> tags only, sorted, once", () => {
    expect(anchorSlugsOfTags(["k:x", "a:storage", "a:api", "a:storage", "a:bad slug", "pinned", "a:"])).toEqual(["api", "storage"]);
  });
});
