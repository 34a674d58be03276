// Search input is escaped into quoted FTS5 strings: no character or keyword is syntax.
import { describe, expect, it } from "vitest";
import { ftsQuery } from "./search-query";

describe("FTS5 query escaping", () => {
  it("quotes every word, doubling quotes, and ANDs them", () => {
    expect(ftsQuery("foo-bar a/b v1.2").match).toBe('"foo-bar" "a/b" "v1.2"');
    expect(ftsQuery('"quoted').match).toBe('"""quoted"');
    expect(ftsQuery("col:term").match).toBe('"col:term"');
    expect(ftsQuery("AND OR NOT NEAR").match).toBe('"AND" "OR" "NOT" "NEAR"');
  });

  it("drops words without letters or digits and keeps a trailing * as a prefix search", () => {
    expect(ftsQuery("* ( ) -- ^")).toEqual({ match: null, terms: [], dropped: ["*", "(", ")", "--", "^"] });
    expect(ftsQuery("stor* engine")).toEqual({ match: '"stor" * "engine"', terms: ["stor", "engine"], dropped: [] });
    expect(ftsQuery("   ").match).toBeNull();
  });

  it("keeps at most 16 words", () => {
    const query = ftsQuery(Array.from({ length: 20 }, (_, i) => `w${i}`).join(" "));
    expect(query.terms).toHaveLength(16);
    expect(query.dropped).toEqual(["w16", "w17", "w18", "w19"]);
  });
});
