/**
 * The session view's "Changed since your last sync": what other sessions wrote to records after the
 * shown session's last_sync_tick, read from the activity log (records.activity, which the answer
 * prefills with that since_tick and a limit), newest first, older on "Load older". Each change reads as
 * a sentence: "2026-05-01 10:02:03Z · tick 14 · bob (session S002) updated R002 “Title”: R002 updated:
 * title". Without a session it shows the project's recent record changes (the answer then prefills no
 * since_tick).
 *
 * It only reads: bringing the session up to date is sync_session, a write the agent makes, so the view
 * says so in words and offers no call.
 */
import { el } from "../dom";
import { time } from "../format";
import type { ActivityEntry } from "../record-shapes";
import type { SessionFacts } from "./answer";
import { errorView, showFailureInPlace } from "./chrome";
import { plural, quoted, type SessionReader, type TitleBook } from "./session-words";

/**
 * The activity types that change a record, each as the verb a sentence uses. Asked for by name
 * (`types`), so a page is not filled with activations and syncs that change nothing.
 */
const CHANGE_VERBS: Record<string, string> = {
  record_created: "created",
  record_updated: "updated",
  state_transition: "changed the state of",
};
const CHANGE_TYPES = Object.keys(CHANGE_VERBS);

/** The pseudo-session a bulk import writes as (docs/records.md, "Bulk import"): no agent worked in it. */
const IMPORT_SESSION = "import";

interface ActivityPage {
  activity?: ActivityEntry[];
  has_more?: boolean;
  next_cursor?: number;
}

function whoInWords(entry: ActivityEntry): string {
  if (entry.session_id === IMPORT_SESSION) return "an import";
  const agent = entry.agent_id ?? "an agent";
  return entry.session_id ? `${agent} (session ${entry.session_id})` : agent;
}

function changeLine(entry: ActivityEntry, titles: TitleBook): HTMLElement {
  const verb = CHANGE_VERBS[entry.type] ?? entry.type.replaceAll("_", " ");
  const record = entry.record_id ?? "a record";
  const title = entry.record_id === undefined ? undefined : titles.get(entry.record_id);
  return el(
    "li",
    { testid: "session-change", data: { tick: String(entry.at_tick), ...(entry.record_id ? { record: entry.record_id } : {}) } },
    el("span", { class: "muted" }, `${time(entry.timestamp)} · tick ${entry.at_tick} · `),
    `${whoInWords(entry)} ${verb} ${record}`,
    title === undefined ? null : el("strong", {}, ` ${quoted(title)}`),
    entry.summary ? `: ${entry.summary}` : null,
  );
}

/** `viewer` is the agent looking: "your last sync" for its own session, "bob's last sync" for another's. */
function headingInWords(session: SessionFacts, viewer: string): string {
  const count = session.changed_by_others_capped
    ? `${session.changed_by_others} or more records`
    : plural(session.changed_by_others, "record");
  const changed = session.changed_by_others === 0 ? "no record changed by others" : `${count} changed by others`;
  const whose = session.agent_id === viewer ? "your" : `${session.agent_id}'s`;
  return `Changed since ${whose} last sync (tick ${session.last_sync_tick}): ${changed}`;
}

/** What the section says for a session (changes by others since its last sync), or for none (recent changes). */
interface SectionWords {
  heading: string;
  none: string;
  noneYet: string;
  /** Entries not shown: the session's own changes. */
  own?: string;
}

function wordsFor(session: SessionFacts | null, viewer: string): SectionWords {
  if (session === null)
    return {
      heading: "Recent changes in this project (there is no session, so no last sync to compare with)",
      none: "No record has changed in this project yet.",
      noneYet: "No record changes among the newest entries; older ones may hold some.",
    };
  return {
    heading: headingInWords(session, viewer),
    none: "Nothing changed since the last sync.",
    noneYet: "Nothing changed by others in the newest entries since the last sync; older ones may hold more.",
    own: session.session_id,
  };
}

/**
 * The section. `titlesReady` settles when the record tree's first page is in the title book, so the
 * first changes can name their records' titles.
 */
export function changesSection(
  read: SessionReader,
  session: SessionFacts | null,
  viewer: string,
  titles: TitleBook,
  titlesReady: Promise<void>,
): { section: HTMLElement; ready: Promise<void> } {
  const words = wordsFor(session, viewer);
  const list = el("ul", { class: "session-changes" });
  const empty = el("p", { class: "muted", attrs: { hidden: "" }, testid: "session-changes-none" });
  const status = el("span", { class: "muted", attrs: { role: "status" } });
  const older = el("button", { attrs: { type: "button", hidden: "" }, testid: "session-changes-older" }, "Load older");
  const body = el("div", {}, list, empty, el("p", {}, older, " ", status));
  const section = el("section", { class: "session-section", testid: "session-changes" }, el("h3", {}, words.heading), body);

  let cursor: number | undefined;
  let shown = 0;
  // The answer prefills since_tick (the last sync) and limit; the view adds the types and the cursor.
  const fetchPage = () => read<ActivityPage>("records.activity", { types: CHANGE_TYPES, ...(cursor === undefined ? {} : { cursor }) });
  const draw = (page: ActivityPage) => {
    // Changes by others: every session but the one shown (the same agent's other sessions count).
    const others = (page.activity ?? []).filter((entry) => entry.session_id !== words.own && Object.hasOwn(CHANGE_VERBS, entry.type));
    list.append(...others.map((entry) => changeLine(entry, titles)));
    shown += others.length;
    const hasMore = page.has_more === true && page.next_cursor !== undefined;
    cursor = page.next_cursor;
    older.toggleAttribute("hidden", !hasMore);
    empty.toggleAttribute("hidden", shown > 0);
    empty.textContent = hasMore ? words.noneYet : words.none;
  };
  older.addEventListener("click", () => {
    older.disabled = true;
    void showFailureInPlace(status, async () => draw(await fetchPage())).finally(() => {
      older.disabled = false;
    });
  });

  const ready = Promise.all([fetchPage(), titlesReady]).then(
    ([page]) => draw(page),
    (error: unknown) => {
      body.replaceChildren(errorView(error));
    },
  );
  return { section, ready };
}
