/**
 * Anchor map lint, pure: orphans (no card is tagged with the anchor or its aliases), relations that
 * name unknown anchors, themselves, or an alias instead of the anchor it stands for, parent cycles, and
 * aliases that dangle or collide with a registered anchor. Issues are sorted (warnings first, then
 * code, then anchor), so the same map always gives the same list.
 */

export interface LintAnchor {
  slug: string;
  parent: string | null;
  depends_on: string[];
  /** Some card is tagged with the anchor or one of its aliases. */
  linked: boolean;
}

export interface LintAlias {
  alias: string;
  anchor: string;
}

export type Severity = "warning" | "info";

export interface AnchorIssue {
  code: string;
  severity: Severity;
  anchor: string;
  message: string;
  hint: string;
}

export const ANCHOR_LINT_CODES = [
  "ORPHAN_ANCHOR",
  "UNKNOWN_PARENT",
  "UNKNOWN_DEPENDS_ON",
  "SELF_PARENT",
  "SELF_DEPENDS_ON",
  "PARENT_CYCLE",
  "RELATION_USES_ALIAS",
  "ALIAS_DANGLING",
  "ALIAS_COLLIDES_WITH_ANCHOR_ID",
] as const;

const SEVERITY_RANK: Record<Severity, number> = { warning: 0, info: 1 };
const a = (slug: string) => `a:${slug}`;

function relationIssues(anchor: LintAnchor, known: Set<string>, aliasOf: Map<string, string>): AnchorIssue[] {
  const issues: AnchorIssue[] = [];
  const id = a(anchor.slug);
  const check = (target: string, relation: "parent" | "depends_on") => {
    if (target === anchor.slug) {
      issues.push({
        code: relation === "parent" ? "SELF_PARENT" : "SELF_DEPENDS_ON",
        severity: "warning",
        anchor: id,
        message: `${id} names itself as ${relation === "parent" ? "its parent" : "a dependency"}.`,
        hint: `Remove a:${target} from ${relation} (anchors_bootstrap with the corrected ${relation}).`,
      });
    } else if (known.has(target)) {
      return;
    } else if (aliasOf.has(target)) {
      issues.push({
        code: "RELATION_USES_ALIAS",
        severity: "warning",
        anchor: id,
        message: `${id} names the alias a:${target} as ${relation}; it stands for a:${aliasOf.get(target)}.`,
        hint: `Use a:${aliasOf.get(target)} in ${relation}.`,
      });
    } else {
      issues.push({
        code: relation === "parent" ? "UNKNOWN_PARENT" : "UNKNOWN_DEPENDS_ON",
        severity: "warning",
        anchor: id,
        message: `${id} names a:${target} as ${relation}, which is not a registered anchor.`,
        hint: `Register a:${target} (anchors_bootstrap), or fix ${relation}.`,
      });
    }
  };
  if (anchor.parent !== null) check(anchor.parent, "parent");
  for (const target of anchor.depends_on) check(target, "depends_on");
  return issues;
}

/** Parent cycles of two or more anchors (a self parent is SELF_PARENT), each reported once. */
function cycleIssues(anchors: LintAnchor[], aliasOf: Map<string, string>): AnchorIssue[] {
  const parentOf = new Map<string, string>();
  for (const anchor of anchors) {
    if (anchor.parent !== null) parentOf.set(anchor.slug, aliasOf.get(anchor.parent) ?? anchor.parent);
  }
  const reported = new Set<string>();
  const issues: AnchorIssue[] = [];
  for (const anchor of anchors) {
    const path: string[] = [];
    let current: string | undefined = anchor.slug;
    while (current !== undefined && !path.includes(current)) {
      path.push(current);
      current = parentOf.get(current);
    }
    if (current === undefined) continue;
    const members = path.slice(path.indexOf(current)).sort();
    const signature = members.join(" ");
    if (members.length < 2 || reported.has(signature)) continue;
    reported.add(signature);
    issues.push({
      code: "PARENT_CYCLE",
      severity: "warning",
      anchor: a(members[0] as string),
      message: `Parents form a cycle: ${members.map(a).join(", ")}.`,
      hint: "Give one of them another parent (or none) with anchors_bootstrap.",
    });
  }
  return issues;
}

export function lintAnchors(anchors: LintAnchor[], aliases: LintAlias[]): AnchorIssue[] {
  const known = new Set(anchors.map((anchor) => anchor.slug));
  const aliasOf = new Map(aliases.map((alias) => [alias.alias, alias.anchor]));
  const issues: AnchorIssue[] = [];
  for (const anchor of anchors) {
    if (!anchor.linked) {
      issues.push({
        code: "ORPHAN_ANCHOR",
        severity: "info",
        anchor: a(anchor.slug),
        message: `No card is tagged a:${anchor.slug} (or one of its aliases).`,
        hint: `Attach what you know with macro_anchor_note {anchor: "a:${anchor.slug}", content}, or merge it into another anchor.`,
      });
    }
    issues.push(...relationIssues(anchor, known, aliasOf));
  }
  issues.push(...cycleIssues(anchors, aliasOf));
  for (const alias of aliases) {
    if (known.has(alias.alias)) {
      issues.push({
        code: "ALIAS_COLLIDES_WITH_ANCHOR_ID",
        severity: "warning",
        anchor: a(alias.alias),
        message: `a:${alias.alias} is both a registered anchor and an alias of a:${alias.anchor}; the anchor wins.`,
        hint: `Merge a:${alias.alias} into a:${alias.anchor} (anchors_merge), or rename it.`,
      });
    } else if (!known.has(alias.anchor)) {
      issues.push({
        code: "ALIAS_DANGLING",
        severity: "warning",
        anchor: a(alias.alias),
        message: `The alias a:${alias.alias} stands for a:${alias.anchor}, which is not a registered anchor.`,
        hint: `Register a:${alias.anchor} (anchors_bootstrap).`,
      });
    }
  }
  return issues.sort(
    (x, y) =>
      SEVERITY_RANK[x.severity] - SEVERITY_RANK[y.severity] ||
      (x.code < y.code ? -1 : x.code > y.code ? 1 : 0) ||
      (x.anchor < y.anchor ? -1 : x.anchor > y.anchor ? 1 : 0) ||
      (x.message < y.message ? -1 : x.message > y.message ? 1 : 0),
  );
}
