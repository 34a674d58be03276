/**
 * The MCP App's Record-Sync session view (`visualize {what: "session"}`): whose session it is and how
 * far behind the project it is, in words; the records active in it; what other sessions changed since
 * its last sync (session-changes.ts); the project's open sessions; and the project's record tree with
 * the session's records marked (session-tree.ts). It reads only, through the host
 * (`hostReader` over the answer's reads): syncing is sync_session, a write the agent makes, so the view
 * says when one is due and offers no call.
 */
import { append, el } from "../dom";
import type { OpenSession } from "../record-shapes";
import type { SessionAnswer, SessionFacts } from "./answer";
import { errorView, headerView } from "./chrome";
import { type CallTool, hostReader } from "./host-reader";
import { changesSection } from "./session-changes";
import { recordTree } from "./session-tree";
import { gapInWords, plural, recordLine, type SessionReader, type TitleBook } from "./session-words";

/** Where the view opened, in words: the session and its staleness, or that there is none. */
function scopeInWords(answer: SessionAnswer): string {
  const session = answer.session;
  if (session === null) return `${answer.agent_id} has no open session in this project: the record tree below is the project's.`;
  const where = `Session ${session.session_id} of ${session.agent_id}: ${session.status}, last synced at tick ${session.last_sync_tick}, the project is at tick ${session.project_tick} (${gapInWords(session.tick_gap)}).`;
  return session.status === "stale"
    ? `${where} It is stale: the agent should sync the session before relying on what it has loaded.`
    : where;
}

/** The records active in the session, as the answer lists them, with how many more there are. */
function activeSection(session: SessionFacts): HTMLElement {
  const listed = session.active_records;
  const more = session.active_records_total - listed.length;
  return el(
    "section",
    { class: "session-section", testid: "session-active" },
    el("h3", {}, `Active in session ${session.session_id}: ${plural(session.active_records_total, "record")}`),
    listed.length === 0
      ? el("p", { class: "muted" }, "No records are active in this session.")
      : el(
          "ul",
          { class: "session-active" },
          ...listed.map((record) =>
            el("li", { testid: "session-active-record", data: { id: record.id, state: record.state } }, ...recordLine(record)),
          ),
        ),
    more > 0 ? el("p", { class: "muted" }, `and ${more} more, marked active in the tree below.`) : null,
  );
}

function openSessionLine(open: OpenSession, shown: string | undefined): HTMLElement {
  const status = open.status === "stale" ? `stale, ${gapInWords(open.tick_gap)}` : `${open.status}, ${gapInWords(open.tick_gap)}`;
  return el(
    "li",
    { class: open.session_id === shown ? "is-shown" : "", testid: "session-open", data: { id: open.session_id, status: open.status } },
    el("span", { class: "seq" }, open.session_id),
    ` of ${open.agent_id}: ${status}, last synced at tick ${open.last_sync_tick}, ${plural(open.active_records_count, "active record")}`,
    open.session_id === shown ? el("span", { class: "muted" }, " (the session shown)") : null,
  );
}

/** The project's open sessions (records.sessions), so a person sees who else works on the records. */
function openSessionsSection(read: SessionReader, shown: string | undefined): { section: HTMLElement; ready: Promise<void> } {
  const body = el("div", {}, el("p", { class: "muted" }, "Loading the open sessions…"));
  const section = el("section", { class: "session-section", testid: "session-list" }, el("h3", {}, "Open sessions in this project"), body);
  const ready = read<{ sessions?: OpenSession[]; has_more?: boolean }>("records.sessions", {}).then(
    (answer) => {
      const sessions = answer.sessions ?? [];
      body.replaceChildren();
      append(
        body,
        sessions.length === 0
          ? el("p", { class: "muted" }, "No session is open in this project.")
          : el("ul", { class: "session-open" }, ...sessions.map((open) => openSessionLine(open, shown))),
        answer.has_more ? el("p", { class: "muted" }, `The first ${sessions.length} are listed; more are open.`) : null,
      );
    },
    (error: unknown) => {
      body.replaceChildren(errorView(error));
    },
  );
  return { section, ready };
}

/** Draws the session view into `root`; settles once every section's first read is drawn. */
export async function drawSessionView(root: HTMLElement, answer: SessionAnswer, callTool: CallTool): Promise<void> {
  const read: SessionReader = hostReader(callTool, answer.reads);
  const session = answer.session;
  const titles: TitleBook = new Map((session?.active_records ?? []).map((record) => [record.id, record.title]));
  const activeIds = new Set(session?.active_record_ids ?? (session?.active_records ?? []).map((record) => record.id));

  const tree = recordTree(read, activeIds, titles);
  const changes = changesSection(read, session, answer.agent_id, titles, tree.ready);
  const sessions = openSessionsSection(read, session?.session_id);
  root.replaceChildren(
    headerView(answer, scopeInWords(answer)),
    el(
      "div",
      { class: "session-view", testid: "session-view" },
      session === null ? null : activeSection(session),
      changes.section,
      sessions.section,
      tree.section,
    ),
  );
  await Promise.all([tree.ready, changes.ready, sessions.ready]);
}
