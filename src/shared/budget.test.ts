// Unit tests of the budget ladder (pure). Its behaviour through MCP is in test/budget.test.ts and
// test/budget-ladder.test.ts.
import { describe, expect, it } from "vitest";
import { applyBudget, type BudgetSpec } from "./budget";
import { MIN_BUDGET_CHARS } from "./limits";

const spec: BudgetSpec = { lists: ["items"], keep: ["id"] };
const items = Array.from({ length: 10 }, (_, i) => ({ id: i, body: "b".repeat(100) }));

type Warned = { code: string; message: string; recovery: string };
type Answer = Record<string, unknown> & { warnings?: Warned[] };
const warningsOf = (answer: Answer): Warned[] => answer.warnings ?? [];
const askedChars = (answer: Answer, code: string) => {
  const warning = warningsOf(answer).find((item) => item.code === code);
  return Number(/max_chars (\d+)/.exec(warning?.recovery ?? "")?.[1]);
};

describe("applyBudget", () => {
  it("leaves a payload that fits untouched, with budget and a top-level truncated attached", () => {
    const out = applyBudget({ items: items.slice(0, 2) }, spec, { max_chars: 5_000 }, "default");
    expect(out.items).toEqual(items.slice(0, 2));
    expect(out.truncated).toBe(false);
    expect(out.budget).toMatchObject({ max_chars: 5_000, truncated: false });
  });

  it("stubs oldest bodies before dropping anything, then drops oldest stubs", () => {
    const big = Array.from({ length: 60 }, (_, i) => ({ id: i, body: "b".repeat(100) }));
    const stubbed = applyBudget({ items: big }, spec, { max_chars: 2_500 }, "default");
    const list = stubbed.items as { id: number; body?: string; trimmed?: boolean }[];
    expect(list.length).toBe(60);
    expect(list[0]).toEqual({ id: 0, trimmed: true });
    expect(list[59]?.body).toBeDefined();
    const dropped = applyBudget({ items: big }, spec, { max_chars: MIN_BUDGET_CHARS }, "default");
    const rest = dropped.items as { id: number }[];
    expect(rest.length).toBeLessThan(60);
    expect(rest[rest.length - 1]?.id).toBe(59);
  });

  it("never reports more than the budget, and never mutates its input", () => {
    const input = { items: items.map((item) => ({ ...item })) };
    const snapshot = JSON.stringify(input);
    for (const max of [MIN_BUDGET_CHARS, 900, 2_000]) {
      const out = applyBudget(input, spec, { max_chars: max }, "default");
      const { budget, ...rest } = out as { budget: { used_chars: number } };
      expect(budget.used_chars).toBe(JSON.stringify(rest).length);
      expect(budget.used_chars).toBeLessThanOrEqual(max);
    }
    expect(JSON.stringify(input)).toBe(snapshot);
  });

  it("trims newest-first lists from the end", () => {
    const out = applyBudget({ items }, { ...spec, trimFromEnd: true }, { max_chars: MIN_BUDGET_CHARS + 100 }, "default");
    const list = out.items as { id: number; trimmed?: boolean }[];
    expect(list[list.length - 1]).toMatchObject({ trimmed: true });
    expect(list[0]?.trimmed).toBeUndefined();
  });

  it("a cut names the budget that returns the whole answer, and that budget does", () => {
    const cut = applyBudget({ items }, spec, { max_chars: MIN_BUDGET_CHARS }, "default");
    expect(cut.truncated).toBe(true);
    const whole = askedChars(cut, "BUDGET_TRUNCATED");
    const again = applyBudget({ items }, spec, { max_chars: whole }, "default");
    expect(again.truncated).toBe(false);
    expect(again.items).toEqual(items);
    // Under a named profile too small for it, the recovery names the audit profile as well.
    const portal: Answer = applyBudget({ items: Array(60).fill(items[0]) }, spec, { budget_profile: "portal" }, "portal");
    expect(warningsOf(portal)[0]?.recovery).toMatch(/^Pass budget_profile "audit", max_chars \d+: the whole answer\.$/);
  });

  it("falls back to a minimal answer whose warnings keep their text, and names the budget of the level above", () => {
    const payload = { title: "t".repeat(2_000), items: [{ id: 1, body: "x" }] };
    const out: Answer = applyBudget(payload, spec, { max_chars: 10 }, "default");
    expect(out).toMatchObject({ signal: "minimal", truncated: true });
    expect((out.budget as { used_chars: number }).used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    expect(warningsOf(out).map((warning) => warning.code)).toEqual(["BUDGET_MIN_CLAMPED", "BUDGET_MINIMAL"]);
    for (const warning of warningsOf(out)) expect(warning.message.length * warning.recovery.length).toBeGreaterThan(0);
    const above = applyBudget(payload, spec, { max_chars: askedChars(out, "BUDGET_MINIMAL") }, "default");
    // The level above: here the whole answer, smaller than the trimmed one with its warning.
    expect(above.signal).toBeUndefined();
    expect(above.title).toBe(payload.title);
  });

  it("the minimal answer with every clamp fits the minimum budget", () => {
    const payload = { title: "t".repeat(5_000) };
    const out: Answer = applyBudget(payload, undefined, { max_chars: 1, max_bytes: 1, max_lines: 1 }, "default");
    expect(out.signal).toBe("minimal");
    expect(out.warnings).toHaveLength(4);
    expect((out.budget as { used_chars: number }).used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
  });
});
