/**
 * Checks shared by the anchor writes (bootstrap, macro_anchor_note): slugs of relations, sorted refs
 * with valid `path:` bindings, and aliases that may be declared (an alias never takes a registered
 * anchor's id, nor an alias of another anchor).
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { anchorId } from "../../shared/slugs";
import { suggest } from "../../shared/suggestion";
import { addAlias, aliasTarget, isRegistered } from "./anchors.store";
import { pathBindings } from "./paths";
import { requireAnchorSlug } from "./snapshot";

export function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/** Refs sorted without repeats, and the `path:` bindings among them; a malformed path ref is INVALID_INPUT. */
export function checkRefs(refs: readonly string[]): { refs: string[]; paths: string[] } {
  const unique = sortedUnique(refs.map((ref) => ref.trim()).filter((ref) => ref.length > 0));
  const { paths, problems } = pathBindings(unique);
  const problem = problems[0];
  if (problem !== undefined) {
    fail(
      "INVALID_INPUT",
      `Invalid path binding ${problem.ref.slice(0, 80)}: ${problem.problem}.`,
      "Write path:<repo-relative path>, e.g. path:src/storage.",
      {
        field: "refs",
        ref: problem.ref.slice(0, 80),
      },
    );
  }
  return { refs: unique, paths };
}

/**
 * Declares `aliases` for `slug`; returns the aliases added (already its aliases are skipped). An alias
 * that is a registered anchor or stands for another anchor is refused (CONFLICT).
 */
export function declareAliases(ctx: CommandContext, slug: string, aliases: readonly string[], origin: string): string[] {
  const added: string[] = [];
  for (const alias of sortedUnique(aliases.map((value) => requireAnchorSlug(value, "aliases")))) {
    if (alias === slug)
      fail("INVALID_INPUT", `${anchorId(slug)} cannot be an alias of itself.`, "Drop it from aliases.", { alias: anchorId(alias) });
    const current = aliasTarget(ctx.db, alias);
    if (current === slug) continue;
    if (current !== undefined) {
      fail(
        "CONFLICT",
        `${anchorId(alias)} is already an alias of ${anchorId(current)}.`,
        `Drop it from aliases, or merge ${anchorId(current)} and ${anchorId(slug)} (anchors_merge).`,
        { alias: anchorId(alias), anchor: anchorId(current) },
      );
    }
    if (isRegistered(ctx.db, alias)) {
      fail(
        "CONFLICT",
        `${anchorId(alias)} is a registered anchor, so it cannot be an alias.`,
        `Merge it instead: anchors_merge {into: "${anchorId(slug)}", from: ["${anchorId(alias)}"]}.`,
        { alias: anchorId(alias) },
        [
          suggest(
            "anchors_merge",
            { into: anchorId(slug), from: [anchorId(alias)] },
            "Fold the anchor into this one; its id becomes an alias.",
          ),
        ],
      );
    }
    addAlias(ctx, alias, slug, origin);
    added.push(alias);
  }
  return added;
}
