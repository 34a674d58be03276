/**
 * `vcs.notes.commit` (seed 001 Milestone 2): append one note to a plan's or task's notes (target, else
 * the caller's focus) or to a document of a branch (else the caller's checkout). Append-only.
 */
import { defineCommand } from "../../commands/registry";
import { reasoningScope, refuseDocWithTarget } from "../../place/scope";
import { targetSchema } from "../../place/target.schema";
import { branchArg, contentFields, docSchema } from "../docs/docs.schema";
import { toEntry } from "../docs/docs.store";
import { entryView, entryViewSchema } from "../docs/entry-view";
import { refuseReservedMeta } from "../docs/reserved-meta";
import { writeNote } from "./note-write";

export const notesCommit = defineCommand({
  name: "vcs.notes.commit",
  tool: "notes_commit",
  title: "Append a note",
  description:
    "Append one note to the notes doc of a plan or task (target; default: your focus) or to a document (default `notes`) of a branch (default: your checkout). Append-only; returns the entry with its seq.",
  kind: "write",
  input: {
    target: targetSchema.optional(),
    branch: branchArg.optional(),
    doc: docSchema.optional(),
    ...contentFields,
  },
  output: { entry: entryViewSchema },
  handler: (ctx, args) => {
    refuseReservedMeta(args.meta);
    const scope = reasoningScope(ctx, args, "write");
    refuseDocWithTarget(scope, args.doc, "Drop doc: a target's notes go to its notes doc.");
    const branch = scope.branch;
    const row = writeNote(ctx, branch, { ...args, doc: scope.ref?.notes_doc ?? args.doc });
    ctx.journal({
      target: `${branch.name}/${row.doc}`,
      summary: `note ${row.seq}`,
    });
    return { entry: entryView(toEntry(row, branch.name)) };
  },
});
