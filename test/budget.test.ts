// End-to-end: the budget contract on every read (used_chars ≤ max_chars, max_bytes, max_lines, clamping,
// truncation that keeps ids and pagination) and the export snapshot, through the real MCP endpoint.
import { beforeAll, describe, expect, it } from "vitest";
import { MIN_BUDGET_CHARS, MIN_BUDGET_LINES } from "../src/shared/limits";
import { callTool, ok } from "./helpers/mcp";

const workspace = "budget/store";
const BIG = "x".repeat(2_000);

beforeAll(async () => {
  for (let i = 1; i <= 12; i++) await ok("commit", { workspace, artifact: `${i}:${BIG}`, message: `c${i}` });
  await ok("branch_create", { workspace, name: "side" });
  await ok("tag_create", { workspace, name: "t1", seq: 1 });
});

/** Every read command with arguments that make its answer non-trivial. */
const READS: [string, Record<string, unknown>][] = [
  ["status", {}],
  ["ping", {}],
  ["help", {}],
  ["show", { doc: "notes", limit: 12 }],
  ["diff", { from: "side", to: "main", doc: "notes" }],
  ["export", {}],
  ["docs_list", {}],
  ["branch_list", {}],
  ["log", {}],
  ["reflog", {}],
  ["tag_list", {}],
];

function payloadChars(structured: Record<string, unknown>): number {
  const { budget: _budget, ...rest } = structured;
  return JSON.stringify(rest).length;
}

describe("budgets on every read", () => {
  for (const [tool, args] of READS) {
    it(`${tool}: reports budget and keeps used_chars within max_chars`, async () => {
      for (const max of [MIN_BUDGET_CHARS, 1_000, 5_000]) {
        const result = await callTool(tool, { workspace, ...args, max_chars: max });
        expect(result.isError).toBeFalsy();
        const budget = result.structuredContent.budget as { max_chars: number; used_chars: number; truncated: boolean };
        expect(budget.max_chars).toBe(max);
        expect(budget.used_chars).toBe(payloadChars(result.structuredContent));
        expect(budget.used_chars).toBeLessThanOrEqual(max);
      }
    });
  }

  it("applies the default profile (20k) when no budget is given, and the audit profile on request", async () => {
    const plain = await ok("show", { workspace, doc: "notes", limit: 12 });
    expect(plain.budget).toMatchObject({ max_chars: 20_000, truncated: true });
    const audit = await ok("show", { workspace, doc: "notes", limit: 12, budget_profile: "audit" });
    expect(audit.budget).toMatchObject({ max_chars: 80_000, truncated: false });
    expect(audit.entries.every((entry: { content?: string }) => entry.content !== undefined)).toBe(true);
  });

  it("trims oldest first, keeps ids of trimmed entries, and leaves a cursor to what was dropped", async () => {
    const shown = await ok("show", { workspace, doc: "notes", limit: 12, max_chars: 6_000 });
    expect(shown.budget.truncated).toBe(true);
    expect(shown.truncated).toBe(true);
    expect(shown.warnings.map((w: { code: string }) => w.code)).toContain("BUDGET_TRUNCATED");
    const last = shown.entries[shown.entries.length - 1];
    expect(last.content.startsWith("12:")).toBe(true);
    const stubs = shown.entries.filter((entry: { trimmed?: boolean }) => entry.trimmed);
    expect(stubs.length).toBeGreaterThan(0);
    expect(stubs.every((entry: { seq: number; content?: string }) => typeof entry.seq === "number" && entry.content === undefined)).toBe(
      true,
    );
    if (shown.entries.length < 12) {
      expect(shown.pagination).toMatchObject({ has_more: true, next_cursor: shown.entries[0].seq });
    }
  });

  it("shows an entry larger than the whole budget as a stub that keeps its seq", async () => {
    const ws = "budget/huge";
    const written = await ok("notes_commit", { workspace: ws, content: "h".repeat(200_000), title: "huge" });
    await ok("notes_commit", { workspace: ws, content: "small" });
    const shown = await ok("show", { workspace: ws, doc: "notes" });
    expect(shown.budget.used_chars).toBeLessThanOrEqual(20_000);
    expect(shown.entries[0]).toEqual({
      seq: written.entry.seq,
      ts: written.entry.ts,
      kind: "note",
      title: "huge",
      trimmed: true,
    });
    expect(shown.entries[1].content).toBe("small");
  });

  it("context_budget is an alias of max_chars", async () => {
    const shown = await ok("show", { workspace, doc: "notes", context_budget: 2_500 });
    expect(shown.budget.max_chars).toBe(2_500);
    expect(shown.budget.used_chars).toBeLessThanOrEqual(2_500);
  });

  it("clamps budgets below the minimum and says so, with a message and a recovery", async () => {
    const shown = await ok("show", { workspace, doc: "notes", max_chars: 10 });
    expect(shown.budget.max_chars).toBe(MIN_BUDGET_CHARS);
    expect(shown.budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    expect(shown.warnings[0]).toEqual({
      code: "BUDGET_MIN_CLAMPED",
      message: `max_chars below the minimum ${MIN_BUDGET_CHARS} was raised to it.`,
      recovery: `Pass max_chars >= ${MIN_BUDGET_CHARS}.`,
    });
    const lines = await ok("show", { workspace, doc: "notes", max_lines: 2 });
    expect(lines.budget.max_lines).toBe(MIN_BUDGET_LINES);
    expect(lines.warnings.map((warning: { code: string }) => warning.code)).toContain("BUDGET_MIN_CLAMPED");
  });

  it("bounds UTF-8 bytes with max_bytes", async () => {
    const ws = "budget/bytes";
    for (let i = 0; i < 6; i++) await ok("notes_commit", { workspace: ws, content: "ж".repeat(400) });
    const shown = await callTool("show", { workspace: ws, doc: "notes", max_bytes: 2_000 });
    const bytes = new TextEncoder().encode(JSON.stringify({ ...shown.structuredContent, budget: undefined })).length;
    expect(bytes).toBeLessThanOrEqual(2_000);
    expect((shown.structuredContent.budget as { truncated: boolean }).truncated).toBe(true);
  });

  it("bounds lines of the text block with max_lines", async () => {
    for (const maxLines of [MIN_BUDGET_LINES, 14]) {
      const shown = await callTool("show", { workspace, doc: "notes", limit: 12, max_lines: maxLines, budget_profile: "audit" });
      expect(shown.content[0]?.text.split("\n").length).toBeLessThanOrEqual(maxLines);
    }
    const unbounded = await callTool("show", { workspace, doc: "notes", limit: 12, budget_profile: "audit" });
    expect(unbounded.content[0]?.text.split("\n").length).toBeGreaterThan(14);
  });

  it("mirrors the structured result in one JSON text block", async () => {
    const shown = await callTool("show", { workspace, doc: "notes", limit: 2 });
    expect(shown.content).toHaveLength(1);
    expect(JSON.parse(shown.content[0]?.text ?? "")).toEqual(shown.structuredContent);
  });

  it("is deterministic: the same call on the same store gives byte-identical output", async () => {
    const a = await callTool("show", { workspace, doc: "notes", max_chars: 3_000 });
    const b = await callTool("show", { workspace, doc: "notes", max_chars: 3_000 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});

describe("export", () => {
  it("returns reasoning refs and the tails of notes and trace for the checkout", async () => {
    const snapshot = await ok("export", { workspace, notes_limit: 3, budget_profile: "audit" });
    expect(snapshot.reasoning_ref).toEqual({ branch: "main", notes_doc: "notes", trace_doc: "trace", graph_doc: "graph" });
    expect(snapshot.notes.entries).toHaveLength(3);
    expect(snapshot.notes.pagination).toMatchObject({ has_more: true, limit: 3 });
    expect(snapshot.trace.entries).toEqual([]);
  });
});
