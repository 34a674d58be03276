/**
 * The viewer's whole graph, paged ("Show the whole graph"): every node and edge of the branch's graph
 * doc (load.ts), drawn in batches while the pages arrive — at most one redraw per DRAW_INTERVAL_MS, as
 * redrawing thousands of nodes after every page would cost more than loading them — then laid out
 * once. The stats line says how far it got, and keeps how long loading and layout took for whoever
 * measures the viewer (the end-to-end tests report it).
 */
import { plural } from "../format";
import type { GraphCanvas } from "./canvas";
import { type GraphEdge, type GraphNode, type LoadResult, loadGraph } from "./load";
import type { GraphReader } from "./reader";

/** Least time between two redraws while pages arrive. */
const DRAW_INTERVAL_MS = 1_500;

export async function drawWholeGraph(
  canvas: GraphCanvas,
  read: GraphReader,
  target: { branch: string; doc: string; signal: AbortSignal },
  stats: HTMLElement,
): Promise<LoadResult | undefined> {
  const started = performance.now();
  let nodes = 0;
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
  const loaded = await loadGraph(read, target, {
    nodes(page, total) {
      nodes = total;
      pendingNodes.push(...page);
      draw(lastDraw === 0);
      stats.textContent = `Loading… ${plural(total, "node")}`;
    },
    edges(page, total) {
      pendingEdges.push(...page);
      draw(false);
      stats.textContent = `Loading… ${plural(nodes, "node")}, ${plural(total, "edge")}`;
    },
  });
  draw(true);
  stats.textContent = `Laying out ${plural(canvas.cy.nodes().length, "node")}…`;
  // Let the browser paint the status before the (synchronous) layout runs.
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  if (target.signal.aborted) return undefined;
  const loadedAt = performance.now();
  await canvas.layout();
  stats.dataset.loadMs = String(Math.round(loadedAt - started));
  stats.dataset.layoutMs = String(Math.round(performance.now() - loadedAt));
  return loaded;
}
