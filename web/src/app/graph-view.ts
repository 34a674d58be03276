/**
 * The app's graph view (`visualize {what: "graph"}`): the focused reasoning graph the viewer opens on,
 * drawn by the same code (web/src/graph/), read through the host's tool calls built from the answer's
 * reads, which carry the scope (branch and graph doc, or a plan's or task's reasoning). A person sees
 * the canvas (labelled, labels apart, marks and their legend), the open questions and untested
 * hypotheses in words beside it, a card's fields in words on click with its neighbours a click away,
 * and the open conflicts side by side. Deciding a conflict ("Keep ours" / "Take theirs") is the one
 * write, offered only when the answer carries it (a role that may write); after it the view reads the
 * graph again and says in words what was decided.
 */
import { el } from "../dom";
import { plural } from "../format";
import { GraphCanvas } from "../graph/canvas";
import { renderCard } from "../graph/card";
import { type DecisionTarget, decisionInWords, type Resolution, renderConflicts } from "../graph/conflicts";
import { cappedInWords, FocusGraph, focusInWords, marksInWords, neighboursButton } from "../graph/focus";
import type { FrontierGraph } from "../graph/reader";
import { LEGEND_WORDS } from "../graph/style";
import { conflictDecision, type GraphAnswer, type ReadSuggestion } from "./answer";
import { errorView, headerView, showFailureInPlace } from "./chrome";
import { type CallTool, HostReadError, hostReader, resultPayload, type ToolResult } from "./host-reader";
import { toolCallFor } from "./tool-call";

const RESOLVE = "graph.conflict.resolve";

function scopeInWords(answer: GraphAnswer): string {
  const { branch, graph_doc, target } = answer.graph;
  const of = target ? `, the reasoning of ${target}` : "";
  return `Graph ${graph_doc} on ${branch}${of}: what matters first; the rest is a click away.`;
}

/** What a person with a read grant reads instead of the decision buttons. */
function noDecisionWords(answer: GraphAnswer): string {
  return `Your role (${answer.role}) does not decide conflicts here: an agent that may write decides them with graph.conflict.resolve.`;
}

/** Runs the decision through the host; answers it in words (the server's own resolution when it was decided before). */
async function resolve(callTool: CallTool, decision: ReadSuggestion, conflict: DecisionTarget, resolution: Resolution): Promise<string> {
  let result: ToolResult;
  try {
    result = await callTool(toolCallFor(decision, { conflict_id: conflict.conflict_id, resolution }));
  } catch (error) {
    throw new HostReadError(`The host could not run ${RESOLVE}: ${error instanceof Error ? error.message : String(error)}`, "HOST_ERROR");
  }
  const payload = resultPayload(result, RESOLVE) as { resolution?: string; applied?: boolean };
  const decided: Resolution = payload.resolution === "use_from" || payload.resolution === "use_into" ? payload.resolution : resolution;
  const words = decisionInWords(conflict, decided);
  return decided === resolution ? words : `${words} (It had been decided so before; nothing changed.)`;
}

function statsInWords(stats: HTMLElement, canvas: GraphCanvas): void {
  const nodes = canvas.cy.nodes().length;
  const edges = canvas.cy.edges().length;
  stats.textContent = `${plural(nodes, "card")} and ${plural(edges, "link")} drawn. Click a card to see it.`;
  stats.dataset.nodes = String(nodes);
  stats.dataset.edges = String(edges);
}

export async function drawGraphView(root: HTMLElement, answer: GraphAnswer, callTool: CallTool): Promise<void> {
  const read = hostReader(callTool, answer.reads);
  const decision = conflictDecision(answer);
  /** What was decided in this view, kept across the redraws that follow each decision. */
  const decided: string[] = [];
  let canvas: GraphCanvas | undefined;

  const draw = async (): Promise<void> => {
    canvas?.destroy();
    const focusNote = el("div", { class: "graph-focus-note" }, el("p", { class: "muted" }, "Reading the graph…"));
    const stats = el("p", { class: "muted", testid: "graph-stats" });
    const container = el("div", { class: "canvas app-graph-canvas", testid: "graph-canvas" });
    const marksPanel = el("div");
    const cardPanel = el(
      "div",
      { testid: "card-panel" },
      el("p", { class: "muted" }, "Click a card on the canvas, or one named above, to see it."),
    );
    const conflictPanel = el("div");
    const view = el(
      "section",
      { class: "app-graph", testid: "graph-view", data: { state: "loading" } },
      focusNote,
      stats,
      el("p", { class: "legend muted", testid: "graph-legend" }, LEGEND_WORDS),
      container,
      marksPanel,
      cardPanel,
      conflictPanel,
    );
    // The summary is the answer's, from when the view opened: after a decision, say so.
    const since = decided.length > 0 ? " The summary above is from when the view opened, before your decision." : "";
    root.replaceChildren(headerView(answer, `${scopeInWords(answer)}${since}`), view);

    const drawn = new GraphCanvas(container);
    canvas = drawn;
    const focus = new FocusGraph({ canvas: drawn, read, scope: {} });
    const showMarks = () => marksPanel.replaceChildren(marksInWords(focus.nodes.values(), (id) => openNode(id)));
    const expand = async (id: string): Promise<number> => {
      view.dataset.state = "loading";
      try {
        const { added } = await focus.expand(id);
        showMarks();
        statsInWords(stats, drawn);
        drawn.focus(id);
        return added;
      } finally {
        view.dataset.state = "ready";
      }
    };
    const openNode = (id: string) => {
      drawn.focus(id);
      void showFailureInPlace(cardPanel, () =>
        renderCard(cardPanel, id, {
          read,
          guard: showFailureInPlace,
          branch: answer.graph.branch,
          doc: answer.graph.graph_doc,
          scope: {},
          open: openNode,
          actions: (nodeId) => [neighboursButton(nodeId, expand, showFailureInPlace)],
        }),
      );
    };
    drawn.onSelect(openNode);

    let opening: FrontierGraph;
    try {
      opening = await focus.open();
    } catch (error) {
      view.replaceChildren(errorView(error));
      view.dataset.state = "error";
      return;
    }
    if (canvas !== drawn) return;
    focusNote.replaceChildren(el("p", { testid: "graph-focus" }, focusInWords(opening)), cappedInWords(opening) ?? "");
    statsInWords(stats, drawn);
    showMarks();
    renderConflicts(conflictPanel, opening.conflicts, {
      read,
      guard: showFailureInPlace,
      decided,
      ...(decision
        ? {
            decide: async (conflict: DecisionTarget, resolution: Resolution) => {
              decided.push(await resolve(callTool, decision, conflict, resolution));
              await draw();
            },
          }
        : {}),
    });
    if (!decision && opening.conflicts.length > 0)
      conflictPanel.append(el("p", { class: "muted", testid: "conflict-no-decision" }, noDecisionWords(answer)));
    view.dataset.state = "ready";
  };
  await draw();
}
