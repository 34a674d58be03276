/**
 * Where the frontier reads look (seed 001 precedence without the focus): a target's reasoning branch
 * and graph doc, else a branch (+ graph_doc, default `graph`), else the caller's checkout. Shared by
 * the frontier, next-move and watch reads and by the frontier's graph; `callScope` aims a proposed
 * think call at the same place.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import type { Branch } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { reasoningScope } from "../../place/scope";
import { targetSchema } from "../../place/target.schema";
import { fail } from "../../shared/errors";
import { branchArg, docSchema } from "../docs/docs.schema";

export const frontierScopeFields = {
  target: targetSchema.optional(),
  branch: branchArg.optional(),
  graph_doc: docSchema.optional().describe("Default `graph` (with a target: its graph doc)."),
  all_lanes: z.boolean().default(false),
};

export interface FrontierScope {
  branch: Branch;
  graphDoc: string;
  traceDoc: string;
  /** The plan or task aimed at (its reasoning ref), if any. */
  target?: string | undefined;
  /** Arguments that aim a proposed think call at this scope. */
  callScope: Record<string, unknown>;
}

export function frontierScopeOf(
  ctx: CommandContext,
  args: { target?: unknown; branch?: string | undefined; graph_doc?: string | undefined },
): FrontierScope {
  const scope = reasoningScope(ctx, args as Parameters<typeof reasoningScope>[1], "read", { useFocus: false });
  if (scope.ref && args.graph_doc !== undefined)
    fail("INVALID_INPUT", "With a target, the graph doc comes from its reasoning ref.", "Drop graph_doc or target.", {
      fields: ["target", "graph_doc"],
    });
  const graphDoc = scope.ref?.graph_doc ?? args.graph_doc ?? DEFAULT_DOCS.graph;
  const traceDoc = scope.ref?.trace_doc ?? DEFAULT_DOCS.trace;
  const callScope =
    scope.target !== undefined ? { target: scope.target } : { branch: scope.branch.name, trace_doc: traceDoc, graph_doc: graphDoc };
  return { branch: scope.branch, graphDoc, traceDoc, target: scope.target, callScope };
}
