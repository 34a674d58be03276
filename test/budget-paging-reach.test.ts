// Paging under a budget reaches every item: on the budget ladder's seeded workspace (with more than a
// small page of commits, tags, branches, conflicts, record versions, activity, knowledge cards and
// anchors), every read of its command list that pages is followed to its end with a large budget, then
// with budgets from 800 to 2,000 characters (a fixed fast-check seed). The small budgets name the same
// items, each once, in the same order: a budget that drops items from a page moves its cursor back to
// the last item shown. A page that cannot show one item says so (BUDGET_ITEM_TOO_LARGE) and is asked
// again with the budget its warning names.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exampleArgsOf } from "../src/catalog/command-facts";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { type Answer, FULL, seed, seedPages } from "./helpers/ladder-seed";
import { callTool, ok } from "./helpers/mcp";
import { at, identity, PAGED, type Pager, pagersOf } from "./helpers/pagers";

/** Budgets tried per paged read, and the seed that makes them the same every run. */
const RUNS_PER_COMMAND = 4;
const SEED = 20261203;
/** A budget no page of the seeded workspace needs: its pages are whole. */
const LARGE_BUDGET = 200_000;
/** No paging of the seeded workspace needs more pages than this (its longest list has about 40 items). */
const MAX_PAGES = 120;
/** The reads whose pages issue 41 found skipping items: each must need more than one page at 800 characters. */
const MULTI_PAGE = [
  "log",
  "reflog",
  "branch_list",
  "tag_list",
  "graph_conflicts",
  "get_record_history",
  "get_recent_activity",
  "knowledge_query",
  "anchors_list",
];

interface Warning {
  code: string;
  message: string;
  recovery: string;
}

/** The items one pager names at `budget`, page by page from the first to the last. */
async function walk(tool: string, args: Answer, pager: Pager, budget: number): Promise<{ pages: string[][]; present: boolean }> {
  const pages: string[][] = [];
  let answer = await ok(tool, { ...args, max_chars: budget }, FULL);
  const present = at(answer, pager.pagination) !== undefined;
  let cursor: unknown;
  let retried = false;
  for (;;) {
    expect(pages.length, `${tool} ${pager.input} max_chars ${budget}: still paging after ${MAX_PAGES} pages`).toBeLessThan(MAX_PAGES);
    const shown = (at(answer, pager.list) ?? []) as unknown[];
    if (shown.length > 0) pages.push(shown.map(identity));
    const page = at(answer, pager.pagination) as Answer | undefined;
    // A page that cannot show one item says so: with a cursor BUDGET_ITEM_TOO_LARGE, a first page the cut's BUDGET_TRUNCATED.
    const told = cursor === undefined ? "BUDGET_TRUNCATED" : "BUDGET_ITEM_TOO_LARGE";
    const warning = ((answer.warnings ?? []) as Warning[]).find((candidate) => candidate.code === told);
    const asked = Number(/max_chars (\d+)/.exec(warning?.recovery ?? "")?.[1]);
    if (page?.next_cursor === undefined && page?.has_more === true && shown.length === 0 && asked > budget && !retried) {
      // Asked again, once, with the budget the warning names; the paging then goes on at `budget`.
      retried = true;
      answer = await ok(tool, { ...args, max_chars: asked, ...(cursor === undefined ? {} : { [pager.input]: cursor }) }, FULL);
      continue;
    }
    if (page?.next_cursor === undefined) return { pages, present };
    cursor = page.next_cursor;
    retried = false;
    answer = await ok(tool, { ...args, max_chars: budget, [pager.input]: cursor }, FULL);
  }
}

/**
 * What a small budget's paging lost, repeated or reordered against the large budget's: empty when they
 * agree. Each item once; two items of one small page in the order of the large page that holds both (tail
 * pages run oldest first within a page but page backwards, so smaller pages concatenate in another order).
 */
function difference(label: string, wholePages: string[][], pages: string[][]): string[] {
  const whole = wholePages.flat();
  const pageOf = (item: string) => wholePages.findIndex((page) => page.includes(item));
  const small = pages.flat();
  const missing = whole.filter((item) => !small.includes(item));
  const twice = small.filter((item, index) => small.indexOf(item) !== index);
  const extra = small.filter((item) => !whole.includes(item));
  const outOfOrder = (item: string, previous: string) => pageOf(item) === pageOf(previous) && whole.indexOf(item) < whole.indexOf(previous);
  const reordered = pages.filter((page) => page.some((item, index) => index > 0 && outOfOrder(item, page[index - 1] as string)));
  if (missing.length + twice.length + extra.length + reordered.length === 0) return [];
  return [
    `${label}: ${whole.length} items whole, ${small.length} at this budget; missing ${missing.join(" ")}; twice ${twice.join(" ")}; not named whole ${extra.join(" ")}; reordered ${reordered.length} pages`,
  ];
}

describe("paging under a budget reaches every item", () => {
  it("names every item of the large budget's pages, once and in order, at budgets from 800 to 2,000 characters", {
    timeout: 300_000,
  }, async () => {
    const workspace = "paging/reach";
    await seed(workspace, 3);
    await seedPages(workspace);
    const problems: string[] = [];
    const pagesAtMinimum = new Map<string, number>();
    for (const command of PAGED) {
      const args = { ...exampleArgsOf(command), workspace };
      const first = await callTool(command.tool, { ...args, max_chars: LARGE_BUDGET }, FULL);
      if (first.isError) continue;
      const inputs = Object.keys(command.input.shape);
      const budgets = [
        MIN_BUDGET_CHARS,
        ...fc.sample(fc.integer({ min: MIN_BUDGET_CHARS, max: 2_000 }), { numRuns: RUNS_PER_COMMAND, seed: SEED }),
      ];
      for (const pager of pagersOf(first.structuredContent as Answer, inputs)) {
        const whole = (await walk(command.tool, args, pager, LARGE_BUDGET)).pages;
        for (const budget of budgets) {
          const small = await walk(command.tool, args, pager, budget);
          const label = `${command.tool} ${pager.input} max_chars ${budget}`;
          // A view that sizes its sections by the budget (resume views) shows no such page at all below its tier.
          if (!small.present && command.budget?.sized) continue;
          if (budget === MIN_BUDGET_CHARS) pagesAtMinimum.set(`${command.tool} ${pager.input}`, small.pages.length);
          problems.push(...difference(label, whole, small.pages));
        }
      }
    }
    for (const tool of MULTI_PAGE) {
      const pages = pagesAtMinimum.get(`${tool} cursor`) ?? 0;
      if (pages < 2) problems.push(`${tool}: ${pages} pages at max_chars ${MIN_BUDGET_CHARS}, the seed should give more than one`);
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });
});
