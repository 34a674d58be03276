/**
 * Knowledge lint over a scope: reads the latest rows of some anchors (and of one key across anchors),
 * folds aliases, and runs the pure lint (lint.ts) on them. Shared by `knowledge_lint` (knowledge-reads
 * .commands.ts) and the auto lint of the knowledge writes (knowledge.commands.ts); lint.ts stays pure.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { canonicalRows } from "./knowledge.model";
import { type KeyRow, latestKeys } from "./knowledge.store";
import { type LintIssue, lintKnowledge } from "./lint";

/** Keys one lint reads at most (newest first); older ones are reported through has_more. */
const MAX_LINT_KEYS = 500;

export const lintIssueSchema = z.object({
  severity: z.enum(["warning", "info"]),
  code: z.string(),
  message: z.string(),
  hint: z.string(),
  evidence: z.record(z.string(), z.unknown()),
});

/** Lint over the latest rows of a scope (anchors expanded; lanes null: every lane). */
export function lintScope(
  ctx: CommandContext,
  scope: { anchors?: string[] | undefined; key?: string | undefined; lanes: string[] | null },
  asOf: string | null,
): { issues: LintIssue[]; rows: KeyRow[]; has_more: boolean } {
  const byAnchor = latestKeys(ctx.db, { anchors: scope.anchors, lanes: scope.lanes, limit: MAX_LINT_KEYS + 1 });
  // A key's rows under other anchors decide whether it is overloaded or duplicated across anchors.
  const byKey = scope.key === undefined ? [] : latestKeys(ctx.db, { key: scope.key, lanes: scope.lanes, limit: MAX_LINT_KEYS });
  const seen = new Set<string>();
  const merged: KeyRow[] = [];
  for (const row of [...byAnchor.slice(0, MAX_LINT_KEYS), ...byKey]) {
    const identity = JSON.stringify([row.anchor, row.key, row.lane]);
    if (seen.has(identity)) continue;
    seen.add(identity);
    merged.push(row);
  }
  const rows = canonicalRows(ctx, merged);
  return { issues: lintKnowledge(rows, asOf), rows, has_more: byAnchor.length > MAX_LINT_KEYS };
}
