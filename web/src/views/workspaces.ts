/**
 * The workspace list, from the Directory (`workspace.list`): each workspace the token grants with its
 * event tick, seq, branch count and Record-Sync counts. The Directory hears from workspaces a few
 * seconds after they are written, so the list offers a refresh and says how fresh each row is.
 */
import { read, type Session } from "../api";
import { el } from "../dom";
import { time } from "../format";
import { href } from "../router";
import { onClick, redraw } from "./actions";

interface WorkspaceItem {
  name: string;
  tick: number;
  seq: number;
  branches: number;
  project_tick: number;
  open_records: number;
  open_sessions: number;
  as_of_tick: number;
  updated: string;
}

interface WorkspacePage {
  workspaces: WorkspaceItem[];
  pagination: { has_more: boolean; next_cursor?: string };
}

/** Workspaces per page: the Directory's own default page. */
const PAGE = 100;

export async function renderWorkspaces(context: { root: HTMLElement; signal: AbortSignal; session: Session }): Promise<void> {
  const body = el("tbody");
  const more = el("button", { testid: "workspaces-more", attrs: { type: "button", hidden: "" } }, "More workspaces");
  const status = el("p", { class: "muted", testid: "workspaces-status" });
  const section = el(
    "section",
    { testid: "workspaces-view" },
    el(
      "div",
      { class: "toolbar" },
      el("h2", {}, "Workspaces"),
      el("button", { testid: "workspaces-refresh", attrs: { type: "button" }, on: { click: redraw } }, "Refresh"),
    ),
    el(
      "p",
      { class: "muted" },
      `Workspaces your token grants (${context.session.workspaces.join(", ")}), from the Directory: numbers lag writes by a few seconds.`,
    ),
    el(
      "table",
      { testid: "workspaces-table" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...["Workspace", "Event tick", "Seq", "Branches", "Record tick", "Open records", "Open sessions", "Updated"].map((h) =>
            el("th", {}, h),
          ),
        ),
      ),
      body,
    ),
    more,
    status,
  );
  context.root.append(section);

  let cursor: string | undefined;
  let shown = 0;
  const load = async () => {
    more.setAttribute("hidden", "");
    const page = await read<WorkspacePage>("workspace.list", undefined, { limit: PAGE, ...(cursor ? { cursor } : {}) }, context.signal);
    for (const item of page.workspaces) {
      body.append(
        el(
          "tr",
          { testid: "workspace-row", data: { name: item.name } },
          el("td", {}, el("a", { href: href("branches", item.name), testid: "workspace-link" }, item.name)),
          el("td", { testid: "workspace-tick" }, String(item.tick)),
          el("td", {}, String(item.seq)),
          el("td", { testid: "workspace-branches" }, String(item.branches)),
          el("td", {}, String(item.project_tick)),
          el("td", { testid: "workspace-open-records" }, String(item.open_records)),
          el("td", {}, String(item.open_sessions)),
          el("td", { title: `as of event tick ${item.as_of_tick}` }, time(item.updated)),
        ),
      );
    }
    shown += page.workspaces.length;
    status.textContent = shown === 0 ? "No workspace yet: write to one through MCP and refresh in a few seconds." : `${shown} shown.`;
    cursor = page.pagination.next_cursor;
    if (page.pagination.has_more && cursor) more.removeAttribute("hidden");
  };
  onClick(more, status, load);
  await load();
}
