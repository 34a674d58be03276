/**
 * The graph view: a branch's effective graph drawn with cytoscape + fcose (graph/), loaded page by
 * page, with filters by type, status and tag, a legend, a node card on click, the open merge conflicts
 * of the branch side by side, and an overlay of what this branch changed relative to another one.
 */
import { el, select } from "../dom";
import { plural } from "../format";
import { GraphCanvas, LARGE_GRAPH } from "../graph/canvas";
import { renderCard } from "../graph/card";
import { loadOpenConflicts, renderConflicts } from "../graph/conflicts";
import { loadDiff } from "../graph/diff";
import { type GraphEdge, type GraphNode, loadGraph } from "../graph/load";
import { colourOf } from "../graph/style";
import { href } from "../router";
import { guarded } from "./actions";
import { loadBranches } from "./branches";
import type { ViewContext } from "./context";

/** Least time between two redraws while pages arrive. */
const DRAW_INTERVAL_MS = 1_500;
/** Tags offered in the tag filter: the most frequent ones. */
const MAX_TAG_OPTIONS = 60;
/** A task's or plan's reasoning branch keeps its graph in `<ID>-graph`; every other branch in `graph`. */
const REASONING_BRANCH = /^(?:task|plan)\/((?:TASK|PLAN)-[0-9]+)$/;

export function defaultGraphDoc(branch: string): string {
  const match = REASONING_BRANCH.exec(branch);
  return match ? `${match[1]}-graph` : "graph";
}

function counted(values: Iterable<string>): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export async function renderGraph(context: ViewContext): Promise<void> {
  const { workspace, params, signal } = context;
  const branch = params.get("branch") ?? "main";
  const doc = params.get("doc") ?? defaultGraphDoc(branch);
  const compare = params.get("compare") ?? "";
  const go = (next: Record<string, string>) => {
    location.hash = href("graph", workspace, { branch, doc, compare, ...next });
  };

  const controls = el("div", { class: "toolbar" });
  const stats = el("p", { class: "muted", testid: "graph-stats" }, "Loading…");
  const filters = el("div", { class: "filters", testid: "graph-filters" });
  const container = el("div", { class: "canvas", testid: "graph-canvas" });
  const diffPanel = el("div", { testid: "diff-panel" });
  const cardPanel = el(
    "div",
    { testid: "card-panel" },
    el("p", { class: "muted" }, "Click a node to see its card, versions and linked evidence."),
  );
  const conflictPanel = el("div");
  const view = el(
    "section",
    { testid: "graph-view", data: { state: "loading" } },
    el("h2", {}, `Graph: ${doc} on ${branch}`),
    controls,
    stats,
    filters,
    el("div", { class: "graph-layout" }, container, el("aside", { class: "side-panel" }, diffPanel, cardPanel)),
    conflictPanel,
  );
  context.root.append(view);

  const canvas = new GraphCanvas(container);
  signal.addEventListener("abort", () => canvas.destroy());
  const target = { workspace, branch, doc, signal };
  const openNode = (id: string) => {
    canvas.focus(id);
    void guarded(cardPanel, () => renderCard(cardPanel, id, { ...target, open: openNode }));
  };
  canvas.onSelect(openNode);

  const nodes: GraphNode[] = [];
  const started = performance.now();
  // Pages are drawn in batches, at most one redraw per DRAW_INTERVAL_MS: redrawing thousands of nodes
  // after every page would cost more than loading them.
  let pendingNodes: GraphNode[] = [];
  let pendingEdges: GraphEdge[] = [];
  let lastDraw = 0;
  const draw = (force: boolean) => {
    if (!force && performance.now() - lastDraw < DRAW_INTERVAL_MS) return;
    canvas.cy.batch(() => {
      canvas.addNodes(pendingNodes);
      canvas.addEdges(pendingEdges);
    });
    pendingNodes = [];
    pendingEdges = [];
    canvas.fit();
    lastDraw = performance.now();
  };
  const [{ branches }, conflicts, loaded] = await Promise.all([
    loadBranches(workspace, signal),
    loadOpenConflicts(target),
    loadGraph(target, {
      nodes(page, total) {
        nodes.push(...page);
        pendingNodes.push(...page);
        draw(lastDraw === 0);
        stats.textContent = `Loading… ${plural(total, "node")}`;
      },
      edges(page, total) {
        pendingEdges.push(...page);
        draw(false);
        stats.textContent = `Loading… ${plural(nodes.length, "node")}, ${plural(total, "edge")}`;
      },
    }),
  ]);
  draw(true);

  controls.append(
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
  );

  const drawn = canvas.cy.nodes().length;
  const drawnEdges = canvas.cy.edges().length;
  stats.textContent = `Laying out ${plural(drawn, "node")}…`;
  // Let the browser paint the status before the (synchronous) layout runs.
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  if (signal.aborted) return;
  const loadedAt = performance.now();
  await canvas.layout();
  // How long loading and layout took, for whoever measures the viewer (the end-to-end tests report it).
  stats.dataset.loadMs = String(Math.round(loadedAt - started));
  stats.dataset.layoutMs = String(Math.round(performance.now() - loadedAt));

  const types = counted(nodes.map((node) => node.type));
  const statuses = counted(nodes.map((node) => node.status ?? "open"));
  const tags = counted(nodes.flatMap((node) => node.tags)).slice(0, MAX_TAG_OPTIONS);
  const filter = { types: new Set(types.map(([type]) => type)), status: "", tag: "" };
  const describe = (visible: number) => {
    const large = drawn > LARGE_GRAPH ? " · large graph: draft layout" : "";
    const cut = loaded.capped ? ` · only the newest ${loaded.nodes} nodes were loaded` : "";
    stats.textContent = `${plural(drawn, "node")} · ${plural(drawnEdges, "edge")} · ${visible} shown${large}${cut}`;
    stats.dataset.nodes = String(drawn);
    stats.dataset.edges = String(drawnEdges);
    stats.dataset.visible = String(visible);
  };
  const refilter = () => describe(canvas.applyFilter(filter));
  filters.append(
    el(
      "fieldset",
      { class: "types" },
      el("legend", {}, "Types"),
      ...types.map(([type, count]) => {
        const box = el("input", {
          testid: `filter-type-${type}`,
          attrs: { type: "checkbox", checked: "" },
          on: {
            change: () => {
              if (box.checked) filter.types.add(type);
              else filter.types.delete(type);
              refilter();
            },
          },
        });
        return el(
          "label",
          { class: "type-filter" },
          box,
          el("span", { class: "swatch", attrs: { style: `background:${colourOf(type)}` } }),
          ` ${type} (${count})`,
        );
      }),
    ),
    select(
      "Status",
      [{ value: "", label: "any" }, ...statuses.map(([value, count]) => ({ value, label: `${value} (${count})` }))],
      "",
      (value) => {
        filter.status = value;
        refilter();
      },
      "filter-status",
    ),
    select(
      "Tag",
      [{ value: "", label: "any" }, ...tags.map(([value, count]) => ({ value, label: `${value} (${count})` }))],
      "",
      (value) => {
        filter.tag = value;
        refilter();
      },
      "filter-tag",
    ),
    el(
      "p",
      { class: "legend muted" },
      "Gold ring: pinned · dotted and pale: a draft in an agent's lane · double border: settled · dashed and faded: rejected · red halo: open conflict · green/orange glow: added/changed vs the compared branch · edges: green supports, red blocks.",
    ),
  );
  refilter();

  canvas.mark(
    "conflicted",
    conflicts.filter((conflict) => conflict.kind === "node").map((conflict) => conflict.key),
  );
  renderConflicts(conflictPanel, conflicts, target);

  if (compare !== "") {
    const overlay = await loadDiff({ workspace, from: compare, to: branch, doc, signal });
    const marked =
      canvas.mark("diff-added", [...overlay.added, ...overlay.edgesAdded]) +
      canvas.mark("diff-modified", [...overlay.modified, ...overlay.edgesModified]);
    diffPanel.replaceChildren(
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
          ? el("p", { class: "muted" }, `Deleted here: ${overlay.deleted.slice(0, 50).join(", ")}${overlay.deleted.length > 50 ? "…" : ""}`)
          : null,
      ),
    );
  }

  const selected = params.get("node");
  if (selected) openNode(selected);
  view.dataset.state = "ready";
}
