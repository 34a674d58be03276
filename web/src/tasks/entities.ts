/**
 * One plan or task as a list item (`task-item`): its id and title, opening it through the surface's
 * navigation, its status, and for a task whether it waits or someone has taken it. Shared by the
 * board's lists and a plan's list of its tasks.
 */
import { badge, el } from "../dom";
import type { BoardNavigation, Entity } from "./types";

export function statusBadge(status: string): HTMLSpanElement {
  return badge(status, `status-${status.toLowerCase()}`);
}

export function entityItem(navigation: BoardNavigation, entity: Entity, selected: string | undefined): HTMLLIElement {
  return el(
    "li",
    { class: entity.id === selected ? "selected" : "", testid: "task-item", data: { id: entity.id } },
    navigation.openLink(entity.id, `${entity.id} ${entity.title}`),
    " ",
    statusBadge(entity.status),
    entity.blocked_by && entity.blocked_by.length > 0
      ? el("span", { class: "muted", testid: "item-waits" }, ` waits for ${entity.blocked_by.join(", ")}`)
      : null,
    entity.taken_by ? el("span", { class: "muted", testid: "item-taken" }, ` taken by ${entity.taken_by}`) : null,
  );
}

/** Marks the items of `id` as the chosen one, and no other. */
export function markSelected(root: HTMLElement, id: string): void {
  for (const item of root.querySelectorAll<HTMLElement>("[data-testid=task-item]"))
    item.classList.toggle("selected", item.dataset.id === id);
}
