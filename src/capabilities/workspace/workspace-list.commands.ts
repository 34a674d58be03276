/**
 * `workspace_list`: the deployment's workspaces from the Directory, as a person browsing them wants to
 * see them — each with its event tick, seq, branch count and Record-Sync counts — filtered by the
 * token's patterns, in name order and paged. It reads only the Directory (one bounded call), so its
 * numbers are the summaries workspaces last pushed: they lag writes by a few seconds (`as_of_tick`).
 */
import { z } from "zod";
import { defineDirectoryCommand } from "../../commands/registry";
import { listingPageFields, listingPageRequest, listingPagination } from "../../directory/listing-page";
import { CommandError } from "../../shared/errors";
import { keyedPageBudget, keyedPaginationSchema } from "../../shared/keyed-page";

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
  input: listingPageFields,
  output: {
    workspaces: z.array(workspaceItemSchema),
    pagination: keyedPaginationSchema,
  },
  budget: keyedPageBudget("workspaces", "name"),
  handler: async (ctx, args) => {
    const result = await ctx.directory.listWorkspaces(listingPageRequest(ctx.principal.workspaces, args));
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
      pagination: listingPagination(args, page, page.workspaces.length),
    };
  },
});
