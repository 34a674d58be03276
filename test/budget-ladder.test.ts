// The budget ladder, as a property over every read command: on a seeded workspace, each read that
// answers its example call (docs/commands.md) is called through MCP on the full toolset under the audit
// profile with random budgets (max_chars, max_bytes or max_lines, from 1 to 30,000; a fixed fast-check
// seed). Every answer stays within its budget, has a top-level `truncated`, carries a clamp warning when
// its budget was raised and a cut warning when it was cut, each with a message and a recovery; a cut's
// recovery names a budget, and calling again with it returns a less degraded answer; a larger budget never
// names fewer ids; and every level has the whole answer's shape (fields left out, never re-shaped).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../src/catalog/catalog";
import { exampleArgsOf } from "../src/catalog/command-facts";
import { MIN_BUDGET_CHARS, MIN_BUDGET_LINES } from "../src/shared/limits";
import { callTool, ok } from "./helpers/mcp";

const FULL = { path: "/mcp?toolset=full" };
/** Budgets tried per command (the property's runs), and the seed that makes them the same every run. */
const RUNS_PER_COMMAND = 12;
const SEED = 20261126;

type Answer = Record<string, any>;
interface Warning {
  code: string;
  message: string;
  recovery: string;
}
type BudgetKind = "max_chars" | "max_bytes" | "max_lines";

/** A seeded state: `scale` multiplies its notes, step notes and cards (1: modest, 3: a working week). */
async function seed(workspace: string, scale: number): Promise<void> {
  const long = (label: string) => `${label}: ${"a measured observation with its context ".repeat(12)}`;
  const start = await ok("tasks_macro_start", { workspace, title: "Speed up search" }, FULL);
  for (let i = 1; i <= 10 * scale; i++) await ok("notes_commit", { workspace, content: long(`note ${i}`) }, FULL);
  for (let i = 1; i <= 4 * scale; i++) await ok("tasks_note", { workspace, task: start.task_id, note: long(`step note ${i}`) }, FULL);
  for (let i = 1; i <= 5 * scale; i++) {
    await ok("think_add_hypothesis", { workspace, id: `H${i}`, title: `Hypothesis ${i}`, text: long("why") }, FULL);
    await ok("think_add_evidence", { workspace, id: `E${i}`, title: `Evidence ${i}`, text: long("seen"), supports: [`H${i}`] }, FULL);
  }
  await ok("trace_step", { workspace, step: "explore", content: long("trace") }, FULL);
  // What the example calls of docs/commands.md name: a branch, CARD-1, JOB-001, a code slice, R001 in two versions.
  await ok("branch_create", { workspace, name: "experiment" }, FULL);
  await ok("notes_commit", { workspace, branch: "experiment", content: long("on the branch") }, FULL);
  await ok("think_card", { workspace, card: { id: "CARD-1", type: "decision", title: "Use BM25", text: long("because") } }, FULL);
  await ok("jobs_create", { workspace, title: "Review the ranking", prompt: long("prompt") }, FULL);
  const text = "export const a = 1;\nexport const b = 2;\n";
  await ok("code_ref_attach", { workspace, path: "src/app.ts", start_line: 1, end_line: 2, text }, FULL);
  await ok("create_record", { workspace, type: "decision", title: "Ranking", summary: "BM25", body: long("body") }, FULL);
  await ok("update_record", { workspace, id: "R001", body: long("revised") }, FULL);
}

/** How degraded an answer is: 0 whole, 1 trimmed, 2 a command's small form, 3 minimal. */
function level(answer: Answer): number {
  const warnings = (answer.warnings ?? []) as Warning[];
  if (warnings.some((warning) => warning.code === "BUDGET_MINIMAL")) return 3;
  const cut = warnings.find((warning) => warning.code === "BUDGET_TRUNCATED");
  if (!cut) return 0;
  return cut.message.includes("small form") ? 2 : 1;
}

/** The budget arguments a recovery names (`budget_profile "audit", max_chars 5210`). */
function askedBudget(recovery: string): Record<string, unknown> | undefined {
  const asked: Record<string, unknown> = {};
  for (const kind of ["max_chars", "max_bytes", "max_lines"] as const) {
    const value = new RegExp(`${kind} (\\d+)`).exec(recovery)?.[1];
    if (value !== undefined) asked[kind] = Number(value);
  }
  if (/budget_profile "audit"/.test(recovery)) asked.budget_profile = "audit";
  return Object.keys(asked).length > 0 ? asked : undefined;
}

const ID_KEYS = new Set(["id", "seq", "card_id", "event_id", "step_id", "record_id", "session_id", "job", "conflict_id"]);

/** The ids an answer names (outside its warnings, budget and capsule): what a larger budget must keep. */
function idsOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) idsOf(item, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "warnings" || key === "budget" || key === "capsule") continue;
      if (ID_KEYS.has(key) && (typeof inner === "string" || typeof inner === "number")) out.add(`${key}:${inner}`);
      else idsOf(inner, out);
    }
  }
  return out;
}

/** Fields the ladder itself adds: they are not the command's shape. */
const LADDER_FIELDS = new Set(["warnings", "budget", "truncated", "signal", "trimmed"]);

/** `path: type` of every field (array items share the path `[]`). */
function shapeOf(value: unknown, path = "", out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) {
    out.set(path, "array");
    for (const item of value) shapeOf(item, `${path}[]`, out);
  } else if (value !== null && typeof value === "object") {
    out.set(path, "object");
    for (const [key, inner] of Object.entries(value)) if (!LADDER_FIELDS.has(key)) shapeOf(inner, `${path}.${key}`, out);
  } else out.set(path, value === null ? "null" : typeof value);
  return out;
}

/**
 * A path a cut answer may have that its whole answer lacks: the cursor a repair adds to a cut page, and
 * items of a list that was empty in the whole answer (`degradation.truncated_fields`).
 */
function isAddable(path: string, whole: Map<string, string>): boolean {
  if (path.endsWith(".next_cursor")) return true;
  const list = /^(.*?)\[\]/.exec(path)?.[1];
  return list !== undefined && whole.get(list) === "array" && !whole.has(`${list}[]`);
}

function measured(answer: Answer): { chars: number; bytes: number } {
  const { budget: _budget, ...rest } = answer;
  const text = JSON.stringify(rest);
  return { chars: text.length, bytes: new TextEncoder().encode(text).length };
}

async function read(workspace: string, tool: string, args: Record<string, unknown>): Promise<{ answer: Answer; lines: number }> {
  const result = await callTool(tool, { workspace, budget_profile: "audit", ...args }, FULL);
  expect(result.isError, `${tool} ${JSON.stringify(args)}: ${JSON.stringify(result.structuredContent).slice(0, 300)}`).toBeFalsy();
  return { answer: result.structuredContent as Answer, lines: (result.content[0]?.text ?? "").split("\n").length };
}

const READS = COMMANDS.filter((command) => command.kind === "read" && command.scope === "workspace" && "max_chars" in command.input.shape);

/** The seeded states the property runs on, and their scale. */
const STATES = [
  { workspace: "ladder/modest", scale: 1 },
  { workspace: "ladder/week", scale: 3 },
];

describe("the budget ladder", () => {
  it.each(STATES)(
    "holds for every read command with a budget on $workspace: bounded, warned, recoverable, monotonic, one shape",
    { timeout: 240_000 },
    async ({ workspace, scale }) => {
      await seed(workspace, scale);
      const checked: string[] = [];
      const skipped: string[] = [];
      const reshaped = new Set<string>();
      const cut = new Set<string>();
      /** Per command, the largest budget (at or above the minimum) whose answer was the minimal one. */
      const minimalAt = new Map<string, number>();
      for (const command of READS) {
        const example = exampleArgsOf(command);
        const probe = await callTool(command.tool, { ...example, workspace, budget_profile: "audit" }, FULL);
        if (probe.isError) {
          skipped.push(command.tool);
          continue;
        }
        checked.push(command.tool);
        const wholeShape = shapeOf(probe.structuredContent);
        const budgets = fc.sample(
          fc.record({
            kind: fc.constantFrom<BudgetKind>("max_chars", "max_chars", "max_bytes", "max_lines"),
            value: fc.oneof(fc.integer({ min: 1, max: 1_500 }), fc.integer({ min: 1, max: 30_000 })),
          }),
          { numRuns: RUNS_PER_COMMAND, seed: SEED + scale },
        );
        const counts: { kind: BudgetKind; budget: number; ids: number }[] = [];
        for (const { kind, value } of budgets) {
          const budget = kind === "max_lines" ? Math.max(1, Math.round(value / 100)) : value;
          const label = `${command.tool} ${kind}=${budget}`;
          const { answer, lines } = await read(workspace, command.tool, { ...example, [kind]: budget });
          const size = measured(answer);
          expect(answer.budget.used_chars, label).toBe(size.chars);
          expect(size.chars, label).toBeLessThanOrEqual(answer.budget.max_chars);
          if (kind === "max_bytes") expect(size.bytes, label).toBeLessThanOrEqual(answer.budget.max_bytes);
          if (kind === "max_lines") expect(lines, label).toBeLessThanOrEqual(answer.budget.max_lines);
          // get_record_diff's own `truncated` is an object of per-field flags (seed 004's type): it stays.
          const flags = typeof answer.truncated === "object" && command.tool === "get_record_diff";
          if (!flags) expect(typeof answer.truncated, label).toBe("boolean");
          if (answer.budget.truncated && !flags) expect(answer.truncated, label).toBe(true);
          const warnings = (answer.warnings ?? []) as Warning[];
          for (const warning of warnings) {
            expect(warning.message.length, `${label} ${warning.code}`).toBeGreaterThan(0);
            expect(warning.recovery.length, `${label} ${warning.code}`).toBeGreaterThan(0);
          }
          const codes = warnings.map((warning) => warning.code);
          const minimum = kind === "max_lines" ? MIN_BUDGET_LINES : MIN_BUDGET_CHARS;
          if (budget < minimum) expect(codes, label).toContain("BUDGET_MIN_CLAMPED");
          // One shape at every level: a field is the whole answer's, with its type (null stands for any).
          for (const [path, type] of shapeOf(answer)) {
            const whole = wholeShape.get(path);
            const added = whole === undefined && !isAddable(path, wholeShape);
            if (added || (whole !== undefined && whole !== type && whole !== "null" && type !== "null")) {
              reshaped.add(`${command.tool} ${path}: ${whole ?? "absent"} → ${type}`);
            }
          }
          counts.push({ kind, budget: answer.budget[kind] ?? answer.budget.max_chars, ids: idsOf(answer).size });
          const degraded = level(answer);
          if (degraded === 3 && kind === "max_chars" && budget >= MIN_BUDGET_CHARS) {
            minimalAt.set(command.tool, Math.max(budget, minimalAt.get(command.tool) ?? 0));
          }
          if (!answer.budget.truncated) continue;
          expect(degraded, label).toBeGreaterThan(0);
          cut.add(command.tool);
          const warning = warnings.find((candidate) => candidate.code === "BUDGET_TRUNCATED" || candidate.code === "BUDGET_MINIMAL");
          const asked = askedBudget(warning?.recovery ?? "");
          expect(asked, `${label}: ${warning?.recovery}`).toBeDefined();
          const again = await read(workspace, command.tool, { ...example, [kind]: budget, ...asked });
          // A view that sizes its sections by the budget promises more, not the whole: more ids at the same level.
          if (warning?.recovery.includes("more of the answer") && level(again.answer) === degraded) {
            expect(idsOf(again.answer).size, `${label} then ${JSON.stringify(asked)}`).toBeGreaterThan(idsOf(answer).size);
          } else expect(level(again.answer), `${label} then ${JSON.stringify(asked)}`).toBeLessThan(degraded);
        }
        // Monotonic: a larger budget of the same kind never names fewer ids.
        for (const a of counts) {
          for (const b of counts) {
            if (a.kind === b.kind && a.budget < b.budget) {
              expect(b.ids, `${command.tool} ${a.kind}: ${a.budget} → ${a.ids} ids, ${b.budget} → ${b.ids}`).toBeGreaterThanOrEqual(a.ids);
            }
          }
        }
      }
      console.info(
        `budget ladder: ${checked.length} read commands checked, ${cut.size} of them cut at some budget; ` +
          `not answering their example call here: ${skipped.join(", ")}; minimal at max_chars: ` +
          JSON.stringify(Object.fromEntries(minimalAt)),
      );
      expect([...reshaped]).toEqual([]);
      expect(checked.length).toBeGreaterThan(40);
      expect(cut.size).toBeGreaterThan(10);
    },
  );
});
