/**
 * The viewer's graph filters: by type (check boxes with counts and the type's colour), by status and
 * by tag, and the legend in words. Filtering hides nodes and their edges and reloads nothing. The
 * choices are counted from what the canvas holds, and drawn again when it grows (a card's neighbours
 * added in the focused view): a type seen for the first time starts shown, every choice made stays.
 */
import { el, select } from "../dom";
import type { Filter, GraphCanvas } from "./canvas";
import { colourOf, LEGEND_WORDS } from "./style";

/** Tags offered in the tag filter: the most frequent ones. */
const MAX_TAG_OPTIONS = 60;

function counted(values: Iterable<string>): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export interface FilterPanel {
  /** Draws the choices again from the canvas's nodes, keeping the choices made; applies the filter. */
  rebuild(): void;
}

/** Fills `container` with the filters; `changed` hears how many nodes stay visible after each change. */
export function filterPanel(container: HTMLElement, canvas: GraphCanvas, changed: (visible: number) => void): FilterPanel {
  const filter: Filter = { types: new Set(), status: "", tag: "" };
  const seenTypes = new Set<string>();
  const apply = () => changed(canvas.applyFilter(filter));

  const rebuild = () => {
    const nodes = canvas.cy.nodes();
    const types = counted(nodes.map((node) => node.data("type") as string));
    const statuses = counted(nodes.map((node) => node.data("status") as string));
    const tags = counted(nodes.toArray().flatMap((node) => node.data("tags") as string[])).slice(0, MAX_TAG_OPTIONS);
    for (const [type] of types) {
      if (!seenTypes.has(type)) filter.types.add(type);
      seenTypes.add(type);
    }
    if (filter.status !== "" && !statuses.some(([value]) => value === filter.status)) filter.status = "";
    if (filter.tag !== "" && !tags.some(([value]) => value === filter.tag)) filter.tag = "";
    container.replaceChildren(
      el(
        "fieldset",
        { class: "types" },
        el("legend", {}, "Types"),
        ...types.map(([type, count]) => {
          const box = el("input", {
            testid: `filter-type-${type}`,
            attrs: { type: "checkbox" },
            on: {
              change: () => {
                if (box.checked) filter.types.add(type);
                else filter.types.delete(type);
                apply();
              },
            },
          });
          box.checked = filter.types.has(type);
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
        filter.status,
        (value) => {
          filter.status = value;
          apply();
        },
        "filter-status",
      ),
      select(
        "Tag",
        [{ value: "", label: "any" }, ...tags.map(([value, count]) => ({ value, label: `${value} (${count})` }))],
        filter.tag,
        (value) => {
          filter.tag = value;
          apply();
        },
        "filter-tag",
      ),
      el("p", { class: "legend muted" }, LEGEND_WORDS),
    );
    apply();
  };
  return { rebuild };
}
