// Unit: card input forms normalize to one canonical shape.
import { describe, expect, it } from "vitest";
import { CardParseError, normalizeCard } from "./cards.parse";

describe("normalizeCard", () => {
  it("accepts objects, JSON strings, key: value lines and plain text", () => {
    expect(normalizeCard({ type: "Hypothesis", title: " A ", tags: ["B", "a", "b"] })).toEqual({
      type: "hypothesis",
      title: "A",
      status: "open",
      tags: ["a", "b"],
      meta: {},
    });
    expect(normalizeCard('{"card_id":"X","text":"t"}')).toEqual({ id: "X", type: "note", text: "t", status: "open", tags: [], meta: {} });
    expect(normalizeCard("type: decision\ntitle: Ship it\ntags: Go, risk\nowner: ops")).toEqual({
      type: "decision",
      title: "Ship it",
      status: "open",
      tags: ["go", "risk"],
      meta: { owner: "ops" },
    });
    expect(normalizeCard("Note: remember this")).toEqual({ type: "note", text: "Note: remember this", status: "open", tags: [], meta: {} });
    expect(normalizeCard("just a thought")).toMatchObject({ type: "note", text: "just a thought" });
  });

  it("refuses cards without a title or text, and malformed fields", () => {
    expect(() => normalizeCard({ type: "note" })).toThrow(CardParseError);
    expect(() => normalizeCard("{not json")).toThrow(CardParseError);
    expect(() => normalizeCard({ title: "x", tags: "a" })).toThrow(CardParseError);
    expect(() => normalizeCard({ title: "x", meta: [] })).toThrow(CardParseError);
    expect(() => normalizeCard("   ")).toThrow(CardParseError);
  });
});
