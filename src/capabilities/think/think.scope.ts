/**
 * Where a think command reads and writes (seed 001 precedence): an explicit target (the plan's or
 * task's reasoning branch and docs) > an explicit branch (+ trace_doc / graph_doc, default `trace` /
 * `graph`) > the caller's checkout. Think tools never use the focus. Under a task, cards written carry
 * the tag of its step focus (its first open step). Shared by the card and subgoal commands.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { DEFAULT_DOCS } from "../../place/documents";
import { reasoningScope } from "../../place/scope";
import { targetSchema } from "../../place/target.schema";
import { stepFocusTagOf } from "../../place/targets";
import { fail } from "../../shared/errors";
import { branchArg, docSchema } from "../docs/docs.schema";
import { type CardTarget, cardTarget } from "./cards";

export const scopeFields = {
  target: targetSchema.optional(),
  branch: branchArg.optional(),
  trace_doc: docSchema.optional().describe("Default `trace` (with a target: its trace doc)."),
  graph_doc: docSchema.optional().describe("Default `graph` (with a target: its graph doc)."),
};

export interface ScopeArgs {
  target?: z.infer<typeof targetSchema> | undefined;
  branch?: string | undefined;
  trace_doc?: string | undefined;
  graph_doc?: string | undefined;
}

export interface ThinkScope {
  cards: CardTarget;
  /** The tag of the task's step focus (its first open step), for cards written under a task. */
  stepTag?: string;
}

export function thinkScope(ctx: CommandContext, args: ScopeArgs, access: "read" | "write"): ThinkScope {
  const scope = reasoningScope(ctx, args, access, { useFocus: false });
  if (scope.ref && (args.trace_doc !== undefined || args.graph_doc !== undefined)) {
    fail(
      "INVALID_INPUT",
      "With a target, the docs come from its reasoning ref.",
      "Drop trace_doc and graph_doc, or drop target and pass branch.",
      {
        fields: ["target", "trace_doc", "graph_doc"],
      },
    );
  }
  const traceDoc = scope.ref?.trace_doc ?? args.trace_doc ?? DEFAULT_DOCS.trace;
  const graphDoc = scope.ref?.graph_doc ?? args.graph_doc ?? DEFAULT_DOCS.graph;
  const result: ThinkScope = { cards: cardTarget(ctx, scope.branch, traceDoc, graphDoc) };
  const stepTag = stepFocusTagOf(ctx.db, scope.target);
  if (stepTag) result.stepTag = stepTag;
  return result;
}

/** Scope inputs of card reads: the graph doc only, and whether to show every lane. */
export const readScopeFields = {
  target: targetSchema.optional(),
  branch: branchArg.optional(),
  graph_doc: docSchema.optional().describe("Default `graph` (with a target: its graph doc)."),
  all_lanes: z.boolean().default(false).describe("Show every agent's lane, not only shared + yours (the audit view)."),
};
