/**
 * The Record-Sync session view's shared pieces: its reader, and how the values of its reads read as
 * words (their shapes are web/src/record-shapes.ts, shared with the viewer). They live apart so the
 * header, the record tree and the changes list say the same thing the same way (a state badge, a
 * quoted title, "3 ticks behind").
 *
 * Stored text (titles, types, summaries, agent ids) always joins words or punctuation in the same
 * text node (`“title”`, `type: `), so no text on the page can parse as a JSON object or array, whatever
 * a title holds; and it goes in through `el()` as text, never as markup.
 */
import { badge, type Child, el } from "../dom";
import type { SessionCommand } from "./answer";
import type { ViewReader } from "./host-reader";

export type SessionReader = ViewReader<SessionCommand>;

/** Where the titles of records met anywhere in the view are kept, so a change can name its record. */
export type TitleBook = Map<string, string>;

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A title as a person reads it: quoted, so it stays a title whatever it holds. */
export function quoted(title: string): string {
  return `“${title}”`;
}

/** A record's state as a badge coloured by state (OPEN, LATER, RESOLVED, DISCARDED). */
export function stateBadge(state: string): HTMLSpanElement {
  return badge(state, `state-${state.toLowerCase()}`);
}

/** How far a session is behind the project: "up to date", "1 tick behind", "3 ticks behind". */
export function gapInWords(gap: number): string {
  return gap <= 0 ? "up to date" : `${plural(gap, "tick")} behind`;
}

/** One record in a line: its id, its state, its type and its quoted title. */
export function recordLine(record: { id: string; type: string; title: string; state: string }): Child[] {
  return [
    el("span", { class: "seq" }, record.id),
    " ",
    stateBadge(record.state),
    el("span", { class: "record-type" }, ` ${record.type}: `),
    el("strong", {}, quoted(record.title)),
  ];
}
