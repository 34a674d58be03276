/**
 * `think_frontier_graph`: the open frontier and the open conflicts of a graph doc with one hop of
 * neighbours, as nodes and edges to draw (frontier-graph.ts builds it). The app's and the viewer's
 * graph views open on it, so a 5,000-card graph opens on the few cards that matter, labelled, rather
 * than as a grid of dots; `around` draws chosen cards and their neighbours.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { nodeIdSchema } from "../graph/graph.schema";
import { type FrontierGraph, frontierGraph, MAX_AROUND, MAX_GRAPH_NODES } from "./frontier-graph";
import { frontierScopeFields, frontierScopeOf } from "./frontier-scope";

const nodeSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string().optional(),
  status: z.string().optional(),
  tags: z.array(z.string()),
  lane: z.string(),
  open: z.boolean().describe("Not a closed status."),
  untested: z
    .boolean()
    .describe(
      "An open hypothesis drawn as a seed with no visible edge to or from a test card (one drawn only as a neighbour is not marked).",
    ),
  conflicted: z.boolean().describe("Named by an open conflict into this branch and doc."),
  seed: z.boolean().describe("On the frontier, in a conflict or asked in around; false: a neighbour."),
});

const countsSchema = z.object({
  questions: z.number(),
  hypotheses: z.number(),
  untested_hypotheses: z.number().describe("Of the hypotheses drawn as seeds."),
  tests: z.number(),
  decisions: z.number(),
});

export const thinkFrontierGraph = defineCommand({
  name: "think.frontier.graph",
  tool: "think_frontier_graph",
  title: "The frontier as a graph",
  description: `What a person looks at first in a graph doc: its open conflicts, open questions, hypotheses, tests and decisions, each with one hop of neighbours (at most ${MAX_GRAPH_NODES} nodes), and the edges among them; marks open, untested and conflicted cards. around: draw these cards and their neighbours instead. Other agents' drafts are left out unless all_lanes. A full view is about 40,000 characters: read it with budget_profile audit.`,
  kind: "read",
  input: {
    ...frontierScopeFields,
    around: z
      .array(nodeIdSchema)
      .min(1)
      .max(MAX_AROUND)
      .optional()
      .describe("Draw these cards and their neighbours instead of the frontier."),
    limit: z.number().int().min(1).max(MAX_GRAPH_NODES).default(MAX_GRAPH_NODES).describe("Nodes at most."),
  },
  output: {
    branch: z.string(),
    graph_doc: z.string(),
    nodes: z.array(nodeSchema),
    edges: z.array(z.object({ from: z.string(), rel: z.string(), to: z.string() })),
    conflicts: z.array(z.object({ conflict_id: z.string(), kind: z.string(), key: z.string(), from: z.string() })),
    frontier: countsSchema.describe(`Open cards per type, each counted up to ${MAX_GRAPH_NODES}.`),
    frontier_capped: z.boolean(),
    shown: z.number(),
    left_out: z.number().describe("Cards found but not drawn: past limit."),
    capped: z.boolean(),
    truncated: z.boolean(),
  },
  budget: {
    lists: ["edges", "nodes", "conflicts"],
    keep: ["id", "type", "from", "rel", "to", "conflict_id", "key", "open", "untested", "conflicted"],
    trimFromEnd: true,
  },
  handler: (ctx, args) => {
    const scope = frontierScopeOf(ctx, args);
    const graph: FrontierGraph = frontierGraph(ctx, scope, { around: args.around, limit: args.limit, allLanes: args.all_lanes });
    return { branch: scope.branch.name, graph_doc: scope.graphDoc, ...graph, truncated: false };
  },
});
