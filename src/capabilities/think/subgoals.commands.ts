/**
 * Subgoals and nominal merge (seed 001 v0.2). A subgoal is a `question` card tagged `subgoal` that
 * supports its parent question and owns a child trace doc (`trace-<subgoal id>`) for the side inquiry;
 * closing it sets its status and logs the outcome in both traces, and opening a closed one again sets it
 * back to `open`, logged the same way. Nominal merge folds duplicate cards
 * into a canonical one: their edges are re-pointed to it and they become `superseded` with
 * `meta.merged_into`; running it again changes nothing.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { MAX_TITLE_CHARS } from "../../shared/limits";
import { appendEntry } from "../docs/docs.store";
import { CLOSED_STATUSES } from "../graph/card-shape";
import { edgeKey, MAX_NODE_TEXT_CHARS, nodeIdSchema } from "../graph/graph.schema";
import { fieldsOf, isLive, lookupVersion, type VersionFields, type VersionRow, writeVersion } from "../graph/graph.store";
import { edgesTouching } from "../graph/graph-edges.store";
import { type CardTarget, commitCard, requireCard, requireOwnCard, requireWritableLane, rewriteCard } from "./cards";
import { normalizeCard } from "./cards.parse";
import { scopeFields, thinkScope } from "./think.scope";

/** Edges re-pointed per duplicate at most in one merge call (bounded; run again for the rest). */
const MAX_REPOINT = 200;
const MAX_DUPLICATES = 20;

const subgoalTraceDoc = (id: string) => `trace-${id}`.slice(0, 128);

function isSubgoal(row: VersionRow): boolean {
  return (row.tags_json === null ? [] : (JSON.parse(row.tags_json) as string[])).includes("subgoal");
}

/**
 * Logs a subgoal's new status in its own trace (`title`) and the scope's trace (`subgoal <id> <status>`,
 * with the card's meta), and journals it: what closing and reopening a subgoal share.
 */
function logSubgoalStatus(
  target: CardTarget,
  id: string,
  status: string,
  title: string,
  outcome: string,
  extra: Record<string, unknown> = {},
) {
  appendEntry(target.ctx, {
    branch: target.branch,
    doc: subgoalTraceDoc(id),
    kind: "note",
    title,
    content: outcome,
    meta: { subgoal: id, status, ...extra },
  });
  appendEntry(target.ctx, {
    branch: target.branch,
    doc: target.traceDoc,
    kind: "note",
    title: `subgoal ${id} ${status}`,
    content: outcome,
    meta: { card_id: id, card_type: "question", status },
  });
  target.ctx.journal({ target: `${target.branch.name}/${target.graphDoc}`, summary: `subgoal ${id} ${status}` });
}

/** A closed subgoal opened again: its status back to `open` (title, tags and edges as they are); true when written. */
function reopenSubgoal(target: CardTarget, row: VersionRow): boolean {
  const was = fieldsOf(row).status;
  if (!isSubgoal(row) || !(CLOSED_STATUSES as readonly unknown[]).includes(was)) return false;
  requireOwnCard(target, row.key, "subgoal");
  if (rewriteCard(target, row, { status: "open" }) === undefined) return false;
  logSubgoalStatus(target, row.key, "open", "subgoal reopened", `reopened (was ${String(was)})`, { was });
  return true;
}

export const thinkSubgoalOpen = defineCommand({
  name: "think.subgoal.open",
  tool: "think_subgoal_open",
  title: "Open a subgoal",
  description:
    "Open a subgoal under a parent question: a question card tagged subgoal that supports the parent, with its own trace doc (trace-<subgoal id>) for the side inquiry. Opening it again with the same id changes nothing while it is open, and sets a closed one back to open (reopened: true); without an id, each call opens a new one.",
  kind: "write",
  input: {
    ...scopeFields,
    parent: nodeIdSchema.describe("The parent question's card id."),
    id: nodeIdSchema.optional(),
    title: z.string().min(1).max(MAX_TITLE_CHARS),
  },
  output: {
    subgoal_id: z.string(),
    parent: z.string(),
    trace_doc: z.string(),
    opened: z.boolean(),
    reopened: z.boolean().optional().describe("true: the subgoal was closed and is open again."),
  },
  handler: (ctx, args) => {
    const { cards: target, stepTag } = thinkScope(ctx, args, "write");
    const parent = requireCard(target, args.parent, "parent card");
    // An existing open subgoal is left as it is; a closed one is set back to open.
    const existing = args.id === undefined ? undefined : lookupVersion(ctx.db, target.sources, target.graphDoc, "node", args.id);
    if (isLive(existing)) {
      const reopened = reopenSubgoal(target, existing);
      const answer = { subgoal_id: existing.key, parent: args.parent, trace_doc: subgoalTraceDoc(existing.key), opened: reopened };
      return reopened ? { ...answer, reopened } : answer;
    }
    if (parent.node_type !== "question")
      fail(
        "INVALID_INPUT",
        `${args.parent} is a ${parent.node_type}; a subgoal hangs under a question.`,
        "Pass a question card as parent.",
        { parent: args.parent },
      );
    const result = commitCard(target, {
      card: normalizeCard({
        ...(args.id ? { id: args.id } : {}),
        type: "question",
        title: args.title,
        tags: ["subgoal"],
        meta: { subgoal_of: args.parent },
      }),
      supports: [args.parent],
      blocks: [],
      extraTags: stepTag ? [stepTag] : [],
    });
    const traceDoc = subgoalTraceDoc(result.card_id);
    if (result.inserted) {
      appendEntry(ctx, {
        branch: target.branch,
        doc: traceDoc,
        kind: "note",
        title: "subgoal opened",
        content: args.title,
        meta: { subgoal: result.card_id, parent: args.parent },
      });
    }
    return { subgoal_id: result.card_id, parent: args.parent, trace_doc: traceDoc, opened: result.inserted };
  },
});

export const thinkSubgoalClose = defineCommand({
  name: "think.subgoal.close",
  tool: "think_subgoal_close",
  title: "Close a subgoal",
  description:
    "Close a subgoal (status done by default, or another closing status: closed, resolved, rejected, canceled, superseded) and log its outcome in its own trace and in the parent's trace doc. Closing it again with the same status changes nothing.",
  kind: "write",
  input: {
    ...scopeFields,
    subgoal_id: nodeIdSchema,
    status: z.enum(CLOSED_STATUSES).default("done"),
    summary: z.string().min(1).max(MAX_NODE_TEXT_CHARS).optional(),
  },
  output: { subgoal_id: z.string(), status: z.string(), changed: z.boolean() },
  handler: (ctx, args) => {
    const target = thinkScope(ctx, args, "write").cards;
    const row = requireOwnCard(target, args.subgoal_id, "subgoal");
    if (!isSubgoal(row))
      fail("INVALID_INPUT", `${args.subgoal_id} is not a subgoal.`, "Open one with think_subgoal_open.", { subgoal_id: args.subgoal_id });
    const status = args.status.toLowerCase();
    const written = rewriteCard(target, row, { status });
    if (written) logSubgoalStatus(target, args.subgoal_id, status, "subgoal closed", args.summary ?? `closed as ${status}`);
    return { subgoal_id: args.subgoal_id, status, changed: written !== undefined };
  },
});

function repoint(target: CardTarget, edge: VersionFields, from: string, into: string): boolean {
  // An edge belongs to its source card: re-pointing another agent's edge is theirs to do.
  const source = lookupVersion(target.ctx.db, target.sources, target.graphDoc, "node", edge.from_id as string);
  if (isLive(source)) requireWritableLane(target.ctx, source);
  const newFrom = edge.from_id === from ? into : (edge.from_id as string);
  const dest = edge.to_id === from ? into : (edge.to_id as string);
  writeVersion(target.ctx, target.branch, target.graphDoc, { ...edge, deleted: true });
  if (newFrom === dest) return false;
  const key = edgeKey(newFrom, edge.rel as string, dest);
  const existing = lookupVersion(target.ctx.db, target.sources, target.graphDoc, "edge", key);
  if (isLive(existing)) return false;
  writeVersion(target.ctx, target.branch, target.graphDoc, {
    kind: "edge",
    key,
    from_id: newFrom,
    rel: edge.rel ?? "",
    to_id: dest,
    meta: edge.meta ?? null,
    deleted: false,
  });
  return true;
}

export const thinkNominalMerge = defineCommand({
  name: "think.nominal_merge",
  tool: "think_nominal_merge",
  title: "Merge duplicate cards",
  description: `Fold duplicate cards into a canonical one: each duplicate's edges are re-pointed to it (at most ${MAX_REPOINT} outgoing and ${MAX_REPOINT} incoming per duplicate per call; run again for more) and the duplicate becomes superseded with meta.merged_into. Idempotent: a second run changes nothing.`,
  kind: "write",
  input: {
    ...scopeFields,
    into: nodeIdSchema.describe("The canonical card."),
    duplicates: z.array(nodeIdSchema).min(1).max(MAX_DUPLICATES),
  },
  output: { into: z.string(), merged: z.array(z.string()), edges_repointed: z.number(), changed: z.boolean() },
  handler: (ctx, args) => {
    const target = thinkScope(ctx, args, "write").cards;
    requireOwnCard(target, args.into, "canonical card");
    let repointed = 0;
    let changed = false;
    const merged: string[] = [];
    for (const id of [...new Set(args.duplicates)].filter((dup) => dup !== args.into)) {
      const dup = requireOwnCard(target, id, "duplicate card");
      for (const edge of edgesTouching(ctx.db, target.sources, target.graphDoc, id, MAX_REPOINT)) {
        if (repoint(target, fieldsOf(edge), id, args.into)) repointed++;
        changed = true;
      }
      const meta = { ...(fieldsOf(dup).meta ?? {}), merged_into: args.into };
      if (rewriteCard(target, dup, { status: "superseded", meta })) changed = true;
      merged.push(id);
    }
    if (changed)
      ctx.journal({ target: `${target.branch.name}/${target.graphDoc}`, summary: `merged ${merged.join(", ")} into ${args.into}` });
    return { into: args.into, merged, edges_repointed: repointed, changed };
  },
});
