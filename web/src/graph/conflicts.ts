/**
 * Open merge conflicts of a branch's graph: a list, and for the chosen one (`graph.conflict.show`) its
 * three versions side by side — base (at the branch point), theirs (the merged branch) and ours (this
 * branch) — with the fields that differ highlighted, every value in words. Drawn by the viewer and
 * the MCP App alike, reading through the reader it is given. Given a `decide` call (the app, for a
 * role that may write), the three-way view offers the two decisions, "Keep ours" (`use_into`) and
 * "Take theirs" (`use_from`); without one (the viewer, a read grant) it offers none.
 */
import { badge, el } from "../dom";
import { time } from "../format";
import { valueInWords } from "../tasks/words";
import { CONFLICT_READ, type GraphGuard, type GraphReader } from "./reader";

export interface ConflictItem {
  conflict_id: string;
  kind: string;
  key: string;
  /** The merged branch, when the list names it. */
  from?: string;
  created_at_ms?: number;
}

type Snapshot = Record<string, unknown> | null | undefined;

interface ConflictShow {
  conflict: ConflictItem & { status: string; from: string; into: string; doc: string; base: Snapshot; theirs: Snapshot; ours: Snapshot };
}

/** `use_into` keeps this branch's version ("ours"), `use_from` takes the merged branch's ("theirs"). */
export type Resolution = "use_into" | "use_from";

/** The conflict a decision is about, as the three-way view names it. */
export interface DecisionTarget {
  conflict_id: string;
  kind: string;
  key: string;
  from: string;
  into: string;
}

/** Conflicts listed per branch: open conflicts are few; more than this is a merge to finish through MCP. */
export const CONFLICT_PAGE = 200;
/** Fields compared and shown, in this order. */
const FIELDS = ["type", "title", "status", "tags", "text", "from", "rel", "to", "deleted"];

export interface ConflictPanelOptions {
  read: GraphReader<typeof CONFLICT_READ>;
  guard: GraphGuard;
  /**
   * Decides a conflict (and may redraw the view, this panel with it). Absent in the viewer and for a
   * read grant: no decision buttons then.
   */
  decide?: (conflict: DecisionTarget, resolution: Resolution) => Promise<void>;
  /** Decisions made earlier in this view, in words, shown above the list. */
  decided?: string[];
}

/** The viewer's list: every open conflict merged into the branch's graph doc (`graph.conflicts`). */
export async function loadOpenConflicts(read: GraphReader, target: { branch: string; doc: string }): Promise<ConflictItem[]> {
  const page = await read<{ conflicts: ConflictItem[] }>("graph.conflicts", {
    into: target.branch,
    doc: target.doc,
    status: "open",
    limit: CONFLICT_PAGE,
  });
  return page.conflicts;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return "—";
  return valueInWords(value);
}

function column(label: string, testid: string, snapshot: Snapshot, differs: Set<string>): HTMLElement {
  if (!snapshot) return el("div", { class: "side", testid }, el("h4", {}, label), el("p", { class: "muted" }, "absent"));
  const rows = FIELDS.filter((field) => field in snapshot).map((field) =>
    el("tr", { class: differs.has(field) ? "differs" : "" }, el("th", {}, field), el("td", { data: { field } }, show(snapshot[field]))),
  );
  return el("div", { class: "side", testid }, el("h4", {}, label), el("table", {}, el("tbody", {}, ...rows)));
}

/** What a decision did, in words. */
export function decisionInWords(conflict: DecisionTarget, resolution: Resolution): string {
  const kept = resolution === "use_into" ? `kept ours (${conflict.into})` : `took theirs (${conflict.from})`;
  return `Resolved the ${conflict.kind} conflict on ${conflict.key}: ${kept}.`;
}

function decisionButtons(conflict: ConflictShow["conflict"], options: ConflictPanelOptions): HTMLElement | null {
  const decide = options.decide;
  if (!decide) return null;
  const status = el("p", { class: "muted", testid: "conflict-decision-status" });
  const buttons: HTMLButtonElement[] = [];
  const box = el("div", { class: "conflict-decision" });
  const target: DecisionTarget = {
    conflict_id: conflict.conflict_id,
    kind: conflict.kind,
    key: conflict.key,
    from: conflict.from,
    into: conflict.into,
  };
  const choose = (resolution: Resolution) => () => {
    for (const button of buttons) button.disabled = true;
    void options
      .guard(status, async () => {
        status.textContent = "Deciding…";
        await decide(target, resolution);
        // Decided: the words replace the buttons (a view that redraws shows them in its new panel too).
        box.replaceChildren(el("p", { class: "decided", testid: "conflict-decided" }, decisionInWords(target, resolution)));
      })
      .finally(() => {
        for (const button of buttons) button.disabled = false;
      });
  };
  buttons.push(
    el(
      "button",
      { testid: "conflict-keep-ours", attrs: { type: "button" }, on: { click: choose("use_into") } },
      `Keep ours (${conflict.into})`,
    ),
    el(
      "button",
      { testid: "conflict-take-theirs", attrs: { type: "button" }, on: { click: choose("use_from") } },
      `Take theirs (${conflict.from})`,
    ),
  );
  box.append(...buttons.flatMap((button) => [button, " "]), status);
  return box;
}

async function showConflict(into: HTMLElement, id: string, options: ConflictPanelOptions): Promise<void> {
  const { conflict } = await options.read<ConflictShow>(CONFLICT_READ, { conflict_id: id });
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
        ` · ${conflict.from} → ${conflict.into} · ${conflict.doc}${conflict.created_at_ms === undefined ? "" : ` · ${time(conflict.created_at_ms)}`}`,
      ),
      el(
        "div",
        { class: "sides" },
        column("Base (branch point)", "conflict-base", conflict.base, differs),
        column(`Theirs (${conflict.from})`, "conflict-theirs", conflict.theirs, differs),
        column(`Ours (${conflict.into})`, "conflict-ours", conflict.ours, differs),
      ),
      conflict.status === "open" ? decisionButtons(conflict, options) : el("p", { class: "muted" }, `This conflict is ${conflict.status}.`),
    ),
  );
}

export function renderConflicts(panel: HTMLElement, conflicts: ConflictItem[], options: ConflictPanelOptions): void {
  const detail = el("div");
  const status = el("p", { class: "muted" });
  const list = el(
    "ul",
    { class: "conflicts" },
    ...conflicts.map((conflict) => {
      const button = el(
        "button",
        { class: "link", testid: "conflict-item", attrs: { type: "button" }, data: { key: conflict.key, id: conflict.conflict_id } },
        `${conflict.kind} ${conflict.key}`,
      );
      button.addEventListener("click", () => void options.guard(status, () => showConflict(detail, conflict.conflict_id, options)));
      const when = [conflict.from ? `from ${conflict.from}` : "", conflict.created_at_ms === undefined ? "" : time(conflict.created_at_ms)];
      return el("li", {}, button, " ", el("span", { class: "muted" }, when.filter((part) => part !== "").join(" · ")));
    }),
  );
  const decided = options.decided ?? [];
  panel.replaceChildren(
    el(
      "section",
      { testid: "conflicts" },
      el("h3", {}, `Open conflicts (${conflicts.length}${conflicts.length >= CONFLICT_PAGE ? "+" : ""})`),
      ...decided.map((words) => el("p", { class: "decided", testid: "conflict-decided" }, words)),
      conflicts.length === 0 ? el("p", { class: "muted" }, "No open conflicts on this branch.") : list,
      status,
      detail,
    ),
  );
}
