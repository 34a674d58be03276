/**
 * Record-Sync (seed 004) for a workspace's project: the overview (project tick, counts), the record
 * tree with each record's state (`records.list`, tree order, paged), the open sessions with their
 * agent, staleness and tick gap (`records.sessions`), and the activity log, newest first
 * (`records.activity`, older on demand).
 */
import { read } from "../api";
import { badge, el, table } from "../dom";
import { time } from "../format";
import type { ActivityEntry as Activity, RecordRef, OpenSession as Session } from "../record-shapes";
import { onClick } from "./actions";
import type { ViewContext } from "./context";

/** Records per page: the largest page of records.list. */
const RECORD_PAGE = 200;
const ACTIVITY_PAGE = 50;

function recordItem(record: RecordRef): HTMLElement {
  return el(
    "li",
    { testid: "record-node", data: { id: record.id, state: record.state } },
    el("span", { class: "seq" }, record.id),
    " ",
    badge(record.state, `state-${record.state.toLowerCase()}`),
    " ",
    badge(record.type),
    " ",
    el("strong", {}, record.title),
    record.summary ? el("span", { class: "muted" }, ` — ${record.summary}`) : null,
    record.children_count > 0
      ? el("span", { class: "muted" }, ` · ${record.open_children_count}/${record.children_count} children open`)
      : null,
  );
}

export async function renderRecords(context: ViewContext): Promise<void> {
  const { workspace, signal } = context;
  const overview = el("p", { class: "muted", testid: "records-overview" });
  const tree = el("ul", { class: "tree", testid: "record-tree" });
  const moreRecords = el("button", { attrs: { type: "button", hidden: "" } }, "More records");
  const sessions = el("div", { testid: "sessions" });
  const activity = el("tbody");
  const moreActivity = el("button", { attrs: { type: "button", hidden: "" } }, "Older activity");
  const status = el("p", { class: "muted" });
  context.root.append(
    el(
      "section",
      { testid: "records-view" },
      el("h2", {}, "Record-Sync"),
      overview,
      el(
        "div",
        { class: "split" },
        el("div", {}, el("h3", {}, "Records"), tree, moreRecords),
        el(
          "div",
          {},
          el("h3", {}, "Open sessions"),
          sessions,
          el("h3", {}, "Activity"),
          el(
            "table",
            { testid: "activity" },
            el("thead", {}, el("tr", {}, ...["Tick", "When", "Event", "Agent", "Session", "Summary"].map((h) => el("th", {}, h)))),
            activity,
          ),
          moreActivity,
        ),
      ),
      status,
    ),
  );

  // Records arrive in tree order (a parent before its children): each goes under its parent's list.
  const lists = new Map<string, HTMLElement>();
  let recordsCursor: string | undefined;
  let shownRecords = 0;
  const loadRecords = async () => {
    const page = await read<{ records: RecordRef[]; pagination: { has_more: boolean; next_cursor?: string } }>(
      "records.list",
      workspace,
      { limit: RECORD_PAGE, ...(recordsCursor ? { cursor: recordsCursor } : {}) },
      signal,
    );
    for (const record of page.records) {
      const item = recordItem(record);
      const parent = record.parent_id === null ? undefined : lists.get(record.parent_id);
      if (parent) parent.append(item);
      else tree.append(item);
      if (record.children_count > 0) {
        const children = el("ul");
        item.append(children);
        lists.set(record.id, children);
      }
    }
    shownRecords += page.records.length;
    recordsCursor = page.pagination.next_cursor;
    moreRecords.toggleAttribute("hidden", !page.pagination.has_more);
    if (shownRecords === 0) tree.replaceChildren(el("li", { class: "muted" }, "No records in this project."));
  };

  let activityCursor: number | undefined;
  const loadActivity = async () => {
    const page = await read<{ activity: Activity[]; has_more: boolean; next_cursor?: number }>(
      "records.activity",
      workspace,
      { limit: ACTIVITY_PAGE, ...(activityCursor ? { cursor: activityCursor } : {}) },
      signal,
    );
    activity.append(
      ...page.activity.map((entry) =>
        el(
          "tr",
          { testid: "activity-row" },
          el("td", {}, String(entry.at_tick)),
          el("td", {}, time(entry.timestamp)),
          el("td", {}, entry.type),
          el("td", {}, entry.agent_id ?? ""),
          el("td", {}, entry.session_id ?? ""),
          el("td", {}, entry.summary),
        ),
      ),
    );
    activityCursor = page.next_cursor;
    moreActivity.toggleAttribute("hidden", !page.has_more);
  };

  const [project, open] = await Promise.all([
    read<{
      project: { id: string; name: string; tick: number };
      open_records_total: number;
      later_records_total: number;
      open_sessions_total: number;
    }>("records.project.overview", workspace, {}, signal),
    read<{ sessions: Session[]; has_more: boolean }>("records.sessions", workspace, {}, signal),
    loadRecords(),
    loadActivity(),
  ]);
  overview.textContent = `Project ${project.project.name} · project tick ${project.project.tick} · ${project.open_records_total} open, ${project.later_records_total} later · ${project.open_sessions_total} open sessions`;
  sessions.replaceChildren(
    open.sessions.length === 0
      ? el("p", { class: "muted" }, "No open sessions.")
      : table(
          ["Session", "Agent", "Status", "Last activity", "Last sync tick", "Tick gap", "Active records"],
          open.sessions.map((session) => [
            session.session_id,
            session.agent_id,
            badge(session.status, session.status === "stale" ? "rejected" : ""),
            time(session.last_activity),
            String(session.last_sync_tick),
            String(session.tick_gap),
            String(session.active_records_count),
          ]),
          { testid: "sessions-table" },
          () => ({ testid: "session-row" }),
        ),
  );
  onClick(moreRecords, status, loadRecords);
  onClick(moreActivity, status, loadActivity);
}
