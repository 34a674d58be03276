/** Workspace export and restore fixtures: a whole export page by page, its lines, a restore page by page. */
import { expect } from "vitest";
import { ok, type RpcOptions } from "./mcp";

export type Args = Record<string, unknown>;

/** Small pages (about 8,000 characters of lines each), so every export here spans several calls. */
const PAGE_BUDGET = 12_000;

export async function exportPages(workspace: string, admin: RpcOptions, maxChars = PAGE_BUDGET): Promise<string[]> {
  const pages: string[] = [];
  let cursor: string | null = null;
  for (let call = 0; call < 200; call++) {
    const page: Args = await ok("workspace_export", { workspace, max_chars: maxChars, ...(cursor === null ? {} : { cursor }) }, admin);
    pages.push(page.jsonl as string);
    expect(page.line_count).toBe((page.jsonl as string).split("\n").length - 1);
    if (page.done) {
      expect(page.cursor).toBeNull();
      return pages;
    }
    cursor = page.cursor as string;
  }
  throw new Error("the export did not end");
}

export const linesOf = (pages: string[]) => pages.join("").split("\n").slice(0, -1);

export async function restore(workspace: string, pages: string[], admin: RpcOptions): Promise<Args[]> {
  const outcomes: Args[] = [];
  for (const jsonl of pages) outcomes.push((await ok("workspace_import", { workspace, jsonl }, admin)).restore as Args);
  return outcomes;
}
