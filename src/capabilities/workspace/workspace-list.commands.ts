/**
 * `workspace_list`: the deployment's workspaces from the Directory, as a person browsing them wants to
 * see them — each with its event tick, seq, branch count and Record-Sync counts — filtered by the
 * token's patterns, in name order and paged. It reads only the Directory (one bounded call), so its
 * numbers are the summaries workspaces last pushed: they lag writes by a few seconds (`as_of_tick`).
 */
import { z } from "zod";
import { defineDirectoryCommand } from "../../commands/registry";
import { DEFAULT_PROJECT_PAGE, MAX_PROJECT_PAGE } from "../../directory/project-limits";
import { CommandError } from "../../shared/errors";
import { keyedPageRepair, keyedPaginationSchema } from "../../shared/keyed-page";
import { MAX_WORKSPACE_CHARS } from "../../shared/limits";

const workspaceItemSchema = z.object({
  name: z.string(),
  tick: z.number().describe("Workspace event tick: one per operation that changed domain rows."),
  seq: z.number().describe("Last seq (document entries and graph versions)."),
  branches: z.number(),
  project_tick: z.number().describe("Record-Sync project tick."),
  open_records: z.number(),
  open_sessions: z.number(),
  as_of_tick: z.number().describe("The event tick these numbers describe."),
  updated: z.string().describe("ISO time the Directory received this summary."),
});

export const workspaceList = defineDirectoryCommand({
  name: "workspace.list",
  tool: "workspace_list",
  title: "List workspaces",
  description:
    "Workspaces your token grants, in name order and paged (cursor = next_cursor), each with its event tick, seq, branch count, Record-Sync project tick, open records and open sessions. Reads only the Directory: the numbers are each workspace's last pushed summary and lag writes by a few seconds (as_of_tick, updated).",
  kind: "read",
  input: {
    limit: z.number().int().min(1).max(MAX_PROJECT_PAGE).default(DEFAULT_PROJECT_PAGE),
    cursor: z.string().min(1).max(MAX_WORKSPACE_CHARS).optional().describe("The next_cursor of the previous page."),
  },
  output: {
    workspaces: z.array(workspaceItemSchema),
    pagination: keyedPaginationSchema,
  },
  budget: { lists: ["workspaces"], keep: ["name"], trimFromEnd: true, repair: keyedPageRepair("workspaces", "name") },
  handler: async (ctx, args) => {
    const result = await ctx.directory.listWorkspaces({
      patterns: ctx.principal.workspaces,
      ...(args.cursor !== undefined ? { after: args.cursor } : {}),
      limit: args.limit,
    });
    if (!result.ok) throw new CommandError(result.error);
    const page = result.value;
    return {
      workspaces: page.workspaces.map((entry) => ({
        name: entry.name,
        tick: entry.tick,
        seq: entry.seq,
        branches: entry.branches,
        project_tick: entry.project_tick,
        open_records: entry.open_records,
        open_sessions: entry.open_sessions,
        as_of_tick: entry.as_of_tick,
        updated: new Date(entry.updated_at_ms).toISOString(),
      })),
      pagination: {
        cursor: args.cursor ?? null,
        ...(page.next_cursor !== undefined ? { next_cursor: page.next_cursor } : {}),
        has_more: page.has_more,
        limit: args.limit,
        count: page.workspaces.length,
      },
    };
  },
});
