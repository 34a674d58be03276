/**
 * One page of a graph merge-back (seed 001 "Conflicts & merge back"): the keys `from` changed since
 * branching, oldest first, each decided 3-way against the base snapshot and `into` (its base): applied,
 * skipped, or recorded as a conflict (deterministic id, never duplicated). Shared by `graph_merge` and
 * the idea-branch merge, which must not depend on each other's commands.
 */
import type { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { type Branch, type Source, sourcesOf } from "../../place/branches.store";
import { type MergePage, pagination } from "../docs/paging";
import { conflictBySignature, conflictId, conflictSignature, insertConflict } from "./conflicts.store";
import type { conflictSummarySchema } from "./graph.schema";
import { fieldsOf, lookupVersion, toEdge, toNode, type VersionRow, writeVersion } from "./graph.store";
import { effectivePage } from "./graph-pages.store";
import { changedFields, decide } from "./merge";

/** Graph keys one merge call examines at most. */
export const MAX_MERGE_KEYS = 200;

function snapshot(row: VersionRow | undefined): Record<string, unknown> | null {
  if (row === undefined) return null;
  return row.kind === "node" ? toNode(row) : toEdge(row);
}

export function mergeGraph(ctx: CommandContext, from: Branch, into: Branch, doc: string, options: MergePage) {
  const fromSources = sourcesOf(ctx.db, from);
  const baseSources: Source[] = fromSources.slice(1);
  const intoSources = sourcesOf(ctx.db, into);
  const own = fromSources[0] as Source;
  const page = effectivePage(ctx.db, doc, "any", [{ source: own, nearer: [], lower: null }], {
    after: options.cursor,
    limit: options.limit,
    order: "oldest",
    liveOnly: false,
  });
  const summary = { nodes_changed: 0, edges_changed: 0, node_fields_changed: 0, edge_fields_changed: 0 };
  const conflicts: z.infer<typeof conflictSummarySchema>[] = [];
  const created: string[] = [];
  let merged = 0;
  let skipped = 0;
  for (const theirs of page.rows) {
    const base = lookupVersion(ctx.db, baseSources, doc, theirs.kind, theirs.key);
    const ours = lookupVersion(ctx.db, intoSources, doc, theirs.kind, theirs.key);
    const changed = changedFields(base && fieldsOf(base), fieldsOf(theirs)).length;
    if (changed > 0) {
      summary[theirs.kind === "node" ? "nodes_changed" : "edges_changed"]++;
      summary[theirs.kind === "node" ? "node_fields_changed" : "edge_fields_changed"] += changed;
    }
    const decision = decide(base && fieldsOf(base), fieldsOf(theirs), ours && fieldsOf(ours));
    if (decision === "same_as_base" || decision === "same_as_ours") {
      skipped++;
      continue;
    }
    if (decision === "apply") {
      merged++;
      if (!options.dry_run) {
        const fields = fieldsOf(theirs);
        writeVersion(ctx, into, doc, { ...fields, meta: { ...(fields.meta ?? {}), _merge: { from: from.name, from_seq: theirs.seq } } });
      }
      continue;
    }
    const signature = conflictSignature(from.id, into.id, doc, theirs.kind, theirs.key, from.base_seq ?? 0, theirs.seq);
    const existing = conflictBySignature(ctx.db, signature);
    if (existing) {
      skipped++;
      if (existing.status === "open")
        conflicts.push({ conflict_id: existing.conflict_id, kind: existing.kind, key: existing.key, status: "open" });
      continue;
    }
    const id = conflictId(signature, ours?.seq ?? null);
    conflicts.push({ conflict_id: id, kind: theirs.kind, key: theirs.key, status: options.dry_run ? "preview" : "open" });
    if (options.dry_run) continue;
    created.push(id);
    insertConflict(ctx.db, {
      conflict_id: id,
      signature,
      from_branch_id: from.id,
      into_branch_id: into.id,
      doc,
      kind: theirs.kind,
      key: theirs.key,
      base_cutoff: from.base_seq ?? 0,
      theirs_seq: theirs.seq,
      ours_seq: ours?.seq ?? null,
      base_json: JSON.stringify(snapshot(base)),
      theirs_json: JSON.stringify(snapshot(theirs)),
      ours_json: JSON.stringify(snapshot(ours)),
      created_at_ms: ctx.nowMs,
    });
  }
  if (!options.dry_run && (merged > 0 || created.length > 0)) {
    ctx.journal({
      target: `${into.name}/${doc}`,
      summary: `graph merge from ${from.name}: ${merged} applied, ${created.length} conflicts`,
    });
  }
  const last = page.rows[page.rows.length - 1];
  return {
    merged,
    skipped,
    conflicts_created: created.length,
    conflict_ids: created,
    conflicts,
    diff_summary: summary,
    dry_run: options.dry_run,
    pagination: pagination(options.cursor, page.has_more, last?.seq, options.limit, page.rows.length),
  };
}
