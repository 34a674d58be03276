/**
 * The notes-focused VCS surface (seed 001 parity tools v0.2): `commit` appends a note and moves the
 * branch head; `log` walks notes up to the head; `reset` moves the head to an earlier commit and
 * `reflog` lists head and tag movements; tags name a commit. All of it is pointers over the
 * append-only log: nothing is deleted, and effective views (`show`, `diff`, `merge`) ignore refs.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { type Branch, branchById, branchExists, sourcesOf } from "../../place/branches.store";
import { targetBranch } from "../../place/scope";
import { fail } from "../../shared/errors";
import { DEFAULT_LIST_LIMIT, DEFAULT_PAGE_LIMIT, MAX_LIST_LIMIT, MAX_PAGE_LIMIT, MAX_TITLE_CHARS } from "../../shared/limits";
import { nameSchema } from "../../shared/names";
import { suggest } from "../../shared/suggestion";
import { topPageBudget } from "../../shared/top-page";
import { branchArg, contentFields, docSchema } from "../docs/docs.schema";
import { type EntryRow, entryBySeq, inView, namer, notesPage } from "../docs/docs.store";
import { writeNote } from "./note-write";
import { deleteTag, findTag, headOf, insertTag, logRef, reflogPage, setHead, tagPage } from "./vcs.store";

const PREVIEW_CHARS = 160;
const tagName = nameSchema("Tag name.");

function commitView(row: EntryRow, branchName: string) {
  return {
    seq: row.seq,
    ts: new Date(row.ts_ms).toISOString(),
    branch: branchName,
    doc: row.doc,
    message: row.title ?? "",
    agent_id: row.agent_id,
    preview: row.content.length > PREVIEW_CHARS ? `${row.content.slice(0, PREVIEW_CHARS)}…` : row.content,
  };
}

const commitSchema = z.object({
  seq: z.number(),
  ts: z.string(),
  branch: z.string(),
  doc: z.string(),
  message: z.string(),
  agent_id: z.string(),
  preview: z.string(),
});

/** A commit a ref may point at: a note in the branch's effective view. */
function requireCommit(ctx: CommandContext, branch: Branch, seq: number): EntryRow {
  const row = entryBySeq(ctx.db, seq);
  if (row?.kind !== "note" || !inView(row, sourcesOf(ctx.db, branch))) {
    fail(
      "UNKNOWN_ID",
      `seq ${seq} is not a commit visible on branch "${branch.name}".`,
      "Call `log` to see the commits of the branch.",
      {
        seq,
        branch: branch.name,
      },
      [suggest("log", { ref: branch.name }, "list commits you can point at")],
    );
  }
  return row;
}

/** A ref is a branch name or a tag name; a branch wins when both exist. */
function resolveRef(ctx: CommandContext, ref: string | undefined): { branch: Branch; head: number | null; ref: string } {
  if (ref !== undefined) {
    const tag = findTag(ctx.db, ref);
    if (tag && !branchExists(ctx.db, ref)) {
      return { branch: branchById(ctx.db, tag.branch_id), head: tag.seq, ref };
    }
  }
  const branch = targetBranch(ctx, ref);
  return { branch, head: headOf(ctx.db, branch), ref: branch.name };
}

export const commit = defineCommand({
  name: "vcs.commit",
  tool: "commit",
  title: "Commit an artifact",
  description:
    "Append `artifact` as a note (title = `message`) to `docs` (default `notes`) on your checkout or `branch`, and move the branch head to it.",
  kind: "write",
  input: {
    artifact: contentFields.content.describe("The content to commit."),
    message: z.string().min(1).max(MAX_TITLE_CHARS),
    docs: docSchema.optional().describe("Document; default `notes`."),
    branch: branchArg.optional(),
  },
  output: { commit: commitSchema, previous_head: z.number().nullable() },
  handler: (ctx, args) => {
    const branch = targetBranch(ctx, args.branch);
    const previous = headOf(ctx.db, branch);
    const row = writeNote(ctx, branch, { doc: args.docs, title: args.message, content: args.artifact });
    setHead(ctx.db, branch, row.seq);
    logRef(ctx, branch, "commit", previous, row.seq);
    ctx.journal({
      target: `${branch.name}/${row.doc}`,
      summary: `commit ${row.seq}`,
    });
    return { commit: commitView(row, branch.name), previous_head: previous };
  },
});

export const log = defineCommand({
  name: "vcs.log",
  tool: "log",
  title: "Commit log",
  description:
    "Notes (commits) of a branch or tag (default: your checkout), newest first, up to its head. Page with `cursor` = `next_cursor`.",
  kind: "read",
  input: {
    ref: branchArg.optional().describe("Branch or tag; defaults to your checkout."),
    limit: z.number().int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
    cursor: z.number().int().positive().optional(),
  },
  output: {
    ref: z.string(),
    branch: z.string(),
    head: z.number().nullable(),
    commits: z.array(commitSchema),
    next_cursor: z.number().optional(),
    has_more: z.boolean(),
    truncated: z.boolean(),
  },
  budget: topPageBudget("commits", "seq", ["message"]),
  handler: (ctx, args) => {
    const { branch, head, ref } = resolveRef(ctx, args.ref);
    // The log shows previews only, so no more than a preview of each content is loaded.
    const sources = sourcesOf(ctx.db, branch);
    const page = notesPage(ctx.db, sources, {
      before: args.cursor,
      limit: args.limit,
      order: "newest",
      upTo: head,
      contentChars: PREVIEW_CHARS + 1,
    });
    const name = namer(ctx.db, sources);
    const commits = page.rows.map((row) => commitView(row, name(row.branch_id)));
    const last = commits[commits.length - 1];
    return {
      ref,
      branch: branch.name,
      head,
      commits,
      ...(page.has_more && last ? { next_cursor: last.seq } : {}),
      has_more: page.has_more,
      truncated: false,
    };
  },
});

export const reset = defineCommand({
  name: "vcs.reset",
  tool: "reset",
  title: "Move a branch head",
  description:
    "Move the head of a branch (default: your checkout) to a commit (`seq`, or the commit a `tag` names). `log` then starts there; nothing is deleted.",
  kind: "write",
  example: { tag: "v1" },
  input: {
    ref: branchArg.optional().describe("Branch; defaults to your checkout."),
    seq: z.number().int().positive().optional().describe("Commit seq to point at."),
    tag: tagName.optional().describe("Point at the commit this tag names."),
  },
  output: {
    ref: z.string(),
    previous_head: z.number().nullable(),
    head: z.number(),
  },
  handler: (ctx, args) => {
    const branch = targetBranch(ctx, args.ref);
    if ((args.seq === undefined) === (args.tag === undefined)) {
      fail("INVALID_INPUT", "Pass exactly one of `seq` or `tag`.", "Call `log` to pick a commit seq.", { fields: ["seq", "tag"] });
    }
    let seq = args.seq;
    if (args.tag !== undefined) {
      const tag = findTag(ctx.db, args.tag);
      if (!tag)
        fail("UNKNOWN_ID", `Unknown tag "${args.tag}".`, "Call `tag_list`.", {
          tag: args.tag,
        });
      seq = tag.seq;
    }
    const target = requireCommit(ctx, branch, seq as number);
    const previous = headOf(ctx.db, branch);
    if (previous === target.seq) return { ref: branch.name, previous_head: previous, head: target.seq };
    setHead(ctx.db, branch, target.seq);
    logRef(ctx, branch, "reset", previous, target.seq);
    ctx.journal({
      target: branch.name,
      summary: `reset head to ${target.seq}`,
    });
    return { ref: branch.name, previous_head: previous, head: target.seq };
  },
});

export const reflog = defineCommand({
  name: "vcs.reflog",
  tool: "reflog",
  title: "Ref movements",
  description: "Movements of a branch head (commit, reset) or of a tag (`tag:<name>`), newest first.",
  kind: "read",
  input: {
    ref: branchArg.optional().describe("Branch, or `tag:<name>`; defaults to your checkout."),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
    cursor: z.number().int().positive().optional(),
  },
  output: {
    ref: z.string(),
    entries: z.array(
      z.object({
        id: z.number(),
        action: z.string(),
        old_seq: z.number().nullable(),
        new_seq: z.number().nullable(),
        agent_id: z.string(),
        tick: z.number(),
        ts: z.string(),
      }),
    ),
    next_cursor: z.number().optional(),
    has_more: z.boolean(),
    truncated: z.boolean(),
  },
  budget: topPageBudget("entries", "id", ["action", "new_seq"]),
  handler: (ctx, args) => {
    const refId = args.ref?.startsWith("tag:") ? args.ref : targetBranch(ctx, args.ref).id;
    const refName = args.ref?.startsWith("tag:") ? args.ref : targetBranch(ctx, args.ref).name;
    const page = reflogPage(ctx.db, refId, args.cursor, args.limit);
    const entries = page.rows.map((row) => ({
      id: row.id,
      action: row.action,
      old_seq: row.old_seq,
      new_seq: row.new_seq,
      agent_id: row.agent_id,
      tick: row.tick,
      ts: new Date(row.ts_ms).toISOString(),
    }));
    const last = entries[entries.length - 1];
    return {
      ref: refName,
      entries,
      ...(page.has_more && last ? { next_cursor: last.id } : {}),
      has_more: page.has_more,
      truncated: false,
    };
  },
});

const tagSchema = z.object({
  name: z.string(),
  branch: z.string(),
  seq: z.number(),
  message: z.string().nullable(),
});

export const tagCreate = defineCommand({
  name: "vcs.tag.create",
  tool: "tag_create",
  title: "Tag a commit",
  description: "Name a commit: `seq` (default: the head or newest note of `ref`, itself defaulting to your checkout).",
  kind: "write",
  input: {
    name: tagName,
    ref: branchArg.optional(),
    seq: z.number().int().positive().optional(),
    message: z.string().max(MAX_TITLE_CHARS).optional(),
  },
  output: { tag: tagSchema },
  handler: (ctx, args) => {
    if (findTag(ctx.db, args.name))
      fail("ALREADY_EXISTS", `Tag "${args.name}" already exists.`, "Delete it first or pick another name.", { tag: args.name });
    const branch = targetBranch(ctx, args.ref);
    let seq = args.seq ?? headOf(ctx.db, branch);
    if (seq === null) {
      const newest = notesPage(ctx.db, sourcesOf(ctx.db, branch), {
        limit: 1,
        order: "newest",
        upTo: null,
      }).rows[0];
      if (!newest) fail("INVALID_INPUT", `Branch "${branch.name}" has no commit to tag.`, "Commit a note first.", { branch: branch.name });
      seq = newest.seq;
    }
    requireCommit(ctx, branch, seq);
    insertTag(ctx.db, {
      name: args.name,
      branch_id: branch.id,
      seq,
      message: args.message ?? null,
      created_at_ms: ctx.nowMs,
      created_by: ctx.principal.agent_id,
    });
    logRef(ctx, { id: `tag:${args.name}`, name: `tag:${args.name}` }, "tag_create", null, seq);
    ctx.journal({ target: `tag:${args.name}`, summary: `tag at ${seq}` });
    return {
      tag: {
        name: args.name,
        branch: branch.name,
        seq,
        message: args.message ?? null,
      },
    };
  },
});

export const tagList = defineCommand({
  name: "vcs.tag.list",
  tool: "tag_list",
  title: "List tags",
  description: "Tags by name, with the branch and commit seq they point at.",
  kind: "read",
  input: {
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
    cursor: z.string().max(256).optional().describe("Continue after this tag name."),
  },
  output: {
    tags: z.array(tagSchema),
    next_cursor: z.string().optional(),
    has_more: z.boolean(),
    truncated: z.boolean(),
  },
  budget: topPageBudget("tags", "name", ["seq"]),
  handler: (ctx, args) => {
    const page = tagPage(ctx.db, args.cursor, args.limit);
    const name = namer(ctx.db);
    const tags = page.rows.map((tag) => ({
      name: tag.name,
      branch: name(tag.branch_id),
      seq: tag.seq,
      message: tag.message,
    }));
    const last = tags[tags.length - 1];
    return {
      tags,
      ...(page.has_more && last ? { next_cursor: last.name } : {}),
      has_more: page.has_more,
      truncated: false,
    };
  },
});

export const tagDelete = defineCommand({
  name: "vcs.tag.delete",
  tool: "tag_delete",
  title: "Delete a tag",
  description: "Delete a tag (the commit it named stays).",
  kind: "write",
  destructive: true,
  input: { name: tagName },
  output: { name: z.string(), deleted: z.boolean() },
  handler: (ctx, args) => {
    const tag = findTag(ctx.db, args.name);
    if (!tag)
      fail("UNKNOWN_ID", `Unknown tag "${args.name}".`, "Call `tag_list`.", {
        tag: args.name,
      });
    deleteTag(ctx.db, args.name);
    logRef(ctx, { id: `tag:${args.name}`, name: `tag:${args.name}` }, "tag_delete", tag.seq, null);
    ctx.journal({ target: `tag:${args.name}`, summary: "tag deleted" });
    return { name: args.name, deleted: true };
  },
});
