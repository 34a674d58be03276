/**
 * How the graph code reaches the server, and the focused graph's shape. The viewer and the MCP App
 * draw the same graph, so the graph code never calls `/api` or the host itself: each surface hands it
 * a reader (one read command with its own arguments, answered with the command's payload). The viewer
 * reads through `POST /api/call` with its workspace; the app through the host's tool calls built from
 * the `visualize` answer's reads, which already carry the scope.
 */

/** Runs one read command with its own arguments and answers its payload, or throws. */
export type GraphReader<C extends string = string> = <T>(command: C, args: Record<string, unknown>) => Promise<T>;

/** Runs a load a click started; a failure shows in `status`, next to the control, and the view stays. */
export type GraphGuard = (status: HTMLElement, load: () => Promise<void>) => Promise<void>;

/** One card of `think.frontier.graph` with its marks. */
export interface FrontierNode {
  id: string;
  type: string;
  title?: string;
  status?: string;
  tags: string[];
  lane: string;
  /** Not a closed status. */
  open: boolean;
  /** An open hypothesis with no live edge to or from a test card. */
  untested: boolean;
  /** Named by an open conflict into this branch and doc. */
  conflicted: boolean;
  /** On the frontier, in a conflict or asked for with `around`; false: a neighbour of one. */
  seed: boolean;
}

export interface FrontierConflict {
  conflict_id: string;
  kind: string;
  key: string;
  /** The merged branch's name. */
  from: string;
}

/** What `think.frontier.graph` answers. */
export interface FrontierGraph {
  branch: string;
  graph_doc: string;
  nodes: FrontierNode[];
  edges: { from: string; rel: string; to: string }[];
  conflicts: FrontierConflict[];
  frontier: { questions: number; hypotheses: number; untested_hypotheses: number; tests: number; decisions: number };
  frontier_capped: boolean;
  shown: number;
  left_out: number;
  capped: boolean;
  truncated: boolean;
}

export const FRONTIER_READ = "think.frontier.graph";
export const NODE_READ = "graph.node.show";
export const CONFLICT_READ = "graph.conflict.show";

/** A frontier answer with every list present, whatever a trimmed or older answer left out. */
export function frontierOf(answer: Partial<FrontierGraph>): FrontierGraph {
  return {
    branch: answer.branch ?? "",
    graph_doc: answer.graph_doc ?? "",
    nodes: answer.nodes ?? [],
    edges: answer.edges ?? [],
    conflicts: answer.conflicts ?? [],
    frontier: answer.frontier ?? { questions: 0, hypotheses: 0, untested_hypotheses: 0, tests: 0, decisions: 0 },
    frontier_capped: answer.frontier_capped ?? false,
    shown: answer.shown ?? answer.nodes?.length ?? 0,
    left_out: answer.left_out ?? 0,
    capped: answer.capped ?? false,
    truncated: answer.truncated ?? false,
  };
}
