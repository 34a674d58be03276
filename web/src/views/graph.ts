/**
 * The graph view: a branch's graph drawn with cytoscape + fcose (graph/). It opens on the focused
 * graph (`think.frontier.graph`: the open conflicts, questions, hypotheses, tests and decisions with
 * their neighbours, at most 200 cards, labelled and marked, the marks listed in words beside it), so a
 * 5,000-card graph opens on what matters rather than as a grid of dots; a card's neighbours are a
 * click away, and "Show the whole graph (paged)" (`all=1` in the address) loads every node and edge
 * page by page. Both have the filters by type, status and tag, the legend, the node card on click,
 * the branch's open merge conflicts side by side, and the overlay of what this branch changed
 * relative to another one. Everything is read through the viewer's API, read-only.
 */
import { read } from "../api";
import { el, select } from "../dom";
import { plural } from "../format";
import { GraphCanvas, LARGE_GRAPH } from "../graph/canvas";
import { renderCard } from "../graph/card";
import { loadOpenConflicts, renderConflicts } from "../graph/conflicts";
import { loadDiff } from "../graph/diff";
import { filterPanel } from "../graph/filters";
import { cappedInWords, FocusGraph, focusInWords, marksInWords, neighboursButton } from "../graph/focus";
import type { GraphReader } from "../graph/reader";
import { drawWholeGraph } from "../graph/whole";
import { href } from "../router";
import { guarded } from "./actions";
import { loadBranches } from "./branches";
import type { ViewContext } from "./context";

/** A task's or plan's reasoning branch keeps its graph in `<ID>-graph`; every other branch in `graph`. */
const REASONING_BRANCH = /^(?:task|plan)\/((?:TASK|PLAN)-[0-9]+)$/;
/** Deleted nodes named in the diff summary; the rest are counted. */
const DELETED_NAMED = 50;

export function defaultGraphDoc(branch: string): string {
  const match = REASONING_BRANCH.exec(branch);
  return match ? `${match[1]}-graph` : "graph";
}

function viewerReader(context: ViewContext): GraphReader {
  return (command, args) => read(command, context.workspace, args, context.signal);
}

/** The branch, doc and compare pickers, and the switch between the focused and the whole graph. */
function controlsOf(
  branches: { name: string }[],
  place: { branch: string; doc: string; compare: string; whole: boolean },
  go: (next: Record<string, string>) => void,
): HTMLElement[] {
  const { branch, doc, compare, whole } = place;
  return [
    select(
      "Branch",
      branches.map((item) => ({ value: item.name })),
      branch,
      (value) => go({ branch: value, doc: defaultGraphDoc(value) }),
      "graph-branch",
    ),
    el(
      "label",
      { class: "field" },
      "Graph doc ",
      el("input", {
        testid: "graph-doc",
        attrs: { value: doc, size: "18" },
        on: { change: (event) => go({ doc: (event.target as HTMLInputElement).value.trim() || "graph" }) },
      }),
    ),
    select(
      "Compare with",
      [{ value: "", label: "(no overlay)" }, ...branches.filter((item) => item.name !== branch).map((item) => ({ value: item.name }))],
      compare,
      (value) => go({ compare: value }),
      "graph-compare",
    ),
    whole
      ? el(
          "button",
          { testid: "graph-show-focus", attrs: { type: "button" }, on: { click: () => go({ all: "" }) } },
          "Show what matters (focused)",
        )
      : el(
          "button",
          { testid: "graph-show-all", attrs: { type: "button" }, on: { click: () => go({ all: "1" }) } },
          "Show the whole graph (paged)",
        ),
  ];
}

async function showDiff(
  panel: HTMLElement,
  canvas: GraphCanvas,
  reader: GraphReader,
  place: { branch: string; doc: string; compare: string },
): Promise<() => number> {
  const { branch, doc, compare } = place;
  const overlay = await loadDiff(reader, { from: compare, to: branch, doc });
  const markAll = () =>
    canvas.mark("diff-added", [...overlay.added, ...overlay.edgesAdded]) +
    canvas.mark("diff-modified", [...overlay.modified, ...overlay.edgesModified]);
  const marked = markAll();
  panel.replaceChildren(
    el(
      "section",
      {
        testid: "diff-summary",
        data: { added: String(overlay.added.length), modified: String(overlay.modified.length), deleted: String(overlay.deleted.length) },
      },
      el("h3", {}, `Changes on ${branch} vs ${compare}`),
      el(
        "p",
        {},
        `Nodes: ${overlay.added.length} added, ${overlay.modified.length} changed, ${overlay.deleted.length} deleted. Edges: ${overlay.edgesAdded.length} added, ${overlay.edgesModified.length} changed, ${overlay.edgesDeleted} deleted. ${marked} marked on the graph.${overlay.capped ? " (first 2000 changes only)" : ""}`,
      ),
      overlay.deleted.length > 0
        ? el(
            "p",
            { class: "muted" },
            `Deleted here: ${overlay.deleted.slice(0, DELETED_NAMED).join(", ")}${overlay.deleted.length > DELETED_NAMED ? "…" : ""}`,
          )
        : null,
    ),
  );
  return markAll;
}

export async function renderGraph(context: ViewContext): Promise<void> {
  const { workspace, params, signal } = context;
  const branch = params.get("branch") ?? "main";
  const doc = params.get("doc") ?? defaultGraphDoc(branch);
  const compare = params.get("compare") ?? "";
  const whole = params.get("all") === "1";
  const go = (next: Record<string, string>) => {
    location.hash = href("graph", workspace, { branch, doc, compare, all: whole ? "1" : "", ...next });
  };
  const reader = viewerReader(context);

  const controls = el("div", { class: "toolbar" });
  const stats = el("p", { class: "muted", testid: "graph-stats", data: { mode: whole ? "all" : "focus" } }, "Loading…");
  const focusNote = el("div", { class: "graph-focus-note" });
  const filters = el("div", { class: "filters", testid: "graph-filters" });
  const container = el("div", { class: "canvas", testid: "graph-canvas" });
  const diffPanel = el("div", { testid: "diff-panel" });
  const marksPanel = el("div");
  const cardPanel = el(
    "div",
    { testid: "card-panel" },
    el("p", { class: "muted" }, "Click a node to see its card, versions and linked evidence."),
  );
  const conflictPanel = el("div");
  const view = el(
    "section",
    { testid: "graph-view", data: { state: "loading", mode: whole ? "all" : "focus" } },
    el("h2", {}, `Graph: ${doc} on ${branch}${whole ? " (whole graph)" : " (focused)"}`),
    controls,
    stats,
    focusNote,
    filters,
    el("div", { class: "graph-layout" }, container, el("aside", { class: "side-panel" }, diffPanel, marksPanel, cardPanel)),
    conflictPanel,
  );
  context.root.append(view);

  const canvas = new GraphCanvas(container);
  signal.addEventListener("abort", () => canvas.destroy());
  const focus = whole ? undefined : new FocusGraph({ canvas, read: reader, scope: { branch, graph_doc: doc } });

  let describe = (_visible: number) => {};
  const panel = filterPanel(filters, canvas, (visible) => describe(visible));
  const showMarks = () => {
    if (focus) marksPanel.replaceChildren(marksInWords(focus.nodes.values(), (id) => openNode(id)));
  };
  /** The diff overlay's marks, laid again on nodes added later; set once the overlay is read. */
  let markDiff: () => unknown = () => 0;
  let opened = false;
  const expand = async (id: string): Promise<number> => {
    if (!focus) return 0;
    view.dataset.state = "loading";
    try {
      const { added } = await focus.expand(id);
      panel.rebuild();
      showMarks();
      markDiff();
      canvas.focus(id);
      return added;
    } finally {
      if (opened) view.dataset.state = "ready";
    }
  };
  const openNode = (id: string) => {
    canvas.focus(id);
    void guarded(cardPanel, () =>
      renderCard(cardPanel, id, {
        read: reader,
        guard: guarded,
        branch,
        doc,
        scope: { branch, doc },
        open: openNode,
        ...(focus ? { actions: (nodeId: string) => [neighboursButton(nodeId, expand, guarded)] } : {}),
      }),
    );
  };
  canvas.onSelect(openNode);

  const [{ branches }, conflicts, opening, loaded] = await Promise.all([
    loadBranches(workspace, signal),
    loadOpenConflicts(reader, { branch, doc }),
    focus ? focus.open() : undefined,
    focus ? undefined : drawWholeGraph(canvas, reader, { branch, doc, signal }, stats),
  ]);
  if (signal.aborted) return;
  controls.append(...controlsOf(branches, { branch, doc, compare, whole }, go));
  if (opening) focusNote.replaceChildren(el("p", { testid: "graph-focus" }, focusInWords(opening)), cappedInWords(opening) ?? "");

  describe = (visible: number) => {
    const drawn = canvas.cy.nodes().length;
    const drawnEdges = canvas.cy.edges().length;
    const large = drawn > LARGE_GRAPH ? " · large graph: draft layout" : "";
    const cut = loaded?.capped ? ` · only the newest ${loaded.nodes} nodes were loaded` : "";
    const mode = whole ? "" : " · focused: open a card to show its neighbours, or show the whole graph";
    stats.textContent = `${plural(drawn, "node")} · ${plural(drawnEdges, "edge")} · ${visible} shown${large}${cut}${mode}`;
    stats.dataset.nodes = String(drawn);
    stats.dataset.edges = String(drawnEdges);
    stats.dataset.visible = String(visible);
  };
  panel.rebuild();
  showMarks();

  const conflictedNodes = new Set(conflicts.filter((conflict) => conflict.kind === "node").map((conflict) => conflict.key));
  for (const node of focus?.nodes.values() ?? []) if (node.conflicted) conflictedNodes.add(node.id);
  canvas.mark("conflicted", conflictedNodes);
  renderConflicts(conflictPanel, conflicts, { read: reader, guard: guarded });

  if (compare !== "") markDiff = await showDiff(diffPanel, canvas, reader, { branch, doc, compare });

  const selected = params.get("node");
  if (selected) {
    // A card outside the focus is drawn with its neighbours first, so the address opens it on the canvas.
    if (focus && !canvas.has(selected)) await guarded(cardPanel, async () => void (await expand(selected)));
    openNode(selected);
  }
  opened = true;
  view.dataset.state = "ready";
}
