/**
 * The session view's record tree: the project's records from records.list, in the tree order the
 * server gives (a parent before its children), each indented by its depth with its state, and marked
 * when the shown session has it active. Paged: "Load more" continues from the previous page's
 * next_cursor. One flat list indented by depth (not nested lists), so a child whose parent came on an
 * earlier page still sits under it.
 *
 * It records every title it shows in the view's title book, so the changes list can name records.
 */
import { el } from "../dom";
import type { RecordRef } from "../record-shapes";
import { errorView, showFailureInPlace } from "./chrome";
import { plural, recordLine, type SessionReader, type TitleBook } from "./session-words";

/** Records per page: the largest page records.list gives (its `limit` is at most 200). */
export const RECORD_PAGE = 200;

/** A page of records.list. The server answers paging in `pagination`; the flat fields are read too. */
interface RecordsPage {
  records?: RecordRef[];
  pagination?: { has_more?: boolean; next_cursor?: string };
  has_more?: boolean;
  next_cursor?: string;
}

function paging(page: RecordsPage): { hasMore: boolean; next?: string } {
  const hasMore = page.pagination?.has_more ?? page.has_more ?? false;
  const next = page.pagination?.next_cursor ?? page.next_cursor;
  return next === undefined ? { hasMore } : { hasMore, next };
}

function childrenInWords(record: RecordRef): HTMLElement | null {
  if (record.children_count <= 0) return null;
  return el("span", { class: "muted" }, ` · ${plural(record.children_count, "child", "children")}, ${record.open_children_count} open`);
}

function recordNode(record: RecordRef, active: boolean): HTMLElement {
  const node = el(
    "li",
    {
      class: active ? "record-node is-active" : "record-node",
      testid: "record-node",
      data: { id: record.id, state: record.state, depth: String(record.depth) },
    },
    ...recordLine(record),
    active ? el("span", { class: "active-mark" }, " active") : null,
    record.summary ? el("span", { class: "muted" }, ` — ${record.summary}`) : null,
    childrenInWords(record),
  );
  // Depth 1 is a root: no indent. Set through the style object, never as markup.
  node.style.setProperty("--depth", String(Math.max(0, record.depth - 1)));
  return node;
}

export interface RecordTree {
  /** The section to place in the page. */
  section: HTMLElement;
  /** Settles when the first page is drawn (or its failure is shown). */
  ready: Promise<void>;
}

/** Draws the record tree: the first page now, the rest on "Load more". */
export function recordTree(read: SessionReader, activeIds: ReadonlySet<string>, titles: TitleBook): RecordTree {
  const list = el("ul", { class: "record-tree", testid: "record-tree" });
  const status = el("span", { class: "muted", attrs: { role: "status" } });
  const more = el("button", { attrs: { type: "button", hidden: "" }, testid: "record-tree-more" }, "Load more");
  const count = el("p", { class: "muted" });
  const body = el("div", {}, count, list, el("p", {}, more, " ", status));
  const section = el("section", { class: "session-section" }, el("h3", {}, "Records in this project"), body);

  let cursor: string | undefined;
  let shown = 0;
  const load = async () => {
    const page = await read<RecordsPage>("records.list", { limit: RECORD_PAGE, ...(cursor === undefined ? {} : { cursor }) });
    const records = page.records ?? [];
    for (const record of records) {
      titles.set(record.id, record.title);
      list.append(recordNode(record, activeIds.has(record.id)));
    }
    shown += records.length;
    const { hasMore, next } = paging(page);
    cursor = next;
    more.toggleAttribute("hidden", !(hasMore && next !== undefined));
    if (shown === 0) list.replaceChildren(el("li", { class: "muted" }, "No records in this project yet."));
    count.textContent = `${plural(shown, "record")} shown, in tree order${hasMore ? "; more with Load more." : "."}`;
  };
  more.addEventListener("click", () => {
    more.disabled = true;
    void showFailureInPlace(status, load).finally(() => {
      more.disabled = false;
    });
  });

  const ready = load().catch((error: unknown) => {
    // The first page failed: the error in words, with its recovery hint, in place of the tree.
    body.replaceChildren(errorView(error));
  });
  return { section, ready };
}
