// Unit tests of the budget mechanism (pure). Its behaviour through MCP is in test/budget.test.ts.
import { describe, expect, it } from "vitest";
import { applyBudget, type BudgetSpec } from "./budget";

const spec: BudgetSpec = { lists: ["items"], keep: ["id"] };
const items = Array.from({ length: 10 }, (_, i) => ({ id: i, body: "b".repeat(100) }));

describe("applyBudget", () => {
  it("leaves a payload that fits untouched, with budget attached", () => {
    const out = applyBudget({ items: items.slice(0, 2) }, spec, { max_chars: 5_000 }, "default");
    expect(out.items).toEqual(items.slice(0, 2));
    expect(out.budget).toMatchObject({ max_chars: 5_000, truncated: false });
  });

  it("stubs oldest bodies before dropping anything, then drops oldest stubs", () => {
    const stubbed = applyBudget({ items }, spec, { max_chars: 700 }, "default");
    const list = stubbed.items as { id: number; body?: string; trimmed?: boolean }[];
    expect(list.length).toBe(10);
    expect(list[0]).toEqual({ id: 0, trimmed: true });
    expect(list[9]?.body).toBeDefined();
    const dropped = applyBudget({ items }, spec, { max_chars: 300 }, "default");
    const rest = dropped.items as { id: number }[];
    expect(rest.length).toBeLessThan(10);
    expect(rest[rest.length - 1]?.id).toBe(9);
  });

  it("never reports more than the budget, and never mutates its input", () => {
    const input = { items: items.map((item) => ({ ...item })) };
    const snapshot = JSON.stringify(input);
    for (const max of [256, 400, 900, 2_000]) {
      const out = applyBudget(input, spec, { max_chars: max }, "default");
      const { budget, ...rest } = out as { budget: { used_chars: number } };
      expect(budget.used_chars).toBe(JSON.stringify(rest).length);
      expect(budget.used_chars).toBeLessThanOrEqual(max);
    }
    expect(JSON.stringify(input)).toBe(snapshot);
  });

  it("trims newest-first lists from the end", () => {
    const out = applyBudget({ items }, { ...spec, trimFromEnd: true }, { max_chars: 700 }, "default");
    const list = out.items as { id: number; trimmed?: boolean }[];
    expect(list[9]).toEqual({ id: 9, trimmed: true });
    expect(list[0]?.trimmed).toBeUndefined();
  });

  it("falls back to a minimal stub when nothing trimmable is left", () => {
    const out = applyBudget({ title: "t".repeat(1_000) }, undefined, { max_chars: 256 }, "default");
    expect(out.signal).toBe("minimal");
    expect((out.budget as { used_chars: number }).used_chars).toBeLessThanOrEqual(256);
  });
});
