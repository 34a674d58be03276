/**
 * The idea-branch macro (`think.idea.branch.create`, flat `macro_branch_note`): create or pick a branch,
 * check it out and append a note, optionally from a template, in one call. Its merge back is
 * idea-merge.commands.ts.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { type Branch, checkoutOf, createBranch, refuseReservedName, requireBranch, setCheckout } from "../../place/branches.store";
import { newBranchName, summarize } from "../branches/branch-summary";
import { branchArg, contentFields, docSchema } from "../docs/docs.schema";
import { toEntry } from "../docs/docs.store";
import { entryView, entryViewSchema } from "../docs/entry-view";
import { refuseReservedMeta } from "../docs/reserved-meta";
import { writeNote } from "../vcs/note-write";

const TEMPLATES = {
  experiment: ["Goal", "Hypothesis", "Plan", "Result"],
  decision: ["Goal", "Options", "Decision", "Why"],
  investigation: ["Goal", "Question", "Findings", "Next"],
} as const;

function noteFromTemplate(
  template: keyof typeof TEMPLATES | undefined,
  goal: string | undefined,
  content: string | undefined,
): string | undefined {
  if (template === undefined) return content ?? (goal === undefined ? undefined : `Goal: ${goal}`);
  const lines = TEMPLATES[template].map((heading) => (heading === "Goal" ? `Goal: ${goal ?? ""}` : `${heading}:`));
  return content === undefined ? lines.join("\n") : `${lines.join("\n")}\n\n${content}`;
}

export const macroBranchNote = defineCommand({
  name: "think.idea.branch.create",
  tool: "macro_branch_note",
  aliases: ["idea.branch.create"],
  title: "Branch and note in one call",
  description:
    "Daily macro. With `name`: create branch `name` from `from` (default: your checkout), check it out, append the note. Without `name`: with `from`, check out `from` and append; otherwise append to your checkout.",
  kind: "write",
  input: {
    name: newBranchName.optional(),
    from: branchArg.optional(),
    doc: docSchema.optional().describe("Document; default `notes`."),
    content: contentFields.content.optional(),
    template: z.enum(["experiment", "decision", "investigation"]).optional().describe("Skeleton for the note."),
    goal: z.string().max(1000).optional(),
    title: contentFields.title,
    format: contentFields.format,
    meta: contentFields.meta,
  },
  output: {
    workspace: z.string(),
    branch: z.object({
      name: z.string(),
      created: z.boolean(),
      base_branch: z.string().nullable(),
      base_seq: z.number().nullable(),
    }),
    checkout: z.string(),
    note: entryViewSchema.nullable(),
  },
  handler: (ctx, args) => {
    refuseReservedMeta(args.meta);
    const content = noteFromTemplate(args.template, args.goal, args.content);
    let branch: Branch;
    let created = false;
    if (args.name !== undefined) {
      refuseReservedName(args.name);
      const base = args.from === undefined ? checkoutOf(ctx.db, ctx.principal.agent_id) : requireBranch(ctx.db, args.from);
      branch = createBranch(ctx, args.name, base);
      created = true;
    } else {
      branch = args.from === undefined ? checkoutOf(ctx.db, ctx.principal.agent_id) : requireBranch(ctx.db, args.from);
    }
    const previous = checkoutOf(ctx.db, ctx.principal.agent_id);
    if (previous.id !== branch.id) setCheckout(ctx, branch);
    const note = content === undefined ? null : entryView(toEntry(writeNote(ctx, branch, { ...args, content }), branch.name));
    if (created || previous.id !== branch.id || note !== null) {
      ctx.journal({
        target: branch.name,
        summary: `${created ? "branch created, " : ""}checkout${note ? `, note ${note.seq}` : ""}`,
      });
    }
    const summary = summarize(ctx, branch);
    return {
      workspace: ctx.workspace,
      branch: {
        name: branch.name,
        created,
        base_branch: summary.base_branch,
        base_seq: summary.base_seq,
      },
      checkout: branch.name,
      note,
    };
  },
});
