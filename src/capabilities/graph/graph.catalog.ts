/** The graph capability's commands, in catalog order. */

import { graphApply, graphDiff, graphQuery, graphValidate } from "./graph.commands";
import { GRAPH_BROWSE_COMMANDS } from "./graph-browse.commands";
import { graphConflictResolve, graphConflictShow, graphConflicts, graphMerge } from "./graph-merge.commands";

export const GRAPH_COMMANDS = [
  graphApply,
  graphQuery,
  graphValidate,
  graphDiff,
  ...GRAPH_BROWSE_COMMANDS,
  graphMerge,
  graphConflicts,
  graphConflictShow,
  graphConflictResolve,
];
