/**
 * The single organism (seed 002): every task mutation, inside its own transaction,
 *
 * 1. appends its event to the journal (`event_id` = `evt_` + tick);
 * 2. ingests it into the canonical branch: an `event` entry in `<ID>-trace` whose `source_event_id` is
 *    the event id (a unique index makes a second ingestion of the same event a no-op);
 * 3. updates the graph projection in `<ID>-graph` on the same branch: `task:<ID>` and `step:<STEP>`
 *    nodes, `contains` edges (plan → task, task → step, step → sub-step), tombstones on delete. A
 *    projected key is written only when its state differs, so projecting again changes nothing. A
 *    dependency is a `blocks` edge in the waiting task's plan's graph (`projectDependency`).
 */
import type { CommandContext } from "../../commands/context";
import type { Branch } from "../../place/branches.store";
import { sourcesOf } from "../../place/branches.store";
import { canonicalBranch, reasoningRef } from "../../place/targets";
import type { EntityRow, StepRow } from "../../place/targets.store";
import { appendEntry, hasEventEntry } from "../docs/docs.store";
import { edgeKey } from "../graph/graph.schema";
import { fieldsOf, lookupVersion, type VersionFields, writeVersion } from "../graph/graph.store";
import { edgesTouching } from "../graph/graph-edges.store";
import { sameState } from "../graph/merge";
import { plansWaitingOn } from "./readiness.store";
import type { TaskEvent } from "./tasks.schema";

export interface NewTaskEvent {
  type: string;
  path?: string | undefined;
  payload: Record<string, unknown>;
  summary: string;
}

/** Journals a task event and ingests it into the entity's trace; returns the event. */
export function emitEvent(ctx: CommandContext, entity: EntityRow, event: NewTaskEvent): TaskEvent {
  const row = ctx.event({
    type: event.type,
    task_id: entity.id,
    path: event.path ?? null,
    payload: event.payload,
    target: entity.id,
    summary: event.summary,
  });
  const taskEvent: TaskEvent = {
    event_id: row.event_id,
    tick: row.tick,
    ts_ms: row.ts_ms,
    type: event.type,
    task: entity.id,
    payload: event.payload,
  };
  if (event.path !== undefined) taskEvent.path = event.path;
  ingestEvent(ctx, taskEvent, event.summary);
  return taskEvent;
}

/** Writes the trace entry of an event unless its branch and doc already hold one for that event id. */
export function ingestEvent(ctx: CommandContext, event: TaskEvent, summary: string): boolean {
  const branch = canonicalBranch(ctx, event.task);
  const doc = reasoningRef(event.task).trace_doc;
  if (hasEventEntry(ctx.db, branch.id, doc, event.event_id)) return false;
  appendEntry(ctx, {
    branch,
    doc,
    kind: "event",
    title: event.type,
    content: `${event.type} ${event.task}${event.path ? ` ${event.path}` : ""}: ${summary}`,
    meta: {
      event_id: event.event_id,
      type: event.type,
      task: event.task,
      ...(event.path ? { path: event.path } : {}),
      payload: event.payload,
    },
    source_event_id: event.event_id,
  });
  return true;
}

// ---------------------------------------------------------------------------------------------
// Graph projection

export function entityNodeId(id: string): string {
  return `task:${id}`;
}

export function stepNodeId(id: string): string {
  return `step:${id}`;
}

interface ProjectionTarget {
  ctx: CommandContext;
  branch: Branch;
  doc: string;
}

function projectionOf(ctx: CommandContext, entityId: string): ProjectionTarget {
  return { ctx, branch: canonicalBranch(ctx, entityId), doc: reasoningRef(entityId).graph_doc };
}

/** Writes `fields` as a new version unless the effective state already equals it; true when written. */
function project(target: ProjectionTarget, fields: VersionFields): boolean {
  const current = lookupVersion(target.ctx.db, sourcesOf(target.ctx.db, target.branch), target.doc, fields.kind, fields.key);
  if (current === undefined ? fields.deleted : sameState(fieldsOf(current), fields)) return false;
  writeVersion(target.ctx, target.branch, target.doc, fields);
  return true;
}

function entityNode(entity: EntityRow): VersionFields {
  return {
    kind: "node",
    key: entityNodeId(entity.id),
    node_type: entity.kind,
    title: entity.title,
    status: entity.status.toLowerCase(),
    deleted: false,
  };
}

function stepNode(step: StepRow): VersionFields {
  return {
    kind: "node",
    key: stepNodeId(step.id),
    node_type: "step",
    title: step.title,
    status: step.completed ? "done" : "open",
    deleted: false,
  };
}

function containsEdge(from: string, to: string, deleted = false): VersionFields {
  return { kind: "edge", key: edgeKey(from, "contains", to), from_id: from, rel: "contains", to_id: to, deleted };
}

function parentNodeOf(task: EntityRow, step: StepRow): string {
  return step.parent_step_id === null ? entityNodeId(task.id) : stepNodeId(step.parent_step_id);
}

/** Projects an entity's node and the given steps (with their `contains` edges) into its graph doc. */
export function projectEntity(ctx: CommandContext, entity: EntityRow, steps: StepRow[] = []): number {
  const target = projectionOf(ctx, entity.id);
  let written = project(target, entityNode(entity)) ? 1 : 0;
  // The plan's graph holds a copy of each of its tasks' nodes: keep its title and status current, and
  // so do the graphs of other plans whose tasks wait on this one (projectDependency).
  if (entity.plan_id !== null && project(projectionOf(ctx, entity.plan_id), entityNode(entity))) written++;
  if (entity.kind === "task") {
    for (const plan of plansWaitingOn(ctx.db, entity.id, entity.plan_id ?? "")) {
      if (project(projectionOf(ctx, plan), entityNode(entity))) written++;
    }
  }
  for (const step of steps) {
    if (project(target, stepNode(step))) written++;
    if (project(target, containsEdge(parentNodeOf(entity, step), stepNodeId(step.id)))) written++;
  }
  return written;
}

/** Projects a task into its plan's graph doc: the task's node and the plan's `contains` edge. */
export function projectIntoPlan(ctx: CommandContext, plan: EntityRow, task: EntityRow): void {
  const target = projectionOf(ctx, plan.id);
  project(target, entityNode(plan));
  project(target, entityNode(task));
  project(target, containsEdge(entityNodeId(plan.id), entityNodeId(task.id)));
}

/**
 * Tombstones a projected node and every live edge touching it in that graph doc (as `node_delete`
 * does), so edges agents drew to a deleted task or step do not dangle.
 */
function tombstoneNode(target: ProjectionTarget, node: VersionFields): void {
  const sources = sourcesOf(target.ctx.db, target.branch);
  for (let round = 0; round < MAX_TOMBSTONE_ROUNDS; round++) {
    const edges = edgesTouching(target.ctx.db, sources, target.doc, node.key, TOMBSTONE_ROUND);
    if (edges.length === 0) break;
    for (const edge of edges) project(target, { ...fieldsOf(edge), deleted: true });
  }
  project(target, { ...node, deleted: true });
}

/** Edges tombstoned per round, and rounds at most (a node with more edges keeps the rest live). */
const TOMBSTONE_ROUND = 200;
const MAX_TOMBSTONE_ROUNDS = 50;

/** Tombstones the nodes of deleted steps, their `contains` edges and any other edge touching them. */
export function tombstoneSteps(ctx: CommandContext, task: EntityRow, steps: StepRow[]): void {
  const target = projectionOf(ctx, task.id);
  for (const step of steps) tombstoneNode(target, stepNode(step));
}

/** Tombstones a deleted entity's node (in its own graph doc and in its plan's) and its steps. */
export function tombstoneEntity(ctx: CommandContext, entity: EntityRow, steps: StepRow[]): void {
  tombstoneSteps(ctx, entity, steps);
  tombstoneNode(projectionOf(ctx, entity.id), entityNode(entity));
  if (entity.plan_id !== null) tombstoneNode(projectionOf(ctx, entity.plan_id), entityNode(entity));
}

/**
 * A dependency in the graph: edge `blocks` from the blocker's node to the waiting task's node, in the
 * waiting task's plan's graph doc (which holds a node of each of its tasks). A blocker of another plan
 * gets its node there too; `projectEntity` keeps such copies current (`plansWaitingOn`).
 */
export function projectDependency(ctx: CommandContext, task: EntityRow, blocker: EntityRow, deleted = false): void {
  if (task.plan_id === null) return;
  const target = projectionOf(ctx, task.plan_id);
  if (!deleted && blocker.plan_id !== task.plan_id) project(target, entityNode(blocker));
  const from = entityNodeId(blocker.id);
  const to = entityNodeId(task.id);
  project(target, { kind: "edge", key: edgeKey(from, "blocks", to), from_id: from, rel: "blocks", to_id: to, deleted });
}
