/**
 * One page of an idempotent notes merge (seed 001): the notes of `from`'s effective view that `into`'s
 * lacks, oldest first, copied with `meta._merge` naming where they came from (a merged copy counts as
 * present, so merging again copies nothing). Shared by `merge` and the idea-branch merge, which must
 * not depend on each other's commands.
 */
import type { CommandContext } from "../../commands/context";
import { type Branch, sourcesOf } from "../../place/branches.store";
import { appendEntry, diffPage, namer } from "./docs.store";
import { type MergePage, pagination } from "./paging";

export function mergeNotes(ctx: CommandContext, from: Branch, into: Branch, doc: string, page: MergePage) {
  const fromSources = sourcesOf(ctx.db, from);
  const rows = diffPage(ctx.db, sourcesOf(ctx.db, into), fromSources, doc, { after: page.cursor, limit: page.limit, order: "oldest" });
  const name = namer(ctx.db, fromSources);
  let merged = 0;
  let skipped = 0;
  for (const row of rows.rows) {
    if (row.kind !== "note") {
      skipped++;
      continue;
    }
    merged++;
    if (page.dry_run) continue;
    const meta = row.meta_json === null ? {} : (JSON.parse(row.meta_json) as Record<string, unknown>);
    appendEntry(ctx, {
      branch: into,
      doc,
      kind: "note",
      title: row.title ?? undefined,
      format: row.format ?? undefined,
      meta: { ...meta, _merge: { from: name(row.branch_id), from_seq: row.seq, from_ts_ms: row.ts_ms } },
      content: row.content,
      agent_id: row.agent_id,
      identity_seq: row.identity_seq,
      source_event_id: `merge:${row.branch_id}:${row.seq}`,
    });
  }
  if (merged > 0 && !page.dry_run) ctx.journal({ target: `${into.name}/${doc}`, summary: `merged ${merged} notes from ${from.name}` });
  const last = rows.rows[rows.rows.length - 1];
  return {
    merged,
    skipped,
    dry_run: page.dry_run,
    pagination: pagination(page.cursor, rows.has_more, last?.seq, page.limit, rows.rows.length),
  };
}
