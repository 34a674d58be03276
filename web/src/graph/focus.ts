/**
 * The focused graph, shared by the viewer and the MCP App: it opens on what matters, read by
 * `think.frontier.graph` (at most 200 nodes: the open conflicts, the open questions, hypotheses, tests
 * and decisions, and one hop of neighbours), labelled and kept apart; "the rest is a click away": a
 * card's neighbours are read with `around` and added to the canvas. Its marks (open question,
 * untested hypothesis, conflicted, neighbour) become classes on the canvas and lists in words beside
 * it; when the focus was capped, it says how many cards were left out.
 */
import { append, el } from "../dom";
import { plural } from "../format";
import type { GraphCanvas } from "./canvas";
import type { GraphNode } from "./load";
import { FRONTIER_READ, type FrontierGraph, type FrontierNode, frontierOf, type GraphGuard, type GraphReader } from "./reader";

/** The mark classes a frontier node may carry on the canvas. */
const MARKS = ["open-question", "untested", "conflicted", "neighbour"] as const;
/** Titles in the lists are cut to this many characters: the card holds the whole one. */
const LIST_TITLE_CHARS = 80;
/** Cards named per list, so the lists stay beside the canvas; the canvas shows them all. */
const LIST_ITEMS = 20;

function marksOf(node: FrontierNode): string[] {
  const marks: string[] = [];
  if (node.type === "question" && node.open) marks.push("open-question");
  if (node.untested) marks.push("untested");
  if (node.conflicted) marks.push("conflicted");
  if (!node.seed) marks.push("neighbour");
  return marks;
}

/** A frontier node as the canvas draws it (its lane where the canvas looks for it). */
function drawable(node: FrontierNode): GraphNode {
  return { id: node.id, type: node.type, title: node.title, status: node.status, tags: node.tags, meta: { lane: node.lane }, last_seq: 0 };
}

export interface FocusOptions {
  canvas: GraphCanvas;
  read: GraphReader<typeof FRONTIER_READ>;
  /** What every read adds besides `around`: the viewer names branch and graph_doc; the app's calls carry the scope already. */
  scope: Record<string, unknown>;
}

export class FocusGraph {
  /** Every card drawn, with its marks as last read. */
  readonly nodes = new Map<string, FrontierNode>();
  /** The opening read: its conflicts, counts and what it left out. */
  opening: FrontierGraph | undefined;

  constructor(private readonly options: FocusOptions) {}

  /** Reads the frontier, draws it and lays it out. */
  async open(): Promise<FrontierGraph> {
    const answer = frontierOf(await this.options.read<Partial<FrontierGraph>>(FRONTIER_READ, { ...this.options.scope }));
    this.opening = answer;
    this.draw(answer);
    await this.options.canvas.layout();
    return answer;
  }

  /** Reads a card's neighbours and adds them next to it; answers the read and how many cards were new. */
  async expand(id: string): Promise<{ answer: FrontierGraph; added: number }> {
    const answer = frontierOf(await this.options.read<Partial<FrontierGraph>>(FRONTIER_READ, { ...this.options.scope, around: [id] }));
    const added = this.draw(answer, id);
    await this.options.canvas.layout({ incremental: true });
    return { answer, added };
  }

  /** Adds an answer's nodes and edges; a card drawn before keeps the strongest of its marks. */
  private draw(answer: FrontierGraph, near?: string): number {
    const { canvas } = this.options;
    for (const node of answer.nodes) {
      const before = this.nodes.get(node.id);
      const merged = before ? { ...node, seed: before.seed || node.seed } : node;
      this.nodes.set(node.id, merged);
      const drawn = canvas.cy.getElementById(node.id);
      if (drawn.nonempty()) {
        const marks = new Set(marksOf(merged));
        for (const mark of MARKS) drawn.toggleClass(mark, marks.has(mark));
      }
    }
    let added = 0;
    canvas.cy.batch(() => {
      added = canvas.addNodes(answer.nodes.map(drawable), { classesOf: (node) => marksOf(this.nodes.get(node.id) as FrontierNode), near });
      canvas.addEdges(answer.edges.map((edge) => ({ ...edge, last_seq: 0 })));
    });
    return added;
  }
}

function cardInWords(node: FrontierNode): string {
  const title = node.title ?? "";
  const cut = title.length > LIST_TITLE_CHARS ? `${title.slice(0, LIST_TITLE_CHARS - 1)}…` : title;
  return cut === "" ? node.id : `${node.id} ${cut}`;
}

/** One list in words: "Open questions (2): " and the cards, "Q-1 Which cache?" each, a button that opens it. */
function listInWords(label: string, testid: string, nodes: FrontierNode[], open: (id: string) => void): HTMLElement {
  const heading = `${label} (${nodes.length}): `;
  const box = el("div", { class: "graph-marks-list", testid, data: { count: String(nodes.length) } });
  if (nodes.length === 0) {
    box.append(el("p", {}, `${heading}none.`));
    return box;
  }
  append(
    box,
    el("p", {}, heading),
    el(
      "ul",
      {},
      ...nodes
        .slice(0, LIST_ITEMS)
        .map((node) =>
          el(
            "li",
            {},
            el(
              "button",
              { class: "link", attrs: { type: "button" }, data: { id: node.id }, on: { click: () => open(node.id) } },
              cardInWords(node),
            ),
          ),
        ),
    ),
    nodes.length > LIST_ITEMS ? el("p", { class: "muted" }, `and ${nodes.length - LIST_ITEMS} more on the canvas.`) : null,
  );
  return box;
}

/** The marks beside the canvas, in words: the open questions and the untested hypotheses drawn. */
export function marksInWords(nodes: Iterable<FrontierNode>, open: (id: string) => void): HTMLElement {
  const all = [...nodes];
  const questions = all.filter((node) => node.type === "question" && node.open);
  const untested = all.filter((node) => node.untested);
  return el(
    "section",
    { class: "graph-marks", testid: "graph-marks" },
    listInWords("Open questions", "graph-open-questions", questions, open),
    listInWords("Untested hypotheses", "graph-untested", untested, open),
  );
}

/** What the opening read found and what it left out, in words. */
export function focusInWords(answer: FrontierGraph): string {
  const counts = answer.frontier;
  // A capped count stopped at the cap (the largest count), so it means "at least".
  const cap = Math.max(counts.questions, counts.hypotheses, counts.tests, counts.decisions);
  const count = (value: number, one: string, many: string) =>
    answer.frontier_capped && value === cap && value > 0 ? `${value} or more ${many}` : plural(value, one, many);
  const parts = [
    `Focused on what matters: ${plural(answer.shown, "card")} (the open conflicts, questions, hypotheses, tests and decisions, and their neighbours).`,
    `Open in this graph: ${count(counts.questions, "question", "questions")}, ${count(counts.hypotheses, "hypothesis", "hypotheses")} (${counts.untested_hypotheses} untested), ${count(counts.tests, "test", "tests")}, ${count(counts.decisions, "decision", "decisions")}.`,
  ];
  if (answer.truncated) parts.push("The answer was cut to fit its budget, so some cards may be missing.");
  return parts.join(" ");
}

/** When the focus was capped: how many cards were left out, and how to reach them. */
export function cappedInWords(answer: FrontierGraph): HTMLElement | null {
  if (!answer.capped && answer.left_out === 0) return null;
  return el(
    "p",
    { class: "graph-capped", testid: "graph-capped", data: { leftOut: String(answer.left_out) } },
    `The focus was capped at ${plural(answer.shown, "card")}: ${plural(answer.left_out, "more card was", "more cards were")} left out. Open a card and choose "Show its neighbours" to reach them.`,
  );
}

/** The "Show its neighbours" control for a card: reads them and says what it added. */
export function neighboursButton(id: string, expand: (id: string) => Promise<number>, guard: GraphGuard): HTMLElement {
  const status = el("span", { class: "muted", testid: "graph-neighbours-status" });
  const button = el("button", { testid: "graph-show-neighbours", attrs: { type: "button" } }, "Show its neighbours");
  button.addEventListener("click", () => {
    button.disabled = true;
    void guard(status, async () => {
      status.textContent = " Reading its neighbours…";
      const added = await expand(id);
      status.textContent = added === 0 ? " Its neighbours were all drawn already." : ` Added ${plural(added, "card")} to the canvas.`;
    }).finally(() => {
      button.disabled = false;
    });
  });
  return el("p", { class: "graph-neighbours" }, button, status);
}
