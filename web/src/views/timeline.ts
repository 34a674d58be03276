/**
 * A document's timeline (`docs.show`): the effective view of a branch's notes or trace — its base's
 * entries up to the cutoff, then its own — newest first, older pages on demand. Entries merged in
 * from another branch carry a merge marker naming their source branch and seq.
 */
import { read } from "../api";
import { badge, el, select } from "../dom";
import { plural, time } from "../format";
import { href } from "../router";
import { onClick } from "./actions";
import { loadBranches } from "./branches";
import type { ViewContext } from "./context";

interface Entry {
  seq: number;
  ts: string;
  branch: string;
  doc: string;
  kind: string;
  agent_id?: string;
  title?: string;
  content?: string;
  meta?: { _merge?: { from: string; from_seq: number } } & Record<string, unknown>;
  trimmed?: boolean;
}

interface ShowPage {
  branch: string;
  doc: string;
  entries: Entry[];
  pagination: { has_more: boolean; next_cursor?: number };
}

/** Entries per page: a screenful or two of notes; older ones load on demand. */
const PAGE = 50;
/** Characters of an entry shown before "show all": long design notes stay readable in a list. */
const PREVIEW_CHARS = 1_200;

function entryView(entry: Entry): HTMLElement {
  const merge = entry.meta?._merge;
  const content = entry.content ?? "";
  const body = el("pre", { class: "entry-content" }, content.length > PREVIEW_CHARS ? `${content.slice(0, PREVIEW_CHARS)}…` : content);
  const expand =
    content.length > PREVIEW_CHARS
      ? el(
          "button",
          {
            class: "link",
            attrs: { type: "button" },
            on: {
              click: () => {
                body.textContent = content;
                expand?.remove();
              },
            },
          },
          "show all",
        )
      : null;
  const { _merge: _dropped, ...meta } = entry.meta ?? {};
  return el(
    "li",
    { class: merge ? "entry merged" : "entry", testid: "timeline-entry", data: { seq: String(entry.seq) } },
    el(
      "div",
      { class: "entry-head" },
      el("span", { class: "seq" }, `#${entry.seq}`),
      " ",
      badge(entry.kind),
      " ",
      entry.title ? el("strong", {}, entry.title) : null,
      " ",
      el("span", { class: "muted" }, `${entry.agent_id ?? ""} · ${time(entry.ts)}${entry.branch ? ` · on ${entry.branch}` : ""}`),
      " ",
      merge ? el("span", { class: "badge merge", testid: "merge-marker" }, `merged from ${merge.from} (seq ${merge.from_seq})`) : null,
    ),
    body,
    expand,
    Object.keys(meta).length > 0 ? el("details", {}, el("summary", {}, "meta"), el("pre", {}, JSON.stringify(meta, null, 2))) : null,
  );
}

export async function renderTimeline(context: ViewContext): Promise<void> {
  const { workspace, params } = context;
  const branch = params.get("branch") ?? "main";
  const doc = params.get("doc") ?? "notes";
  const controls = el("div", { class: "toolbar" });
  const older = el("button", { testid: "timeline-older", attrs: { type: "button", hidden: "" } }, "Load older entries");
  const list = el("ol", { class: "timeline", testid: "timeline" });
  const status = el("p", { class: "muted", testid: "timeline-status" });
  context.root.append(
    el("section", { testid: "timeline-view" }, el("h2", {}, `Timeline: ${doc} on ${branch}`), controls, status, list, older),
  );

  const go = (next: Record<string, string>) => {
    location.hash = href("timeline", workspace, { branch, doc, ...next });
  };
  const [{ branches }, docs] = await Promise.all([
    loadBranches(workspace, context.signal),
    read<{ docs: { doc: string }[] }>("docs.list", workspace, { ref: branch, limit: 200 }, context.signal),
  ]);
  const docNames = [...new Set(["notes", "trace", ...docs.docs.map((item) => item.doc), doc])];
  controls.append(
    select(
      "Branch",
      branches.map((item) => ({ value: item.name })),
      branch,
      (value) => go({ branch: value }),
      "timeline-branch",
    ),
    select(
      "Document",
      docNames.map((value) => ({ value })),
      doc,
      (value) => go({ doc: value }),
      "timeline-doc",
    ),
  );

  let cursor: number | undefined;
  let shown = 0;
  const load = async () => {
    older.setAttribute("hidden", "");
    const page = await read<ShowPage>("docs.show", workspace, { branch, doc, limit: PAGE, ...(cursor ? { cursor } : {}) }, context.signal);
    // Pages come oldest-first; the list shows the newest first and older pages below.
    list.append(...[...page.entries].reverse().map(entryView));
    shown += page.entries.length;
    cursor = page.pagination.next_cursor;
    if (page.pagination.has_more && cursor !== undefined) older.removeAttribute("hidden");
    status.textContent = shown === 0 ? `No entries in ${doc} on ${branch}.` : `${plural(shown, "entry", "entries")} shown, newest first.`;
  };
  onClick(older, status, load);
  await load();
}
