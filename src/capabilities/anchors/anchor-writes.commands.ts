/**
 * The meaning map's writes (`think.anchor.bootstrap|rename|merge`), each one transaction. Bootstrap
 * registers or updates a batch of anchors and is idempotent (an unchanged batch writes nothing and
 * advances no tick). Rename and merge keep history: the old ids become aliases, every parent and
 * depends_on naming them is rewritten, path bindings move, and cards keep their `a:<old>` tags (every
 * anchor read expands an anchor to its aliases).
 */

import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { anchorId } from "../../shared/slugs";
import { requireCodeRefs } from "../code-refs/code-refs";
import { checkRefs, declareAliases, sortedUnique } from "./anchor-input";
import {
  ANCHOR_KINDS,
  ANCHOR_STATUSES,
  type AnchorRecord,
  anchorArg,
  anchorTitle,
  DEFAULT_KIND,
  MAX_BOOTSTRAP_ANCHORS,
  MAX_DESCRIPTION_CHARS,
  MAX_REF_CHARS,
  MAX_REFS,
  MAX_RELATIONS,
} from "./anchors.schema";
import {
  addAlias,
  aliasesOf,
  aliasTarget,
  deleteAlias,
  deleteAnchor,
  dropSelfRelations,
  isRegistered,
  movePathBindings,
  readAnchor,
  repointAliases,
  rewriteRelations,
  saveAnchor,
  setPathBindings,
} from "./anchors.store";
import { requireAnchorSlug } from "./snapshot";

const anchorInput = z.strictObject({
  id: anchorArg,
  title: anchorTitle.optional().describe("Default: the slug (new anchors); kept (existing)."),
  kind: z.enum(ANCHOR_KINDS).optional().describe(`Default ${DEFAULT_KIND} (new anchors); kept (existing).`),
  description: z.string().max(MAX_DESCRIPTION_CHARS).nullable().optional(),
  refs: z
    .array(z.string().min(1).max(MAX_REF_CHARS))
    .max(MAX_REFS)
    .optional()
    .describe("Refs (code refs, links, docs); path:<repo-relative dir or file> refs bind paths to the anchor (anchor_resolve)."),
  aliases: z
    .array(anchorArg)
    .max(MAX_RELATIONS)
    .optional()
    .describe("Old or other ids that should resolve to this anchor (added, never removed)."),
  parent: anchorArg.nullable().optional(),
  depends_on: z.array(anchorArg).max(MAX_RELATIONS).optional(),
  status: z.enum(ANCHOR_STATUSES).optional(),
});

function sameRecord(a: AnchorRecord, b: AnchorRecord): boolean {
  return (
    a.title === b.title &&
    a.kind === b.kind &&
    a.description === b.description &&
    a.parent === b.parent &&
    a.status === b.status &&
    JSON.stringify(a.refs) === JSON.stringify(b.refs) &&
    JSON.stringify(a.depends_on) === JSON.stringify(b.depends_on)
  );
}

type AnchorInput = z.infer<typeof anchorInput>;

const CODE_REF_PREFIX = "code:";

/** The record `input` asks for: given fields replace, omitted ones keep the existing values (or defaults). */
function nextRecord(
  ctx: CommandContext,
  slug: string,
  input: AnchorInput,
  existing: AnchorRecord | undefined,
): { record: AnchorRecord; paths: string[] } {
  const refs = input.refs === undefined ? undefined : checkRefs(input.refs);
  // An anchor may cite code: each `code:` ref must name a stored slice (code_ref_attach).
  if (refs)
    requireCodeRefs(
      ctx,
      refs.refs.filter((ref) => ref.startsWith(CODE_REF_PREFIX)),
      "refs",
    );
  const parent =
    input.parent === undefined ? (existing?.parent ?? null) : input.parent === null ? null : requireAnchorSlug(input.parent, "parent");
  const depends =
    input.depends_on === undefined
      ? (existing?.depends_on ?? [])
      : sortedUnique(input.depends_on.map((value) => requireAnchorSlug(value, "depends_on")));
  const record: AnchorRecord = {
    slug,
    title: input.title ?? existing?.title ?? slug,
    kind: input.kind ?? existing?.kind ?? DEFAULT_KIND,
    description: input.description === undefined ? (existing?.description ?? null) : input.description,
    refs: refs?.refs ?? existing?.refs ?? [],
    parent,
    depends_on: depends,
    status: input.status ?? existing?.status ?? "active",
    origin: existing?.origin ?? "bootstrap",
    created_at_ms: existing?.created_at_ms ?? ctx.nowMs,
    updated_at_ms: ctx.nowMs,
    created_by: existing?.created_by ?? ctx.principal.agent_id,
  };
  return { record, paths: refs?.paths ?? checkRefs(record.refs).paths };
}

export const anchorBootstrap = defineCommand({
  name: "think.anchor.bootstrap",
  tool: "anchors_bootstrap",
  title: "Register anchors",
  description:
    "Register or update a batch of anchors atomically: {id, title?, kind?, description?, refs?, aliases?, parent?, depends_on?, status?}. Given fields replace, omitted fields keep their value; aliases are added. Idempotent: an unchanged batch writes nothing. Relations may name anchors not registered yet (anchors_lint reports what stays unknown).",
  kind: "write",
  idempotent: true,
  example: { anchors: [{ id: "a:storage", title: "Storage engine", kind: "component", refs: ["path:src/storage"] }] },
  input: { anchors: z.array(anchorInput).min(1).max(MAX_BOOTSTRAP_ANCHORS) },
  output: {
    created: z.array(z.string()),
    updated: z.array(z.string()),
    unchanged: z.array(z.string()),
    aliases_added: z.array(z.string()),
  },
  handler: (ctx, args) => {
    const slugs = args.anchors.map((input) => requireAnchorSlug(input.id, "id"));
    const repeated = slugs.find((slug, index) => slugs.indexOf(slug) !== index);
    if (repeated !== undefined)
      fail("INVALID_INPUT", `${anchorId(repeated)} is given twice.`, "Give each anchor once per call.", { id: anchorId(repeated) });
    const result = { created: [] as string[], updated: [] as string[], unchanged: [] as string[], aliases_added: [] as string[] };
    args.anchors.forEach((input, index) => {
      const slug = slugs[index] as string;
      const existing = readAnchor(ctx.db, slug);
      const { record, paths } = nextRecord(ctx, slug, input, existing);
      if (existing === undefined) {
        const aliasOf = aliasTarget(ctx.db, slug);
        if (aliasOf !== undefined) {
          ctx.warn({
            code: "ANCHOR_ALIAS_COLLISION",
            message: `${anchorId(slug)} was an alias of ${anchorId(aliasOf)}; it is now a registered anchor too, and the anchor wins.`,
            recovery: `If they are one meaning, merge them: anchors_merge {into: "${anchorId(aliasOf)}", from: ["${anchorId(slug)}"]}.`,
          });
        }
      }
      if (existing !== undefined && sameRecord(existing, record)) result.unchanged.push(anchorId(slug));
      else {
        saveAnchor(ctx, record);
        setPathBindings(ctx.db, slug, paths);
        (existing === undefined ? result.created : result.updated).push(anchorId(slug));
      }
      for (const alias of declareAliases(ctx, slug, input.aliases ?? [], "bootstrap")) result.aliases_added.push(anchorId(alias));
    });
    const changed = result.created.length + result.updated.length + result.aliases_added.length;
    if (changed > 0) {
      ctx.journal({
        target: "anchors",
        summary: `bootstrap: ${result.created.length} created, ${result.updated.length} updated, ${result.aliases_added.length} aliases`,
      });
    }
    return result;
  },
});

/** A registered anchor, or UNKNOWN_ID (INVALID_INPUT when it is an alias: name its anchor instead). */
function requireRegistered(ctx: CommandContext, slug: string, role: string): AnchorRecord {
  const record = readAnchor(ctx.db, slug);
  if (record !== undefined) return record;
  const target = aliasTarget(ctx.db, slug);
  if (target !== undefined) {
    fail("INVALID_INPUT", `${anchorId(slug)} is an alias of ${anchorId(target)}, not an anchor.`, `Use ${anchorId(target)} as ${role}.`, {
      [role]: anchorId(slug),
      anchor: anchorId(target),
    });
  }
  return fail(
    "UNKNOWN_ID",
    `No registered anchor ${anchorId(slug)}.`,
    "List anchors with anchors_list, or register it with anchors_bootstrap.",
    {
      [role]: anchorId(slug),
    },
  );
}

export const anchorRename = defineCommand({
  name: "think.anchor.rename",
  tool: "anchors_rename",
  title: "Rename an anchor",
  description:
    "Rename an anchor atomically: its record moves to the new id, the old id becomes an alias (so a:<old> tags, links and knowledge keep resolving), aliases follow, and every parent and depends_on naming it is rewritten.",
  kind: "write",
  input: { from: anchorArg, to: anchorArg },
  output: { from: z.string(), to: z.string(), aliases: z.array(z.string()), relations_rewritten: z.number() },
  handler: (ctx, args) => {
    const from = requireAnchorSlug(args.from, "from");
    const to = requireAnchorSlug(args.to, "to");
    if (from === to) fail("INVALID_INPUT", "from and to are the same anchor.", "Give the new id as to.", { from: anchorId(from) });
    const record = requireRegistered(ctx, from, "from");
    if (isRegistered(ctx.db, to)) {
      fail(
        "ALREADY_EXISTS",
        `${anchorId(to)} is already a registered anchor.`,
        `Merge instead: anchors_merge {into: "${anchorId(to)}", from: ["${anchorId(from)}"]}.`,
        {
          to: anchorId(to),
        },
      );
    }
    const toAliasOf = aliasTarget(ctx.db, to);
    if (toAliasOf !== undefined && toAliasOf !== from) {
      fail("CONFLICT", `${anchorId(to)} is an alias of ${anchorId(toAliasOf)}.`, "Pick another id.", {
        to: anchorId(to),
        anchor: anchorId(toAliasOf),
      });
    }
    // Renaming back to an old name: that name stops being an alias.
    if (toAliasOf === from) deleteAlias(ctx.db, to);
    saveAnchor(ctx, { ...record, slug: to, updated_at_ms: ctx.nowMs });
    deleteAnchor(ctx.db, from);
    repointAliases(ctx.db, from, to);
    addAlias(ctx, from, to, "rename");
    const rewritten = rewriteRelations(ctx.db, from, to);
    movePathBindings(ctx.db, from, to);
    ctx.journal({ target: anchorId(to), summary: `renamed ${anchorId(from)} to ${anchorId(to)}` });
    return { from: anchorId(from), to: anchorId(to), aliases: aliasesOf(ctx.db, to).map(anchorId), relations_rewritten: rewritten };
  },
});

export const anchorMerge = defineCommand({
  name: "think.anchor.merge",
  tool: "anchors_merge",
  title: "Merge anchors",
  description:
    "Fold anchors into one atomically: each `from` anchor's id becomes an alias of `into` (its aliases too), its refs and path bindings join `into`, and relations naming it are rewritten. Ids that are already aliases are skipped, so a repeat writes nothing.",
  kind: "write",
  idempotent: true,
  input: { into: anchorArg, from: z.array(anchorArg).min(1).max(MAX_RELATIONS) },
  output: {
    into: z.string(),
    merged: z.array(z.string()),
    skipped: z.array(z.object({ id: z.string(), reason: z.string() })),
    aliases: z.array(z.string()),
  },
  handler: (ctx, args) => {
    const into = requireAnchorSlug(args.into, "into");
    requireRegistered(ctx, into, "into");
    const merged: string[] = [];
    const skipped: { id: string; reason: string }[] = [];
    const refs: string[] = [];
    for (const from of sortedUnique(args.from.map((value) => requireAnchorSlug(value, "from")))) {
      if (from === into)
        fail("INVALID_INPUT", `${anchorId(into)} cannot be merged into itself.`, "Drop it from `from`.", { from: anchorId(from) });
      const record = readAnchor(ctx.db, from);
      if (record === undefined) {
        const target = aliasTarget(ctx.db, from);
        if (target === undefined) {
          fail("UNKNOWN_ID", `No registered anchor ${anchorId(from)}.`, "List anchors with anchors_list.", { from: anchorId(from) });
        }
        skipped.push({ id: anchorId(from), reason: `already an alias of ${anchorId(target)}` });
        continue;
      }
      refs.push(...record.refs);
      deleteAnchor(ctx.db, from);
      repointAliases(ctx.db, from, into);
      addAlias(ctx, from, into, "merge");
      rewriteRelations(ctx.db, from, into);
      movePathBindings(ctx.db, from, into);
      merged.push(anchorId(from));
    }
    if (merged.length > 0) {
      // Read again: the rewrites may have changed into's own relations.
      const target = readAnchor(ctx.db, into) as AnchorRecord;
      saveAnchor(ctx, { ...target, refs: sortedUnique([...target.refs, ...refs]), updated_at_ms: ctx.nowMs });
      dropSelfRelations(ctx.db, into);
      ctx.journal({ target: anchorId(into), summary: `merged ${merged.join(", ")} into ${anchorId(into)}` });
    }
    return { into: anchorId(into), merged, skipped, aliases: aliasesOf(ctx.db, into).map(anchorId) };
  },
});
