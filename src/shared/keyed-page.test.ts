import { describe, expect, it } from "vitest";
import { keyedPageRepair } from "./keyed-page";

const page = { cursor: "A", has_more: false, limit: 3, count: 3 };
const original = { jobs: [{ id: "B" }, { id: "C" }, { id: "D" }], pagination: page };
const repair = keyedPageRepair("jobs", "id");

describe("keyedPageRepair", () => {
  it("points next_cursor at the last item the budget kept, and says more remain", () => {
    const trimmed = { jobs: [{ id: "B" }, { id: "C" }], pagination: page };
    expect(repair(trimmed, original).pagination).toEqual({ cursor: "A", has_more: true, limit: 3, count: 2, next_cursor: "C" });
  });

  it("leaves an untrimmed page alone, and falls back to the page's cursor when nothing was kept", () => {
    expect(repair(original, original)).toBe(original);
    const emptied = repair({ jobs: [], pagination: { ...page, next_cursor: "D" } }, original);
    expect(emptied.pagination).toEqual({ cursor: "A", has_more: true, limit: 3, count: 0, next_cursor: "A" });
  });

  it("replaces a next_cursor that pointed past dropped items", () => {
    const trimmed = { jobs: [{ id: "B" }], pagination: { ...page, has_more: true, next_cursor: "D" } };
    expect(repair(trimmed, original).pagination).toMatchObject({ next_cursor: "B", count: 1 });
  });
});
