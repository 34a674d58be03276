/**
 * What `open` shows for each kind of ref, read-only: a card with its edges, a document entry, a plan's
 * or task's capsule, and a step with its lease (anchors, jobs and code slices are opened by their own
 * capabilities). Cards are read from the caller's checkout graph doc (`graph`), then the focused
 * task's graph; lanes apply (shared + the caller's own lane, every lane with include_drafts), and a
 * card the caller may not see is reported exactly like a missing one. Lookups that find nothing fail UNKNOWN_ID with a recovery hint.
 */
import type { CommandContext } from "../../commands/context";
import { type Branch, branchById, checkoutOf, findBranch, type Source, sourcesOf } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { focusOf } from "../../place/focus.store";
import { reasoningRef } from "../../place/targets";
import { findStep, requireEntity } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import { toEntry } from "../docs/docs.store";
import { entryView } from "../docs/entry-view";
import { toCard } from "../graph/card-shape";
import { isLive, lookupVersion, toEdge, type VersionRow } from "../graph/graph.store";
import { edgesTouching } from "../graph/graph-edges.store";
import { laneOf, laneOfMeta, mayWriteLane } from "../graph/lanes";
import { KNOWLEDGE_ID_PREFIX } from "../knowledge/card-format";
import { KB_BRANCH, KB_GRAPH_DOC } from "../knowledge/knowledge.model";
import { liveLease } from "../tasks/leases.store";
import { missingCheckpoints, proofSummary } from "../tasks/proof";
import { resumeView } from "../tasks/resume-view";
import { toStep } from "../tasks/steps.store";
import { entryAtSeq, taskOfStep } from "./open.store";

export interface OpenOptions {
  /** Bounds every list of the answer (anchor cards, card edges). */
  limit: number;
  /** Every lane (like view=audit) instead of shared + the caller's own. */
  allLanes: boolean;
}

/** Relations that get a list of their own; every other relation goes to `other`. */
const NAMED_RELS = ["supports", "blocks"] as const;

function mayRead(ctx: CommandContext, lane: string, allLanes: boolean): boolean {
  return allLanes || mayWriteLane(ctx, lane);
}

interface GraphPlace {
  branch: Branch;
  sources: Source[];
  doc: string;
}

function checkoutGraph(ctx: CommandContext): GraphPlace {
  const branch = checkoutOf(ctx.db, ctx.principal.agent_id);
  return { branch, sources: sourcesOf(ctx.db, branch), doc: DEFAULT_DOCS.graph };
}

// ---------------------------------------------------------------------------------------------
// CARD-…

type OpenEdge = ReturnType<typeof toOpenEdge>;

function toOpenEdge(row: VersionRow, cardId: string) {
  const { deleted: _deleted, ...edge } = toEdge(row);
  return { ...edge, direction: edge.from === cardId ? ("out" as const) : ("in" as const) };
}

/**
 * The card's live edges, newest first, at most `limit` in all, grouped by relation. An edge whose other
 * end is a card in a lane the caller may not see is left out (it would name that draft).
 */
function cardEdges(ctx: CommandContext, sources: Source[], doc: string, cardId: string, options: OpenOptions) {
  const rows = edgesTouching(ctx.db, sources, doc, cardId, options.limit + 1);
  const visible = rows
    .filter((row) => {
      const other = row.from_id === cardId ? row.to_id : row.from_id;
      if (other === null || other === cardId) return true;
      const node = lookupVersion(ctx.db, sources, doc, "node", other);
      return !isLive(node) || mayRead(ctx, laneOf(node), options.allLanes);
    })
    .sort((a, b) => b.seq - a.seq);
  const shown = visible.slice(0, options.limit).map((row) => toOpenEdge(row, cardId));
  const groups: Record<(typeof NAMED_RELS)[number] | "other", OpenEdge[]> = { supports: [], blocks: [], other: [] };
  for (const edge of shown)
    groups[(NAMED_RELS as readonly string[]).includes(edge.rel) ? (edge.rel as "supports" | "blocks") : "other"].push(edge);
  // More than `limit` edges came back (before the lane filter): some may not be shown.
  return { ...groups, has_more: rows.length > options.limit };
}

/** The knowledge base's graph (knowledge.model.ts), where every knowledge card lives whatever the checkout. */
function knowledgeGraph(ctx: CommandContext): GraphPlace[] {
  const branch = findBranch(ctx.db, KB_BRANCH);
  return branch ? [{ branch, sources: sourcesOf(ctx.db, branch), doc: KB_GRAPH_DOC }] : [];
}

/**
 * Where a card is looked for, in order: a knowledge card (CARD-KN-…) in the knowledge base; any other in
 * the checkout's graph doc, then the focused plan's or task's graph.
 */
function cardPlaces(ctx: CommandContext, id: string): GraphPlace[] {
  if (id.startsWith(KNOWLEDGE_ID_PREFIX)) return knowledgeGraph(ctx);
  const places = [checkoutGraph(ctx)];
  const focus = focusOf(ctx.db, ctx.principal.agent_id);
  if (focus !== undefined) {
    const ref = reasoningRef(focus);
    const branch = findBranch(ctx.db, ref.branch);
    if (branch) places.push({ branch, sources: sourcesOf(ctx.db, branch), doc: ref.graph_doc });
  }
  return places;
}

export function openCard(ctx: CommandContext, id: string, options: OpenOptions) {
  const places = cardPlaces(ctx, id);
  let found: (GraphPlace & { row: VersionRow }) | undefined;
  for (const place of places) {
    const row = lookupVersion(ctx.db, place.sources, place.doc, "node", id);
    if (isLive(row) && mayRead(ctx, laneOf(row), options.allLanes)) {
      found = { ...place, row };
      break;
    }
  }
  if (found === undefined) {
    const where = places.length > 0 ? places.map((place) => `${place.branch.name}/${place.doc}`) : [`${KB_BRANCH}/${KB_GRAPH_DOC}`];
    const knowledge = id.startsWith(KNOWLEDGE_ID_PREFIX);
    fail(
      "UNKNOWN_ID",
      `No card ${id} in ${where.join(" or ")}.`,
      `${knowledge ? "List knowledge cards with `knowledge_query`" : "List cards with `think_query` (your checkout's graph doc, or target: a task)"}; a draft in another agent's lane opens only with include_drafts: true.`,
      { id, searched: where },
      [
        knowledge
          ? suggest("think.knowledge.query", { limit: 20 }, "See the knowledge cards you can open.")
          : suggest("think_query", { limit: 20 }, "See the cards you can open."),
      ],
    );
  }
  const { branch, sources, doc, row } = found;
  return {
    kind: "card" as const,
    ref: id,
    card: toCard(row),
    edges: cardEdges(ctx, sources, doc, id, options),
    head: { branch: branch.name, doc, seq: row.seq, ts: new Date(row.ts_ms).toISOString() },
    truncated: false,
  };
}

// ---------------------------------------------------------------------------------------------
// <doc>@<seq>

export function openEntry(ctx: CommandContext, doc: string, seq: number, options: OpenOptions) {
  // Load at most what the budget can show (+1, so a longer content is known to be cut).
  const found = entryAtSeq(ctx.db, seq, (ctx.readLimitChars ?? Number.MAX_SAFE_INTEGER) + 1);
  if (found === undefined) {
    fail(
      "UNKNOWN_ID",
      `No document entry has seq ${seq}.`,
      "Seqs are global (graph versions use them too); read a document with `show` to see its entries' seqs.",
      { ref: `${doc}@${seq}`, seq },
    );
  }
  if (found.row.doc !== doc) {
    fail(
      "UNKNOWN_ID",
      `Entry ${seq} is not in doc "${doc}".`,
      `Seqs are global and a ref names its entry's doc: open ${found.row.doc}@${seq}.`,
      { ref: `${doc}@${seq}`, seq, doc },
      [suggest("open", { id: `${found.row.doc}@${seq}` }, "The same seq under its own doc.")],
    );
  }
  const entry = toEntry(found.row, branchById(ctx.db, found.row.branch_id).name);
  // An entry a card write left in another agent's lane is that draft: it opens only with include_drafts.
  if (!mayRead(ctx, laneOfMeta(entry.meta), options.allLanes)) {
    fail(
      "UNKNOWN_ID",
      `Entry ${doc}@${seq} is a draft in another agent's lane.`,
      "Pass include_drafts: true to open drafts of every lane.",
      { ref: `${doc}@${seq}`, seq },
    );
  }
  return {
    kind: "entry" as const,
    ref: `${doc}@${seq}`,
    entry: entryView(entry),
    ...(found.truncated ? { content_truncated: true } : {}),
    truncated: false,
  };
}

// ---------------------------------------------------------------------------------------------
// TASK-… / PLAN-…

/**
 * The read-only capsule view of a plan or task, with what a task waits for and who has taken it; the
 * caller's focus is neither used nor changed.
 */
export function openTarget(ctx: CommandContext, kind: "task" | "plan", id: string, options: OpenOptions) {
  const view = resumeView(ctx, { target: id, view: options.allLanes ? "audit" : "focus_only" }, "open");
  return {
    kind,
    ref: id,
    view: view.view,
    target: view.target,
    ...(view.dependencies === undefined ? {} : { dependencies: view.dependencies }),
    ...(view.claim === undefined ? {} : { claim: view.claim }),
    reasoning_ref: view.reasoning_ref,
    step_focus: view.step_focus,
    capsule: view.capsule,
    truncated: false,
  };
}

// ---------------------------------------------------------------------------------------------
// STEP-…

export function openStep(ctx: CommandContext, id: string) {
  const taskId = taskOfStep(ctx.db, id);
  const step = taskId === undefined ? undefined : findStep(ctx.db, taskId, { id });
  if (taskId === undefined || step === undefined) {
    fail("UNKNOWN_ID", `No step ${id} in this workspace.`, "List a task's steps with `tasks_radar` (step ids look like STEP-0000000A).", {
      id,
    });
  }
  const task = requireEntity(ctx.db, taskId);
  const lease = liveLease(ctx.db, step.id);
  return {
    kind: "step" as const,
    ref: id,
    task: { id: task.id, title: task.title, status: task.status },
    step: toStep(step),
    lease: lease ? { holder: lease.holder, expires_tick: lease.expires_tick } : null,
    missing_proof: step.completed === 1 ? [] : missingCheckpoints(step, proofSummary(ctx.db, step)),
    truncated: false,
  };
}
