/**
 * What `visualize {what: "graph"}` answers besides the common fields: the graph's place (the target
 * asked for, else the branch and graph doc asked for, else the caller's focus, else its checkout),
 * the frontier in words (open questions, untested hypotheses, open conflicts: what a host without apps
 * shows), the reads the app's graph view makes, prefilled with that place, and the one write a person
 * makes from it (deciding a conflict), offered only to a role that may write.
 */
import type { CommandContext } from "../../commands/context";
import { ROLE_RANK } from "../../commands/context";
import { focusOf } from "../../place/focus.store";
import { type Suggestion, suggest } from "../../shared/suggestion";
import { clip } from "../../shared/text";
import { frontierGraph, MAX_GRAPH_NODES } from "../think/frontier-graph";
import { type FrontierScope, frontierScopeOf } from "../think/frontier-scope";

/** The reads the graph view makes, by command, with why it makes each. */
const GRAPH_READS = {
  "think.frontier.graph": "The open frontier and open conflicts with one hop of neighbours; add around to draw a card's neighbours.",
  "graph.conflict.show": "A conflict's base, theirs and ours; add conflict_id.",
  "graph.node.show": "A card with its versions and edges; add id.",
} as const;

/** Cards and conflicts named in the summary: a paragraph, not a list. */
const NAMED_IN_SUMMARY = 3;
/** Titles are cut to this in the summary: the app shows them whole. */
const MAX_TITLE_CHARS = 60;

export interface GraphPlace {
  branch: string;
  graph_doc: string;
  target?: string;
}

function placeOf(ctx: CommandContext, asked: string | undefined, args: { branch?: string | undefined; graph_doc?: string | undefined }) {
  const explicitPlace = args.branch !== undefined || args.graph_doc !== undefined;
  const target = asked ?? (explicitPlace ? undefined : focusOf(ctx.db, ctx.principal.agent_id));
  return frontierScopeOf(ctx, target === undefined ? args : { target });
}

/** The arguments that aim a read at the place: the target, or the branch and doc (named as `docName`). */
function aimed(scope: FrontierScope, docName: "graph_doc" | "doc"): Record<string, unknown> {
  return scope.target !== undefined ? { target: scope.target } : { branch: scope.branch.name, [docName]: scope.graphDoc };
}

function counted(count: number, one: string, many: string, capped = false): string {
  return `${count}${capped ? " or more" : ""} ${count === 1 ? one : many}`;
}

/** A few names in parentheses: `(Q1 "Title", Q2, …)`. */
function named(names: string[]): string {
  const shown = names.slice(0, NAMED_IN_SUMMARY);
  return shown.length === 0 ? "" : ` (${shown.join(", ")}${names.length > shown.length ? ", …" : ""})`;
}

function cardName(card: { id: string; title?: string | undefined }): string {
  return card.title ? `${card.id} "${clip(card.title, MAX_TITLE_CHARS)}"` : card.id;
}

export function graphFacts(
  ctx: CommandContext,
  asked: string | undefined,
  args: { branch?: string | undefined; graph_doc?: string | undefined },
  budgetProfile: string,
) {
  const scope = placeOf(ctx, asked, args);
  const graph = frontierGraph(ctx, scope, { limit: MAX_GRAPH_NODES, allLanes: false });
  const questions = graph.nodes.filter((node) => node.seed && node.type === "question" && node.open);
  const untested = graph.nodes.filter((node) => node.untested);
  const capped = graph.frontier_capped;
  const conflicts = graph.conflicts.map((conflict) => `${conflict.kind} ${conflict.key} from ${conflict.from}`);
  const summary =
    `Graph ${scope.graphDoc} on ${scope.branch.name}: ${counted(graph.frontier.questions, "open question", "open questions", capped)}${named(questions.map(cardName))}, ` +
    `${counted(graph.frontier.untested_hypotheses, "untested hypothesis", "untested hypotheses")}${named(untested.map(cardName))}, ` +
    `${counted(graph.conflicts.length, "open conflict", "open conflicts")}${named(conflicts)}. ` +
    (graph.shown === 0
      ? "There is nothing to draw yet."
      : `The view opens on ${counted(graph.shown, "card", "cards")} around them${graph.capped ? `; ${graph.left_out} more are a click away` : ""}.`);
  const reads = {
    "think.frontier.graph": suggest(
      "think.frontier.graph",
      { ...aimed(scope, "graph_doc"), budget_profile: budgetProfile },
      GRAPH_READS["think.frontier.graph"],
    ),
    "graph.conflict.show": suggest("graph.conflict.show", { budget_profile: budgetProfile }, GRAPH_READS["graph.conflict.show"]),
    "graph.node.show": suggest(
      "graph.node.show",
      { ...aimed(scope, "doc"), budget_profile: budgetProfile },
      GRAPH_READS["graph.node.show"],
    ),
  } satisfies Record<keyof typeof GRAPH_READS, Suggestion>;
  const mayWrite = ROLE_RANK[ctx.principal.role] >= ROLE_RANK.write;
  const writes = mayWrite
    ? {
        // Its arguments name where the app's go (a flat tool's top level, an envelope's args), as
        // budget_profile does for the reads: the resolution the app chooses replaces this one.
        "graph.conflict.resolve": suggest(
          "graph.conflict.resolve",
          { resolution: "use_into" },
          "Decide a conflict: add conflict_id; resolution use_into keeps ours, use_from takes theirs.",
        ),
      }
    : undefined;
  const place: GraphPlace = { branch: scope.branch.name, graph_doc: scope.graphDoc, ...(scope.target ? { target: scope.target } : {}) };
  return { graph: place, summary, reads, ...(writes ? { writes } : {}) };
}
