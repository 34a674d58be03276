/**
 * How the graph looks: a colour per node type (the card types, the task projection's `task`/`step`,
 * and a stable colour for any other type), a border per status group, a gold ring for pinned cards,
 * a dashed outline for drafts in an agent's lane, coloured `supports`/`blocks` edges, the overlay
 * classes of the branch diff and of open conflicts, and the focused graph's marks (a diamond for an
 * open question, a hexagon for an untested hypothesis, a smaller node for a neighbour of the focus).
 * The legend (LEGEND_WORDS) says the same in words.
 */
import type { StylesheetJson } from "cytoscape";

export const TYPE_COLOURS: Record<string, string> = {
  frame: "#8e7cc3",
  hypothesis: "#3d85c6",
  question: "#e69138",
  test: "#6aa84f",
  evidence: "#38a3a5",
  decision: "#cc0000",
  note: "#999999",
  update: "#bf9000",
  task: "#674ea7",
  step: "#a64d79",
};

const FALLBACK_COLOURS = ["#5b8c85", "#9c6644", "#7d5ba6", "#4f772d", "#b5838d", "#3a6ea5", "#c08552", "#6c757d"];

export function colourOf(type: string): string {
  const known = TYPE_COLOURS[type];
  if (known) return known;
  let hash = 0;
  for (const char of type) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return FALLBACK_COLOURS[hash % FALLBACK_COLOURS.length] as string;
}

/** Status words that close a card well, and those that close it badly; anything else is open. */
const SETTLED = new Set(["done", "accepted", "confirmed", "resolved", "supported", "passed", "verified", "closed"]);
const REJECTED = new Set(["rejected", "refuted", "failed", "canceled", "cancelled", "discarded", "blocked", "abandoned"]);

export type StatusGroup = "open" | "settled" | "rejected";

export function statusGroup(status: string | undefined): StatusGroup {
  const word = (status ?? "open").toLowerCase();
  if (SETTLED.has(word)) return "settled";
  if (REJECTED.has(word)) return "rejected";
  return "open";
}

export const EDGE_COLOURS: Record<string, string> = { supports: "#2e7d32", blocks: "#c62828" };
const OTHER_EDGE = "#9e9e9e";

export function edgeColourOf(rel: string): string {
  return EDGE_COLOURS[rel] ?? OTHER_EDGE;
}

export const GRAPH_STYLE: StylesheetJson = [
  {
    selector: "node",
    style: {
      "background-color": "data(colour)",
      label: "",
      "font-size": 10,
      "min-zoomed-font-size": 7,
      "text-valign": "bottom",
      "text-margin-y": 3,
      "text-max-width": "140px",
      "text-wrap": "ellipsis",
      width: 22,
      height: 22,
      "border-width": 1,
      "border-color": "#333",
    },
  },
  { selector: "node.status-settled", style: { "border-width": 4, "border-style": "double", "border-color": "#1b5e20" } },
  { selector: "node.status-rejected", style: { "border-style": "dashed", opacity: 0.55 } },
  { selector: "node.pinned", style: { "border-width": 4, "border-color": "#f1c232", "border-style": "solid" } },
  { selector: "node.draft", style: { "background-opacity": 0.45, "border-style": "dotted", "border-width": 2 } },
  { selector: "node.open-question", style: { shape: "diamond", width: 30, height: 30 } },
  { selector: "node.untested", style: { shape: "hexagon", width: 28, height: 28 } },
  { selector: "node.neighbour", style: { width: 16, height: 16 } },
  { selector: "node.conflicted", style: { "underlay-color": "#d50000", "underlay-opacity": 0.35, "underlay-padding": 7 } },
  { selector: "node.diff-added", style: { "outline-width": 4, "outline-color": "#00c853", "outline-offset": 2, "outline-opacity": 0.9 } },
  {
    selector: "node.diff-modified",
    style: { "outline-width": 4, "outline-color": "#ff9100", "outline-offset": 2, "outline-opacity": 0.9 },
  },
  { selector: "node:selected", style: { "border-width": 4, "border-color": "#000" } },
  { selector: ".hidden", style: { display: "none" } },
  { selector: "node.labelled, node:selected", style: { label: "data(label)", "z-index": 10 } },
  {
    selector: "edge",
    style: {
      width: 1.5,
      "line-color": "data(colour)",
      "target-arrow-color": "data(colour)",
      "target-arrow-shape": "triangle",
      "curve-style": "haystack",
      "arrow-scale": 0.8,
      label: "",
      "font-size": 8,
      "min-zoomed-font-size": 10,
      color: "#555",
    },
  },
  { selector: "edge.diff-added", style: { width: 3, "line-style": "solid", "line-color": "#00c853" } },
  { selector: "edge.diff-modified", style: { width: 3, "line-color": "#ff9100" } },
];

/**
 * Small graphs: labels on every node and edge, straight edges with arrows. Large graphs keep the base
 * style — haystack edges, and labels only on the selected node and its neighbours (`labelled`) —
 * because measuring and drawing thousands of labels costs more than everything else together.
 */
export const SMALL_GRAPH_STYLE: StylesheetJson = [
  { selector: "node", style: { label: "data(label)" } },
  { selector: "edge", style: { "curve-style": "straight", label: "data(rel)" } },
];

/**
 * A focused graph (at most LABELLED_GRAPH nodes, its labels kept apart): every label is drawn at any
 * zoom, since the view fits all of them and a person zooms in to read.
 */
export const FOCUSED_GRAPH_STYLE: StylesheetJson = [{ selector: "node", style: { "min-zoomed-font-size": 0 } }];

/** What the drawing means, in words (the viewer's legend and the app's). */
export const LEGEND_WORDS =
  "Diamond: open question · hexagon: untested hypothesis · small: a neighbour of the focus · gold ring: pinned · dotted and pale: a draft in an agent's lane · double border: settled · dashed and faded: rejected · red halo: open conflict · green/orange glow: added/changed vs the compared branch · edges: green supports, red blocks.";
