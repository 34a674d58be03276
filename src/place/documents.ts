/**
 * The documents every branch has by convention: `notes` (what agents write), `graph` (cards and the
 * typed graph) and `trace` (the step log). Reasoning refs, default targets and every reader that falls
 * back to a branch's own notes or graph name them from here.
 */
export const DEFAULT_DOCS = {
  notes: "notes",
  graph: "graph",
  trace: "trace",
} as const;
