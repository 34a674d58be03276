/** The graph capability's commands, in catalog order. */

import { graphApply, graphDiff, graphQuery, graphValidate } from "./graph.commands";
import { graphConflictResolve, graphConflictShow, graphConflicts, graphMerge } from "./graph-merge.commands";

export const GRAPH_COMMANDS = [
  graphApply,
  graphQuery,
  graphValidate,
  graphDiff,
  graphMerge,
  graphConflicts,
  graphConflictShow,
  graphConflictResolve,
];
