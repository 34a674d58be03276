/**
 * Shared by the projects test files (test/projects-*.test.ts): the Directory stub, the shapes of
 * get_project / create_project and list_projects answers, and `walk`, which lists every project a token
 * sees page by page.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { DIRECTORY_NAME } from "../../src/shared/workspace-summary";
import { ok, type RpcOptions } from "./mcp";

export const directory = () => env.DIRECTORY.getByName(DIRECTORY_NAME);

export interface Project {
  id: string;
  name: string;
  description?: string;
  created: string;
  tick: number;
  open_records: number;
  open_sessions: number;
  as_of_tick: number;
  status: string;
  origin: string;
  created_by: string | null;
  outcome?: string;
}

export interface ListItem {
  id: string;
  name: string;
  tick: number;
  open_sessions: number;
  open_records: number;
  as_of_tick: number;
  pending?: true;
}

export interface Page {
  projects: ListItem[];
  pagination: { cursor: string | null; next_cursor?: string; has_more: boolean; limit: number; count: number };
  budget: { max_chars: number; used_chars: number; truncated: boolean };
}

/** Every project a token sees, page by page. */
export async function walk(options: RpcOptions, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await ok<Page>("list_projects", { limit, ...(cursor ? { cursor } : {}) }, options);
    pages++;
    ids.push(...page.projects.map((project) => project.id));
    cursor = page.pagination.next_cursor;
    expect(page.pagination.has_more).toBe(cursor !== undefined);
  } while (cursor !== undefined && pages < 100);
  return { ids, pages };
}
