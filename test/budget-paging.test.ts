// Paging under a budget never stalls: on the budget ladder's seeded workspace, every read of its command
// list that pages (a `cursor` or `<list>_cursor` input) is called through MCP with budgets from 800 to
// 2,000 characters (a fixed fast-check seed), and each of its cursors is followed to the end. Every
// cursor moves forward (never the one just passed), the paging ends, and no item is named twice. A
// page that cannot show one item says so and names the budget at which it does.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exampleArgsOf } from "../src/catalog/command-facts";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { type Answer, FULL, seed } from "./helpers/ladder-seed";
import { callTool, ok } from "./helpers/mcp";
import { at, identity, PAGED, type Pager, pagersOf } from "./helpers/pagers";

/** Budgets tried per paged read, and the seed that makes them the same every run. */
const RUNS_PER_COMMAND = 5;
const SEED = 20261203;
/** No paging of the seeded workspace needs more pages than this (its longest list has about 40 items). */
const MAX_PAGES = 120;

interface Warning {
  code: string;
  message: string;
  recovery: string;
}

/**
 * Follows one pager from `first` to its end: no page names an item an earlier one named, and every
 * next_cursor differs from the one just passed (`start`: the cursor `first` was asked with). Returns
 * the pages asked for with a cursor that showed no item.
 */
async function follow(
  tool: string,
  args: Answer,
  first: Answer,
  pager: Pager,
  label: string,
  start?: unknown,
): Promise<{ cursor: unknown; answer: Answer }[]> {
  const seen = new Set<string>();
  const empty: { cursor: unknown; answer: Answer }[] = [];
  let answer = first;
  let cursor: unknown = start;
  for (let page = 0; ; page++) {
    expect(page, `${label}: still paging after ${MAX_PAGES} pages`).toBeLessThan(MAX_PAGES);
    const items = (at(answer, pager.list) ?? []) as unknown[];
    for (const item of items) {
      const id = identity(item);
      expect(seen.has(id), `${label}: ${id} named twice (page ${page}, cursor ${cursor})`).toBe(false);
      seen.add(id);
    }
    const pagination = at(answer, pager.pagination) as Answer | undefined;
    if (cursor !== undefined && items.length === 0 && pagination?.has_more) empty.push({ cursor, answer });
    const next = pagination?.next_cursor;
    if (next === undefined) return empty;
    expect(next, `${label}: the cursor did not move (page ${page})`).not.toEqual(cursor);
    cursor = next;
    answer = await ok(tool, { ...args, [pager.input]: next }, FULL);
  }
}

describe("paging under a budget", () => {
  it("ends, moves forward and names each item at most once, on every paged read from 800 to 2,000 characters", {
    timeout: 240_000,
  }, async () => {
    const workspace = "paging/week";
    await seed(workspace, 3);
    // More trace steps than a page holds, whose titles (kept by a trimmed entry) leave no room for one entry at 800.
    for (let i = 1; i <= 24; i++)
      await ok("trace_step", { workspace, step: `step ${i} ${"with a long title ".repeat(26)}`, content: "done" }, FULL);
    const followed = new Set<string>();
    for (const command of PAGED) {
      const example = exampleArgsOf(command);
      const inputs = Object.keys(command.input.shape);
      const sampled = fc.sample(fc.integer({ min: MIN_BUDGET_CHARS, max: 2_000 }), { numRuns: RUNS_PER_COMMAND, seed: SEED });
      for (const budget of [MIN_BUDGET_CHARS, ...sampled]) {
        const args = { ...example, workspace, max_chars: budget };
        const first = await callTool(command.tool, args, FULL);
        if (first.isError) break;
        for (const pager of pagersOf(first.structuredContent as Answer, inputs)) {
          followed.add(`${command.tool} ${pager.input}`);
          await follow(command.tool, args, first.structuredContent as Answer, pager, `${command.tool} max_chars ${budget} ${pager.input}`);
        }
      }
    }
    console.info(`budget paging: followed ${[...followed].join(", ")}`);
    expect(followed.size).toBeGreaterThan(15);
  });

  it("pages a resume view's cards on under a budget too small for one: no cursor repeats, and the answer names the budget that shows the next card", {
    timeout: 120_000,
  }, async () => {
    const workspace = "paging/resume";
    await seed(workspace, 1);
    const task = "TASK-001";
    for (let i = 1; i <= 8; i++) await ok("think_add_note", { workspace, target: task, id: `B${i}`, text: `body ${i} `.repeat(40) }, FULL);
    const inputs = ["notes_cursor", "trace_cursor", "cards_cursor"];
    // Budgets where the view's trimmed answer fits but its card page may not (its small forms below, every card above).
    const budgets = [3_250, 3_600, 4_000, ...fc.sample(fc.integer({ min: 2_000, max: 8_000 }), { numRuns: 8, seed: SEED })];
    // Cursors into the card page, from pages of two cards with room for all.
    const cursors: number[] = [];
    for (let cursor: number | undefined; ; ) {
      const page = await ok("tasks_resume_super", { workspace, task, cards_limit: 2, ...(cursor ? { cards_cursor: cursor } : {}) }, FULL);
      cursor = page.memory.cards_pagination.next_cursor;
      if (cursor === undefined) break;
      cursors.push(cursor);
    }
    expect(cursors.length).toBeGreaterThan(2);
    let told = 0;
    for (const tool of ["tasks_resume_super", "tasks_snapshot"]) {
      for (const budget of budgets) {
        for (const start of [undefined, ...cursors]) {
          const args = { workspace, task, max_chars: budget };
          const first = await ok(tool, { ...args, ...(start ? { cards_cursor: start } : {}) }, FULL);
          const pages = pagersOf(first, inputs);
          for (const pager of start ? pages.filter((candidate) => candidate.input === "cards_cursor") : pages) {
            const label = `${tool} max_chars ${budget} ${pager.input} from ${start}`;
            const empty = await follow(tool, args, first, pager, label, start);
            for (const { cursor, answer } of empty) {
              // A page that cannot show one item says so, and the budget it names shows the next item.
              const warning = ((answer.warnings ?? []) as Warning[]).find((candidate) => candidate.code === "BUDGET_ITEM_TOO_LARGE");
              expect(warning, `${label} at ${cursor}: ${JSON.stringify(answer.warnings)}`).toBeDefined();
              const asked = Number(/max_chars (\d+)/.exec(warning?.recovery ?? "")?.[1]);
              expect(asked, `${label}: ${warning?.recovery}`).toBeGreaterThan(budget);
              const again = await ok(tool, { ...args, max_chars: asked, [pager.input]: cursor }, FULL);
              expect(((at(again, pager.list) ?? []) as unknown[]).length, `${label} at ${cursor} with max_chars ${asked}`).toBeGreaterThan(
                0,
              );
              told++;
            }
          }
        }
      }
    }
    expect(told).toBeGreaterThan(0);
  });
});
