/**
 * Keeps the labels of a labelled graph apart. A force layout places nodes, not their labels: three
 * cards with long titles end up with their titles drawn over each other. After the layout, this pass
 * takes each node's box with its label (as cytoscape measures it), spreads a layout packed too tight
 * for its boxes out from its centre (keeping its shape), and pushes overlapping boxes apart, pair by
 * pair along the axis where they overlap least, until no two boxes meet. It is deterministic
 * (same positions in, same positions out) and bounded: when MAX_PASSES passes leave an overlap, the
 * nodes go to a grid whose cells are larger than the largest box, where no two boxes can meet.
 */
import type { Core, NodeCollection, NodeSingular } from "cytoscape";

export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface Placed {
  x: number;
  y: number;
  /** The node's box with its label, relative to its position: it moves with the node. */
  box: Box;
}

/** Space kept between two boxes, in model pixels: boxes that merely touch still read as one. */
export const LABEL_GAP = 6;
/** Added to every push, so two boxes moved exactly the gap apart do not meet again by rounding. */
const PUSH_SLACK = 0.5;
/** Passes over all pairs before falling back to the grid: 200 nodes settle in far fewer. */
const MAX_PASSES = 80;
/**
 * Room the nodes need, as a multiple of their boxes' total area: a layout packed tighter than this is
 * first spread out from its centre (its shape kept), so the push passes have room to settle in.
 */
const ROOM_PER_BOX_AREA = 4;
/** The most a layout is spread out; past that the grid does better. */
const MAX_SPREAD = 100;

function overlaps(a: Box, b: Box, gap: number): boolean {
  return a.x1 < b.x2 + gap && b.x1 < a.x2 + gap && a.y1 < b.y2 + gap && b.y1 < a.y2 + gap;
}

function absolute(item: { x: number; y: number; box: Box }): Box {
  return { x1: item.x + item.box.x1, y1: item.y + item.box.y1, x2: item.x + item.box.x2, y2: item.y + item.box.y2 };
}

/** True when no two boxes at these positions come closer than `gap`. */
export function apart(items: Placed[], gap = LABEL_GAP): boolean {
  const boxes = items.map(absolute);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      if (overlaps(boxes[i] as Box, boxes[j] as Box, gap)) return false;
    }
  }
  return true;
}

/**
 * One pass: every overlapping pair moves apart by half the overlap each (plus the gap), along the axis
 * where they overlap less; the one whose box centre is further right (or down) moves that way, ties by
 * order. Answers whether anything moved.
 */
function pushPass(items: Placed[], gap: number): boolean {
  let moved = false;
  for (let i = 0; i < items.length; i++) {
    const a = items[i] as Placed;
    for (let j = i + 1; j < items.length; j++) {
      const b = items[j] as Placed;
      const ax1 = a.x + a.box.x1;
      const ax2 = a.x + a.box.x2;
      const ay1 = a.y + a.box.y1;
      const ay2 = a.y + a.box.y2;
      const bx1 = b.x + b.box.x1;
      const bx2 = b.x + b.box.x2;
      const by1 = b.y + b.box.y1;
      const by2 = b.y + b.box.y2;
      if (!(ax1 < bx2 + gap && bx1 < ax2 + gap && ay1 < by2 + gap && by1 < ay2 + gap)) continue;
      const overlapX = Math.min(ax2, bx2) - Math.max(ax1, bx1) + gap + PUSH_SLACK;
      const overlapY = Math.min(ay2, by2) - Math.max(ay1, by1) + gap + PUSH_SLACK;
      if (overlapX <= overlapY) {
        const half = ((bx1 + bx2 >= ax1 + ax2 ? 1 : -1) * overlapX) / 2;
        a.x -= half;
        b.x += half;
      } else {
        const half = ((by1 + by2 >= ay1 + ay2 ? 1 : -1) * overlapY) / 2;
        a.y -= half;
        b.y += half;
      }
      moved = true;
    }
  }
  return moved;
}

/**
 * The fallback that always holds: a grid of cells larger than the largest box by the gap, about as
 * wide as `aspect` (width over height) asks, the nodes placed in their reading order (top to bottom,
 * left to right), each box inside its own cell.
 */
export function gridPositions(items: Placed[], aspect: number, gap = LABEL_GAP): { x: number; y: number }[] {
  const cellW = Math.max(...items.map((item) => item.box.x2 - item.box.x1)) + gap * 2;
  const cellH = Math.max(...items.map((item) => item.box.y2 - item.box.y1)) + gap * 2;
  const columns = Math.max(1, Math.ceil(Math.sqrt((items.length * cellH * Math.max(aspect, 0.1)) / cellW)));
  const order = items
    .map((_, index) => index)
    .sort((a, b) => {
      const p = items[a] as Placed;
      const q = items[b] as Placed;
      return p.y - q.y || p.x - q.x || a - b;
    });
  const out: { x: number; y: number }[] = items.map((item) => ({ x: item.x, y: item.y }));
  order.forEach((index, slot) => {
    const item = items[index] as Placed;
    const left = (slot % columns) * cellW + gap;
    const top = Math.floor(slot / columns) * cellH + gap;
    out[index] = { x: left - item.box.x1, y: top - item.box.y1 };
  });
  return out;
}

/** The positions spread out from their centre until the layout has room for its boxes. */
function spread(items: Placed[], gap: number): Placed[] {
  const xs = items.map((item) => item.x);
  const ys = items.map((item) => item.y);
  const width = Math.max(...xs) - Math.min(...xs);
  const height = Math.max(...ys) - Math.min(...ys);
  const boxArea = items.reduce((sum, item) => sum + (item.box.x2 - item.box.x1 + gap) * (item.box.y2 - item.box.y1 + gap), 0);
  const area = Math.max(width, 1) * Math.max(height, 1);
  const factor = Math.min(MAX_SPREAD, Math.sqrt((boxArea * ROOM_PER_BOX_AREA) / area));
  if (!(factor > 1)) return items.map((item) => ({ ...item }));
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
  const cy = (Math.max(...ys) + Math.min(...ys)) / 2;
  return items.map((item) => ({ x: cx + (item.x - cx) * factor, y: cy + (item.y - cy) * factor, box: item.box }));
}

/** New positions at which no two boxes meet: the push passes (on a layout given room first), else the grid. */
export function separatedPositions(items: Placed[], aspect: number, gap = LABEL_GAP): { x: number; y: number }[] {
  if (items.length < 2 || apart(items, gap)) return items.map(({ x, y }) => ({ x, y }));
  const work = spread(items, gap);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    if (!pushPass(work, gap)) return work.map(({ x, y }) => ({ x, y }));
  }
  return apart(work, gap) ? work.map(({ x, y }) => ({ x, y })) : gridPositions(items, aspect, gap);
}

/** A node's box with its label, as cytoscape measures it, relative to the node's position. */
function measured(node: NodeSingular): Placed {
  const position = node.position();
  const box = node.boundingBox({ includeNodes: true, includeLabels: true, includeEdges: false, includeOverlays: false });
  return {
    x: position.x,
    y: position.y,
    box: { x1: box.x1 - position.x, y1: box.y1 - position.y, x2: box.x2 - position.x, y2: box.y2 - position.y },
  };
}

/**
 * Moves the given nodes so that no two of their labelled boxes meet (see above). Labels must already
 * be styled on: the boxes are measured with them.
 */
export function separateLabels(cy: Core, nodes: NodeCollection, aspect: number): void {
  if (nodes.length < 2) return;
  const items = nodes.map((node) => measured(node));
  const positions = separatedPositions(items, aspect);
  cy.batch(() => {
    nodes.forEach((node, index) => {
      const next = positions[index];
      if (next) node.position(next);
    });
  });
}
