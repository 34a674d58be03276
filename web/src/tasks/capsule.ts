/**
 * The resume's two summaries in words: the radar (now, why, verify, next, blockers) and the capsule
 * (where the work is, why, and the best and backup next move). Nested values of `where` become words
 * in a definition list, and the next moves are marked as the agents' (what they are told, for a person
 * to read): what each is for and which tool an agent would call, never a call to copy. The viewer's
 * API renders them as a writing agent is told them (docs/viewer.md), not as its own read role's
 * `status` stand-in.
 */
import { el } from "../dom";
import type { Resume, SuggestedCall } from "./types";
import { callInWords, fieldsInWords } from "./words";

function line(label: string, words: string): HTMLParagraphElement {
  return el("p", {}, el("strong", {}, `${label}: `), words);
}

export function radarSection(radar: Resume["radar"]): HTMLElement {
  return el(
    "section",
    { class: "radar", testid: "radar" },
    el("h4", {}, "Radar"),
    line("Now", radar.now),
    radar.why ? line("Why", radar.why) : null,
    radar.verify.length > 0 ? line("Verify", radar.verify.join("; ")) : null,
    radar.next.length > 0 ? line("Next", radar.next.join("; ")) : null,
    radar.blockers.length > 0 ? line("Blockers", radar.blockers.join("; ")) : null,
  );
}

function whereList(where: Record<string, unknown>): HTMLElement {
  return el(
    "dl",
    { class: "where", testid: "capsule-where" },
    ...fieldsInWords(where).flatMap(({ label, words }) => [el("dt", {}, label), el("dd", {}, words)]),
  );
}

function nextMove(label: string, move: SuggestedCall | undefined): HTMLElement | null {
  if (!move) return null;
  return el(
    "li",
    { testid: "next-move" },
    el("strong", {}, `${label}: `),
    move.purpose || "no reason given",
    " ",
    el("span", { class: "muted" }, `(${callInWords(move)})`),
  );
}

export function capsuleSection(capsule: NonNullable<Resume["capsule"]>): HTMLElement {
  return el(
    "section",
    { class: "capsule", testid: "capsule" },
    el("h4", {}, "Capsule"),
    capsule.where ? el("div", {}, el("strong", {}, "Where"), whereList(capsule.where)) : null,
    capsule.why && capsule.why.length > 0 ? line("Why", capsule.why.join("; ")) : null,
    el(
      "div",
      { class: "agents-move", testid: "agents-move" },
      el("p", { class: "muted" }, "What the agents are told to do next (their move, not a call for you):"),
      el("ul", {}, nextMove("Agents' best move", capsule.next?.action), nextMove("Agents' backup", capsule.next?.backup)),
    ),
  );
}
