/**
 * The drawn graph: a cytoscape instance with the fcose layout. Nodes arrive page by page and are
 * placed on a spiral at once, so the canvas fills while loading; the force layout runs once at the
 * end — full quality for small graphs; above LARGE_GRAPH nodes fcose's "draft" (spectral, no force
 * iterations) for the connected part and a grid for nodes without edges, no animation, haystack edges
 * and labels only near the selection, so thousands of nodes stay usable. A graph of at most
 * LABELLED_GRAPH nodes (the focused view) shows every label and has its labels pushed apart after the
 * layout (separate.ts), so no two overlap. Nodes added later (a card's neighbours) start next to the
 * card they came from and the layout continues from where the others are.
 */
import cytoscape, { type Core, type ElementDefinition, type NodeSingular } from "cytoscape";
import fcose from "cytoscape-fcose";
import type { GraphEdge, GraphNode } from "./load";
import { separateLabels } from "./separate";
import { colourOf, edgeColourOf, FOCUSED_GRAPH_STYLE, GRAPH_STYLE, SMALL_GRAPH_STYLE, statusGroup } from "./style";

cytoscape.use(fcose);

/** Above this many nodes: draft layout quality, haystack edges, textures while panning. */
export const LARGE_GRAPH = 1_000;
/**
 * At most this many nodes: every label drawn and kept apart. The focused view opens on at most 200
 * (think.frontier.graph's limit) and grows by a neighbourhood per click; pushing 600 boxes apart
 * still takes a fraction of a second.
 */
export const LABELLED_GRAPH = 600;
/** Spacing of the loading spiral, in pixels. */
const SPIRAL_STEP = 14;
/** Grid spacing of a large graph's nodes without edges, in pixels. */
const GRID_CELL = 30;
/** Closest zoom a fit may choose: nodes at about twice their size. */
const MAX_FIT_ZOOM = 1.6;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));
const PINNED_TAG = "pinned";
const SHARED_LANE = "shared";

export interface Filter {
  types: Set<string>;
  status: string;
  tag: string;
}

export function edgeId(edge: { from: string; rel: string; to: string }): string {
  return `${edge.from}|${edge.rel}|${edge.to}`;
}

/** A node's extra classes (the focused graph's marks) and where new nodes start. */
export interface AddOptions {
  classesOf?: (node: GraphNode) => string[];
  /** Start the new nodes around this drawn node instead of on the loading spiral. */
  near?: string;
}

function nodeElement(node: GraphNode, index: number, extra: string[], origin: { x: number; y: number }): ElementDefinition {
  const lane = typeof node.meta?.lane === "string" ? node.meta.lane : SHARED_LANE;
  const classes = [`status-${statusGroup(node.status)}`, ...extra];
  if (node.tags.includes(PINNED_TAG)) classes.push("pinned");
  if (lane !== SHARED_LANE) classes.push("draft");
  const radius = SPIRAL_STEP * Math.sqrt(index);
  return {
    group: "nodes",
    data: {
      id: node.id,
      label: node.title ?? node.id,
      type: node.type,
      status: node.status ?? "open",
      tags: node.tags,
      lane,
      colour: colourOf(node.type),
    },
    classes: classes.join(" "),
    position: { x: origin.x + radius * Math.cos(index * GOLDEN_ANGLE), y: origin.y + radius * Math.sin(index * GOLDEN_ANGLE) },
  };
}

export class GraphCanvas {
  readonly cy: Core;
  /** Ids drawn so far: cheaper than asking cytoscape, which builds a collection per lookup. */
  private readonly nodeIds = new Set<string>();
  private readonly edgeIds = new Set<string>();

  constructor(container: HTMLElement) {
    this.cy = cytoscape({
      container,
      style: GRAPH_STYLE,
      minZoom: 0.02,
      maxZoom: 4,
      textureOnViewport: true,
      hideEdgesOnViewport: true,
      motionBlur: false,
      pixelRatio: 1,
      boxSelectionEnabled: false,
    });
  }

  /** Adds the nodes not drawn yet; returns how many were added. */
  addNodes(nodes: GraphNode[], options: AddOptions = {}): number {
    const anchor = options.near === undefined ? this.cy.collection() : this.cy.getElementById(options.near);
    const origin = anchor.nonempty() ? anchor.position() : { x: 0, y: 0 };
    // Around an anchor the spiral starts one step out, so no new node sits on the anchor itself.
    const start = anchor.nonempty() ? 1 : this.nodeIds.size;
    const fresh = nodes.filter((node) => !this.nodeIds.has(node.id));
    for (const node of fresh) this.nodeIds.add(node.id);
    this.cy.add(fresh.map((node, offset) => nodeElement(node, start + offset, options.classesOf?.(node) ?? [], origin)));
    return fresh.length;
  }

  has(id: string): boolean {
    return this.nodeIds.has(id);
  }

  /** Adds the edges whose two ends are drawn; returns how many were added. */
  addEdges(edges: GraphEdge[]): number {
    const drawable = edges.filter((edge) => this.nodeIds.has(edge.from) && this.nodeIds.has(edge.to) && !this.edgeIds.has(edgeId(edge)));
    for (const edge of drawable) this.edgeIds.add(edgeId(edge));
    this.cy.add(
      drawable.map((edge) => ({
        group: "edges" as const,
        data: { id: edgeId(edge), source: edge.from, target: edge.to, rel: edge.rel, colour: edgeColourOf(edge.rel) },
      })),
    );
    return drawable.length;
  }

  /** Fits the graph in view, never closer than MAX_FIT_ZOOM (a handful of nodes would fill the canvas). */
  fit(): void {
    this.cy.fit(undefined, 20);
    if (this.cy.zoom() > MAX_FIT_ZOOM) {
      this.cy.zoom(MAX_FIT_ZOOM);
      this.cy.center();
    }
  }

  /**
   * Runs the layout once; resolves when it has stopped. Large graphs lay out their connected part with
   * fcose and put the nodes without edges in a grid below it: fcose spends most of its time on
   * thousands of one-node components.
   */
  async layout(options: { incremental?: boolean } = {}): Promise<void> {
    const count = this.cy.nodes().length;
    if (count === 0) return;
    const large = count > LARGE_GRAPH;
    const labelled = count <= LABELLED_GRAPH;
    if (labelled) this.cy.style([...GRAPH_STYLE, ...SMALL_GRAPH_STYLE, ...FOCUSED_GRAPH_STYLE]);
    else if (!large) this.cy.style([...GRAPH_STYLE, ...SMALL_GRAPH_STYLE]);
    // Continuing from drawn positions needs fcose's "proof" quality (its other qualities start over).
    const incremental = options.incremental === true && !large;
    const isolated = large ? this.cy.nodes().filter((node) => node.degree(false) === 0) : this.cy.collection();
    const connected = this.cy.elements().not(isolated);
    if (connected.nonempty()) {
      await this.run(
        connected.layout({
          name: "fcose",
          quality: large ? "draft" : incremental ? "proof" : "default",
          randomize: !incremental,
          animate: false,
          fit: false,
          nodeDimensionsIncludeLabels: labelled,
          idealEdgeLength: () => 60,
          nodeRepulsion: () => 4500,
          numIter: 2500,
          tile: true,
          tilingPaddingVertical: 24,
          tilingPaddingHorizontal: 48,
        } as cytoscape.LayoutOptions),
      );
    }
    if (isolated.nonempty()) {
      const box = connected.nonempty() ? connected.boundingBox() : { x1: 0, y2: 0, w: 0 };
      const side = Math.ceil(Math.sqrt(isolated.length)) * GRID_CELL;
      await this.run(
        isolated.layout({
          name: "grid",
          fit: false,
          animate: false,
          avoidOverlap: false,
          boundingBox: { x1: box.x1, y1: box.y2 + GRID_CELL * 2, w: Math.max(box.w, side), h: side },
        }),
      );
    }
    if (labelled) this.separateLabels();
    this.fit();
  }

  /** Pushes the nodes apart until no two labelled boxes meet, on the canvas's proportions. */
  private separateLabels(): void {
    const container = this.cy.container();
    const aspect = container && container.clientHeight > 0 ? container.clientWidth / container.clientHeight : 1;
    separateLabels(this.cy, this.cy.nodes(), aspect);
  }

  private run(layout: cytoscape.Layouts): Promise<void> {
    return new Promise((done) => {
      layout.one("layoutstop", () => done());
      layout.run();
    });
  }

  /** Hides the nodes the filter excludes (their edges go with them); returns how many stay visible. */
  applyFilter(filter: Filter): number {
    let visible = 0;
    this.cy.batch(() => {
      this.cy.nodes().forEach((node: NodeSingular) => {
        const tags = node.data("tags") as string[];
        const shown =
          filter.types.has(node.data("type") as string) &&
          (filter.status === "" || node.data("status") === filter.status) &&
          (filter.tag === "" || tags.includes(filter.tag));
        // Only nodes whose visibility changes are touched: a class change restyles the node.
        if (node.hasClass("hidden") === shown) node.toggleClass("hidden", !shown);
        if (shown) visible++;
      });
    });
    return visible;
  }

  /** Marks the overlay classes (diff, conflicts) on the given node ids and edge ids; clears the old ones. */
  mark(className: string, ids: Iterable<string>): number {
    let marked = 0;
    this.cy.batch(() => {
      this.cy.elements(`.${className}`).removeClass(className);
      for (const id of ids) {
        const element = this.cy.getElementById(id);
        if (element.nonempty()) {
          element.addClass(className);
          marked++;
        }
      }
    });
    return marked;
  }

  onSelect(handler: (id: string) => void): void {
    this.cy.on("tap", "node", (event) => handler((event.target as NodeSingular).id()));
  }

  /** Selects a node and labels it and its neighbours (large graphs draw no other labels). */
  focus(id: string): void {
    const node = this.cy.getElementById(id);
    if (node.empty()) return;
    this.cy.batch(() => {
      this.cy.elements(":selected").unselect();
      this.cy.nodes(".labelled").removeClass("labelled");
      node.closedNeighborhood("node").addClass("labelled");
      node.select();
    });
  }

  destroy(): void {
    this.cy.destroy();
  }
}
