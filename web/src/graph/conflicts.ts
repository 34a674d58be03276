/**
 * Open merge conflicts of the branch's graph (`graph.conflicts` into this branch): a list, and for the
 * chosen one (`graph.conflict.show`) its three versions side by side — base (at the branch point),
 * theirs (the merged branch) and ours (this branch) — with the fields that differ highlighted.
 */
import { read } from "../api";
import { badge, el } from "../dom";
import { time } from "../format";
import { onClick } from "../views/actions";

export interface ConflictItem {
  conflict_id: string;
  kind: "node" | "edge";
  key: string;
  status: string;
  created_at_ms: number;
}

type Snapshot = Record<string, unknown> | null | undefined;

interface ConflictShow {
  conflict: ConflictItem & { from: string; into: string; doc: string; base: Snapshot; theirs: Snapshot; ours: Snapshot };
}

/** Conflicts listed per branch: open conflicts are few; more than this is a merge to finish through MCP. */
const CONFLICT_PAGE = 200;
/** Fields compared and shown, in this order; anything else is shown under "other". */
const FIELDS = ["type", "title", "status", "tags", "text", "from", "rel", "to", "deleted"];

export interface ConflictTarget {
  workspace: string;
  branch: string;
  doc: string;
  signal: AbortSignal;
}

export async function loadOpenConflicts(target: ConflictTarget): Promise<ConflictItem[]> {
  const page = await read<{ conflicts: ConflictItem[] }>(
    "graph.conflicts",
    target.workspace,
    { into: target.branch, doc: target.doc, status: "open", limit: CONFLICT_PAGE },
    target.signal,
  );
  return page.conflicts;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function column(label: string, testid: string, snapshot: Snapshot, differs: Set<string>): HTMLElement {
  if (!snapshot) return el("div", { class: "side", testid }, el("h4", {}, label), el("p", { class: "muted" }, "absent"));
  const rows = FIELDS.filter((field) => field in snapshot).map((field) =>
    el("tr", { class: differs.has(field) ? "differs" : "" }, el("th", {}, field), el("td", { data: { field } }, show(snapshot[field]))),
  );
  return el("div", { class: "side", testid }, el("h4", {}, label), el("table", {}, el("tbody", {}, ...rows)));
}

async function showConflict(into: HTMLElement, id: string, target: ConflictTarget): Promise<void> {
  const { conflict } = await read<ConflictShow>("graph.conflict.show", target.workspace, { conflict_id: id }, target.signal);
  const sides = [conflict.base, conflict.theirs, conflict.ours];
  const differs = new Set(FIELDS.filter((field) => new Set(sides.map((side) => show(side?.[field]))).size > 1));
  into.replaceChildren(
    el(
      "div",
      { class: "three-way", testid: "conflict-detail", data: { id } },
      el(
        "p",
        {},
        badge(conflict.kind),
        " ",
        el("strong", {}, conflict.key),
        ` · ${conflict.from} → ${conflict.into} · ${conflict.doc} · ${time(conflict.created_at_ms)}`,
      ),
      el(
        "div",
        { class: "sides" },
        column("Base (branch point)", "conflict-base", conflict.base, differs),
        column(`Theirs (${conflict.from})`, "conflict-theirs", conflict.theirs, differs),
        column(`Ours (${conflict.into})`, "conflict-ours", conflict.ours, differs),
      ),
    ),
  );
}

export function renderConflicts(panel: HTMLElement, conflicts: ConflictItem[], target: ConflictTarget): void {
  const detail = el("div");
  const status = el("p", { class: "muted" });
  const list = el(
    "ul",
    { class: "conflicts" },
    ...conflicts.map((conflict) => {
      const button = el(
        "button",
        { class: "link", testid: "conflict-item", attrs: { type: "button" }, data: { key: conflict.key } },
        `${conflict.kind} ${conflict.key}`,
      );
      onClick(button, status, () => showConflict(detail, conflict.conflict_id, target));
      return el("li", {}, button, " ", el("span", { class: "muted" }, time(conflict.created_at_ms)));
    }),
  );
  panel.replaceChildren(
    el(
      "section",
      { testid: "conflicts" },
      el("h3", {}, `Open conflicts (${conflicts.length}${conflicts.length >= CONFLICT_PAGE ? "+" : ""})`),
      conflicts.length === 0 ? el("p", { class: "muted" }, "No open conflicts on this branch.") : list,
      status,
      detail,
    ),
  );
}
