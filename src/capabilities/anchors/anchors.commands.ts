/**
 * The meaning map's reads (seed 002 "Meaning map", dotted under `think.anchor.*`): list, snapshot,
 * export, lint and resolve. Anchors are `a:<slug>` meanings, not paths; an alias answers for the anchor
 * it stands for (warning ANCHOR_ALIAS_RESOLVED). The writes (bootstrap, rename, merge) are in
 * anchor-writes.commands.ts and the note macro in anchor-note.commands.ts; anchors.catalog.ts lists all.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { findEntity } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { keyedPageBudget, keyedPaginationSchema } from "../../shared/keyed-page";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "../../shared/limits";
import { anchorId } from "../../shared/slugs";
import { linkedSlugs } from "./anchor-links.store";
import { ANCHOR_KINDS, anchorArg, anchorSchema, toAnchorView } from "./anchors.schema";
import { aliasesOfMany, bindingsOn, listAnchors, readMap, resolveAnchor } from "./anchors.store";
import { exportAnchors } from "./export";
import { lintAnchors } from "./lint";
import { MAX_PATH_CHARS, normalizePath, PATH_REF_PREFIX, pathPrefixes } from "./paths";
import { ALIAS_RESOLVED, anchorSnapshot, anchorSnapshotSchema, requireAnchorSlug } from "./snapshot";

/** Cards a snapshot shows by default and at most (open's bounds). */
const DEFAULT_SNAPSHOT_CARDS = 20;
const MAX_SNAPSHOT_CARDS = 50;
/** Recent tasks a snapshot lists by default and at most. */
const DEFAULT_SNAPSHOT_TASKS = 5;
const MAX_SNAPSHOT_TASKS = 20;
/** Lint findings shown by default and at most (all are counted). */
const DEFAULT_LINT_ISSUES = 100;
/** A reasoning branch of a plan or task: its cards count as that task's work on the anchor. */
const TASK_BRANCH = /^(?:task|plan)\/((?:TASK|PLAN)-[0-9]{3,})$/;

export const anchorList = defineCommand({
  name: "think.anchor.list",
  tool: "anchors_list",
  title: "List anchors",
  description:
    "Registered anchors (a:<slug> meanings) by id, with kind, title, refs, aliases, parent and depends_on. Page with cursor = next_cursor.",
  kind: "read",
  input: {
    kind: z.enum(ANCHOR_KINDS).optional(),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
    cursor: z.string().min(1).max(80).optional().describe("next_cursor of the previous page (the last id shown)."),
  },
  output: { anchors: z.array(anchorSchema), pagination: keyedPaginationSchema, truncated: z.boolean() },
  budget: keyedPageBudget("anchors", "id", ["id", "title", "kind"]),
  handler: (ctx, args) => {
    const after = args.cursor === undefined ? undefined : requireAnchorSlug(args.cursor, "cursor");
    const page = listAnchors(ctx.db, { after, kind: args.kind, limit: args.limit });
    const aliases = aliasesOfMany(
      ctx.db,
      page.records.map((record) => record.slug),
    );
    const anchors = page.records.map((record) => toAnchorView(record, aliases.get(record.slug) ?? []));
    const last = anchors[anchors.length - 1];
    return {
      anchors,
      pagination: {
        cursor: args.cursor ?? null,
        ...(page.has_more && last ? { next_cursor: last.id } : {}),
        has_more: page.has_more,
        limit: args.limit,
        count: anchors.length,
      },
      truncated: false,
    };
  },
});

export const anchorSnapshotCommand = defineCommand({
  name: "think.anchor.snapshot",
  tool: "anchor_snapshot",
  title: "Anchor snapshot",
  description:
    "Everything tagged a:<slug> (or one of its aliases) across branches and graph docs, canon-first: pinned, v:canon, decision, evidence, test, then the rest, newest first within each; the anchor's record when registered, and the tasks whose reasoning touched it. An alias shows its anchor (warning ANCHOR_ALIAS_RESOLVED). Lanes: shared + yours unless include_drafts.",
  kind: "read",
  input: {
    anchor: anchorArg,
    include_drafts: z.boolean().default(false).describe("Every agent's lane (like view=audit); default: the shared lane and your own."),
    limit: z.number().int().min(1).max(MAX_SNAPSHOT_CARDS).default(DEFAULT_SNAPSHOT_CARDS),
    tasks_limit: z.number().int().min(0).max(MAX_SNAPSHOT_TASKS).default(DEFAULT_SNAPSHOT_TASKS),
  },
  output: {
    ...anchorSnapshotSchema,
    tasks: z
      .array(z.object({ id: z.string(), title: z.string().optional(), status: z.string().optional(), branch: z.string() }))
      .describe("Plans and tasks whose reasoning branch holds cards of this anchor, most recent first."),
  },
  budget: { lists: ["tasks", "cards"], keep: ["id", "type", "title", "status", "lane", "last_seq", "branch"], trimFromEnd: true },
  handler: (ctx, args) => {
    const { snapshot, links } = anchorSnapshot(ctx, args.anchor, { limit: args.limit, allLanes: args.include_drafts });
    const tasks: { id: string; title?: string; status?: string; branch: string }[] = [];
    for (const link of links) {
      const id = TASK_BRANCH.exec(link.branch)?.[1];
      if (id === undefined || tasks.length >= args.tasks_limit || tasks.some((task) => task.id === id)) continue;
      const entity = findEntity(ctx.db, id);
      tasks.push({ id, ...(entity ? { title: entity.title, status: entity.status } : {}), branch: link.branch });
    }
    return { ...snapshot, tasks };
  },
});

export const anchorExport = defineCommand({
  name: "think.anchor.export",
  tool: "anchors_export",
  title: "Export the anchor map",
  description:
    "The anchor map as text (an indented parent tree with depends_on and aliases) or mermaid (a flowchart). Deterministic: the same map gives byte-identical output.",
  kind: "read",
  input: { format: z.enum(["text", "mermaid"]).default("text") },
  output: { format: z.enum(["text", "mermaid"]), anchors: z.number(), aliases: z.number(), text: z.string(), truncated: z.boolean() },
  handler: (ctx, args) => {
    const map = readMap(ctx.db);
    return {
      format: args.format,
      anchors: map.records.length,
      aliases: map.aliases.length,
      text: exportAnchors(args.format, map.records, map.aliases),
      truncated: map.has_more,
    };
  },
});

const issueSchema = z.object({
  code: z.string(),
  severity: z.enum(["warning", "info"]),
  anchor: z.string(),
  message: z.string(),
  hint: z.string(),
});

export const anchorLint = defineCommand({
  name: "think.anchor.lint",
  tool: "anchors_lint",
  title: "Lint the anchor map",
  description:
    "Problems of the anchor map, warnings first: UNKNOWN_PARENT, UNKNOWN_DEPENDS_ON, SELF_PARENT, SELF_DEPENDS_ON, PARENT_CYCLE, RELATION_USES_ALIAS, ALIAS_DANGLING, ALIAS_COLLIDES_WITH_ANCHOR_ID (warnings) and ORPHAN_ANCHOR (info: no card is tagged with it), each with a hint.",
  kind: "read",
  input: { limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LINT_ISSUES) },
  output: {
    issues: z.array(issueSchema),
    stats: z.object({ anchors: z.number(), aliases: z.number(), issues_total: z.number(), has_more: z.boolean() }),
    truncated: z.boolean(),
  },
  budget: { lists: ["issues"], keep: ["code", "severity", "anchor"], trimFromEnd: true },
  handler: (ctx, args) => {
    const map = readMap(ctx.db);
    const aliasesByAnchor = new Map<string, string[]>();
    for (const alias of map.aliases) aliasesByAnchor.set(alias.anchor, [...(aliasesByAnchor.get(alias.anchor) ?? []), alias.alias]);
    const linked = linkedSlugs(ctx.db, [...map.records.map((record) => record.slug), ...map.aliases.map((alias) => alias.alias)]);
    const issues = lintAnchors(
      map.records.map((record) => ({
        slug: record.slug,
        parent: record.parent,
        depends_on: record.depends_on,
        linked: [record.slug, ...(aliasesByAnchor.get(record.slug) ?? [])].some((slug) => linked.has(slug)),
      })),
      map.aliases,
    );
    return {
      issues: issues.slice(0, args.limit),
      stats: { anchors: map.records.length, aliases: map.aliases.length, issues_total: issues.length, has_more: map.has_more },
      truncated: false,
    };
  },
});

export const anchorResolve = defineCommand({
  name: "think.anchor.resolve",
  tool: "anchor_resolve",
  title: "Resolve a path or an alias to its anchor",
  description:
    "path: the anchor a repository path belongs to, through path:<dir or file> bindings (anchor refs), deepest binding first (src/storage wins over src); null when none. anchor: the anchor an alias stands for. Give exactly one.",
  kind: "read",
  example: { path: "src/storage/sql.ts" },
  input: {
    path: z.string().min(1).max(MAX_PATH_CHARS).optional().describe("A repo-relative path, e.g. src/storage/sql.ts."),
    anchor: anchorArg.optional(),
  },
  output: {
    anchor: z.string().nullable(),
    path: z.string().optional(),
    binding: z.string().nullable().optional().describe("The path: binding that decided (the deepest)."),
    matches: z.array(z.object({ anchor: z.string(), binding: z.string(), depth: z.number() })).optional(),
    registered: z.boolean().optional(),
    requested: z.string().optional(),
    truncated: z.boolean(),
  },
  handler: (ctx, args) => {
    if ((args.path === undefined) === (args.anchor === undefined)) {
      fail("INVALID_INPUT", "Give exactly one of path and anchor.", 'Pass path (e.g. "src/storage/sql.ts") or anchor (e.g. "a:storage").', {
        fields: ["path", "anchor"],
      });
    }
    if (args.anchor !== undefined) {
      const resolved = resolveAnchor(ctx.db, requireAnchorSlug(args.anchor));
      if (resolved.aliasOf !== undefined) {
        ctx.warn({
          code: ALIAS_RESOLVED,
          message: `a:${resolved.aliasOf} is an alias of a:${resolved.slug}.`,
          recovery: `Use a:${resolved.slug} from now on.`,
        });
      }
      return {
        anchor: anchorId(resolved.slug),
        registered: resolved.registered,
        ...(resolved.aliasOf === undefined ? {} : { requested: anchorId(resolved.aliasOf) }),
        truncated: false,
      };
    }
    const normal = normalizePath(args.path as string);
    if (!normal.ok)
      fail("INVALID_INPUT", `Invalid path: ${normal.problem}.`, "Pass a repo-relative path such as src/storage/sql.ts.", { field: "path" });
    const matches = bindingsOn(ctx.db, pathPrefixes(normal.path)).map((row) => ({
      anchor: anchorId(row.anchor),
      binding: `${PATH_REF_PREFIX}${row.path}`,
      depth: row.path.split("/").length,
    }));
    const best = matches[0];
    return { anchor: best?.anchor ?? null, path: normal.path, binding: best?.binding ?? null, matches, truncated: false };
  },
});
