/**
 * The task board: the workspace's plans and tasks (`tasks.context`, paged), and the chosen one's
 * detail. The viewer and the MCP App both draw it; each brings its reader (how a read reaches the
 * server), its navigation (how a person opens another plan or task) and its click guard (where a
 * failed click load shows). The board itself never fetches.
 */
import "./board.css";
import { el } from "../dom";
import { renderDetail } from "./detail";
import { entityItem, markSelected } from "./entities";
import type { BoardNavigation, ClickGuard, ContextPage, Entity, Reader } from "./types";

/** Plans and tasks per list page: the largest page of tasks.context. */
const LIST_PAGE = 200;

export interface BoardOptions {
  read: Reader;
  navigation: BoardNavigation;
  guard: ClickGuard;
  /** The plan or task shown first; without it the board asks a person to pick one. */
  selected?: string | undefined;
  /** Folds the lists under a closed disclosure, for a compact page that opens on its target. */
  foldLists?: boolean;
  /** Draws a failed first detail in the detail's place, the lists kept; without it the failure is thrown. */
  detailFailure?: (error: unknown) => HTMLElement;
}

export interface Board {
  /** Shows plan or task `id` in place of the current detail (the app's way; the viewer changes its address). */
  show(id: string): Promise<void>;
}

function listsColumn(parts: HTMLElement[], fold: boolean): HTMLElement {
  if (!fold) return el("div", { class: "list-column" }, ...parts);
  return el("details", { class: "list-column" }, el("summary", {}, "All plans and tasks"), ...parts);
}

/**
 * Draws the board into `root` and loads the first page of lists, then the selected detail. A
 * failure of these first reads is thrown, for the surface to show as it shows any failed view
 * (a failed detail only when the surface has no `detailFailure` drawing).
 */
export async function renderBoard(root: HTMLElement, options: BoardOptions): Promise<Board> {
  const { read, navigation, guard } = options;
  let selected = options.selected;
  const plansList = el("ul", { class: "entity-list", testid: "plans" });
  const tasksList = el("ul", { class: "entity-list", testid: "tasks" });
  const morePlans = el("button", { attrs: { type: "button", hidden: "" } }, "More plans");
  const moreTasks = el("button", { attrs: { type: "button", hidden: "" } }, "More tasks");
  const status = el("p", { class: "muted", testid: "board-status" });
  const detailBody = el("div", {}, el("p", { class: "muted" }, "Pick a plan or a task."));
  // A failed click load shows here, above the detail, even when the lists are folded away.
  const detailStatus = el("p", { class: "detail-status", testid: "detail-status" });
  const detail = el("div", { class: "detail" }, detailStatus, detailBody);
  const lists = listsColumn(
    [el("h3", {}, "Plans"), plansList, morePlans, el("h3", {}, "Tasks"), tasksList, moreTasks, status],
    options.foldLists === true,
  );
  const section = el("section", { testid: "tasks-view" }, el("h2", {}, "Plans and tasks"), el("div", { class: "split" }, lists, detail));
  root.append(section);

  const entities: Entity[] = [];
  let plansCursor: string | undefined;
  let tasksCursor: string | undefined;
  const loadLists = async (which: "both" | "plans" | "tasks") => {
    const page = await read<ContextPage>("tasks.context", {
      plans_limit: which === "tasks" ? 0 : LIST_PAGE,
      tasks_limit: which === "plans" ? 0 : LIST_PAGE,
      ...(plansCursor ? { plans_cursor: plansCursor } : {}),
      ...(tasksCursor ? { tasks_cursor: tasksCursor } : {}),
    });
    entities.push(...page.plans, ...page.tasks);
    plansList.append(...page.plans.map((entity) => entityItem(navigation, entity, selected)));
    tasksList.append(...page.tasks.map((entity) => entityItem(navigation, entity, selected)));
    if (which !== "tasks") {
      plansCursor = page.plans_pagination.next_cursor;
      morePlans.toggleAttribute("hidden", !page.plans_pagination.has_more);
    }
    if (which !== "plans") {
      tasksCursor = page.tasks_pagination.next_cursor;
      moreTasks.toggleAttribute("hidden", !page.tasks_pagination.has_more);
    }
    status.textContent = `${page.counts.plans} plans, ${page.counts.tasks} tasks in this workspace.`;
  };
  morePlans.addEventListener("click", () => void guard(status, () => loadLists("plans")));
  moreTasks.addEventListener("click", () => void guard(status, () => loadLists("tasks")));

  // Only the latest chosen target is drawn: a slower, earlier load never replaces a newer one.
  let latest = 0;
  const drawDetail = async (id: string) => {
    const mine = ++latest;
    const drawn = await renderDetail({ read, navigation, entities }, id);
    if (mine === latest) detailBody.replaceChildren(drawn);
  };

  await loadLists("both");
  if (entities.length === 0) {
    detailBody.replaceChildren(el("p", { class: "muted", testid: "tasks-empty" }, "No plans or tasks in this workspace."));
  } else if (selected) {
    try {
      await drawDetail(selected);
    } catch (error) {
      if (!options.detailFailure) throw error;
      detailBody.replaceChildren(options.detailFailure(error));
    }
  }
  return {
    show: (id) =>
      guard(detailStatus, async () => {
        selected = id;
        markSelected(section, id);
        await drawDetail(id);
      }),
  };
}
