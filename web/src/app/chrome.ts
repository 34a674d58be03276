/**
 * What every view of the app shares: the waiting line, a one-line notice, an error in words, the
 * header (workspace, agent and role, the summary in words and where the view opened), and the guard
 * that shows a failed click next to its control.
 */
import { el } from "../dom";
import type { ClickGuard } from "../tasks/types";
import type { VisualizeAnswer } from "./answer";
import { errorInWords } from "./host-reader";

export function waitingView(): HTMLElement {
  return el("p", { class: "muted", testid: "app-waiting" }, "Waiting for the host…");
}

/** One line instead of a view: the call was cancelled, or the host cannot be reached. */
export function noticeView(text: string): HTMLElement {
  return el("p", { class: "muted", testid: "app-notice" }, text);
}

export function errorView(error: unknown): HTMLElement {
  const { message, hint } = errorInWords(error);
  return el(
    "section",
    { class: "app-error", testid: "app-error" },
    el("p", {}, el("strong", {}, "Could not show this: "), message),
    hint ? el("p", { class: "muted" }, hint) : null,
  );
}

/** The header of every view: who and where, the summary in words, and where the view opened. */
export function headerView(answer: VisualizeAnswer, scopeWords: string): HTMLElement {
  return el(
    "header",
    { class: "app-top" },
    el("p", { class: "app-header", testid: "app-header" }, `${answer.workspace} · ${answer.agent_id} (${answer.role})`),
    el("p", { testid: "app-summary" }, answer.summary),
    el("p", { class: "muted", testid: "app-scope" }, scopeWords),
  );
}

/** Shows a failed click load next to the control, in words. */
export const showFailureInPlace: ClickGuard = async (status, load) => {
  status.textContent = "";
  status.classList.remove("error-text");
  try {
    await load();
  } catch (error) {
    const { message, hint } = errorInWords(error);
    status.textContent = hint ? `${message} ${hint}` : message;
    status.classList.add("error-text");
  }
};
