/**
 * A node's card beside the graph (`graph.node.show`): its fields, lane and pin, the evidence linked to
 * it, every live link with the node at the other end (click one to open it), and its versions as the
 * branch sees them — its own and its ancestors' up to their cutoffs — with older ones on demand.
 * Drawn by the viewer and the MCP App alike: it reads through the reader it is given, runs clicks
 * through the given guard, and writes every value in words (never as JSON).
 */
import { badge, type Child, el, table } from "../dom";
import { time } from "../format";
import { fieldsInWords } from "../tasks/words";
import type { GraphNode } from "./load";
import { type GraphGuard, type GraphReader, NODE_READ } from "./reader";

interface Other {
  id: string;
  type?: string;
  title?: string;
  status?: string;
  live: boolean;
}

interface NodeEdge {
  from: string;
  rel: string;
  to: string;
  direction: "out" | "in";
  other: Other;
}

interface Version {
  seq: number;
  branch: string;
  agent_id: string;
  last_ts_ms: number;
  title?: string;
  status?: string;
  deleted: boolean;
  tags: string[];
}

interface NodeShow {
  node: Omit<GraphNode, "last_seq"> & { deleted: boolean };
  versions: Version[];
  versions_pagination: { has_more: boolean; next_cursor?: number };
  edges: NodeEdge[];
  edges_has_more: boolean;
}

export interface CardTarget {
  read: GraphReader<typeof NODE_READ>;
  guard: GraphGuard;
  /** Where the node lives, for the words under its title. */
  branch: string;
  doc: string;
  /** What every read adds besides the node's own arguments: the viewer names branch and doc; the app's calls carry them already. */
  scope: Record<string, unknown>;
  /** Opens another node (a link's other end). */
  open(id: string): void;
  /** Controls shown under the card's title, such as "Show its neighbours". */
  actions?: (id: string) => Child[];
}

/** Versions per request; a node's history is usually short. */
const VERSIONS_PAGE = 20;

function otherLabel(other: Other): string {
  return `${other.title ?? other.id}${other.type ? ` (${other.type})` : ""}${other.live ? "" : " — deleted"}`;
}

function versionRows(versions: Version[]): HTMLTableRowElement[] {
  return versions.map((version) =>
    el(
      "tr",
      { testid: "node-version" },
      el("td", {}, `#${version.seq}`),
      el("td", {}, version.branch),
      el("td", {}, version.agent_id),
      el("td", {}, time(version.last_ts_ms)),
      el("td", {}, version.deleted ? "(deleted)" : (version.title ?? "")),
      el("td", {}, version.status ?? ""),
    ),
  );
}

export async function renderCard(panel: HTMLElement, id: string, target: CardTarget): Promise<void> {
  const { branch, doc, scope } = target;
  const shown = await target.read<NodeShow>(NODE_READ, { ...scope, id, versions_limit: VERSIONS_PAGE });
  const { node } = shown;
  const lane = typeof node.meta?.lane === "string" ? node.meta.lane : "shared";
  const link = (other: Other) =>
    other.live
      ? el("button", { class: "link", attrs: { type: "button" }, on: { click: () => target.open(other.id) } }, otherLabel(other))
      : otherLabel(other);
  const evidence = shown.edges.filter((edge) => edge.other.type === "evidence");
  const versionBody = el("tbody", {}, ...versionRows(shown.versions));
  const older = el("button", { testid: "node-versions-older", attrs: { type: "button" } }, "Older versions");
  const status = el("p", { class: "muted" });
  let cursor = shown.versions_pagination.next_cursor;
  if (!shown.versions_pagination.has_more) older.setAttribute("hidden", "");
  older.addEventListener(
    "click",
    () =>
      void target.guard(status, async () => {
        const page = await target.read<NodeShow>(NODE_READ, { ...scope, id, versions_limit: VERSIONS_PAGE, versions_cursor: cursor });
        versionBody.append(...versionRows(page.versions));
        cursor = page.versions_pagination.next_cursor;
        if (!page.versions_pagination.has_more) older.setAttribute("hidden", "");
      }),
  );
  const { lane: _lane, ...meta } = node.meta ?? {};

  panel.replaceChildren(
    el(
      "article",
      { class: "card", testid: "node-card", data: { id: node.id } },
      el("h3", { testid: "node-card-title" }, node.title ?? node.id),
      el(
        "p",
        {},
        badge(node.type, "type"),
        " ",
        badge(node.status ?? "open", "status"),
        " ",
        node.tags.includes("pinned") ? badge("pinned", "pinned") : null,
        " ",
        badge(lane === "shared" ? "shared lane" : `draft: ${lane}`, lane === "shared" ? "" : "draft"),
        node.deleted ? badge("deleted", "rejected") : null,
      ),
      el("p", { class: "muted" }, `${node.id} · ${branch}/${doc}`),
      ...(target.actions?.(node.id) ?? []),
      node.text ? el("pre", { class: "entry-content" }, node.text) : null,
      node.tags.length > 0 ? el("p", {}, "Tags: ", ...node.tags.map((tag) => badge(tag))) : null,
      Object.keys(meta).length > 0
        ? el(
            "details",
            {},
            el("summary", {}, "meta"),
            el("ul", { class: "meta" }, ...fieldsInWords(meta).map((field) => el("li", {}, `${field.label}: ${field.words}`))),
          )
        : null,
      el("h4", {}, `Linked evidence (${evidence.length})`),
      evidence.length === 0
        ? el("p", { class: "muted" }, "No evidence is linked to this node.")
        : el(
            "ul",
            { testid: "linked-evidence" },
            ...evidence.map((edge) => el("li", {}, `${edge.direction === "in" ? "← " : "→ "}${edge.rel} `, link(edge.other))),
          ),
      el("h4", {}, `Links (${shown.edges.length}${shown.edges_has_more ? "+" : ""})`),
      table(
        ["", "Relation", "Node", "Status"],
        shown.edges.map((edge) => [edge.direction === "in" ? "←" : "→", edge.rel, link(edge.other), edge.other.status ?? ""]),
        { testid: "node-links" },
      ),
      el("h4", {}, "Versions"),
      el(
        "table",
        { testid: "node-versions" },
        el("thead", {}, el("tr", {}, ...["Seq", "Branch", "Agent", "Time", "Title", "Status"].map((h) => el("th", {}, h)))),
        versionBody,
      ),
      older,
      status,
    ),
  );
}
