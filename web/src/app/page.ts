/**
 * What the app shows: a waiting line until the host hands over the `visualize` result, then a header
 * (workspace, agent and role), the summary in words and the task board opened on the caller's
 * target; or an error in words. The board is the viewer's, read through the host and navigated in
 * place: a click on a plan or task redraws the detail, and no link leaves the page.
 */
import { el } from "../dom";
import { type Board, renderBoard } from "../tasks/board";
import type { BoardNavigation, ClickGuard } from "../tasks/types";
import { type VisualizeAnswer, visualizeAnswer } from "./answer";
import { type CallTool, errorInWords, hostReader, resultPayload, type ToolResult } from "./host-reader";

export function waitingView(): HTMLElement {
  return el("p", { class: "muted", testid: "app-waiting" }, "Waiting for the host…");
}

/** One line instead of the board: the call was cancelled, or the host cannot be reached. */
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

function scopeInWords(answer: VisualizeAnswer): string {
  const target = answer.target;
  if (!target) return "No plan or task chosen: pick one below.";
  const what = `${target.kind} ${target.id} (${target.title})`;
  return answer.scope === "focus" ? `Opened on your focus, ${what}.` : `Opened on ${what}.`;
}

function headerView(answer: VisualizeAnswer): HTMLElement {
  return el(
    "header",
    { class: "app-top" },
    el("p", { class: "app-header", testid: "app-header" }, `${answer.workspace} · ${answer.agent_id} (${answer.role})`),
    el("p", { testid: "app-summary" }, answer.summary),
    el("p", { class: "muted", testid: "app-scope" }, scopeInWords(answer)),
  );
}

/** Shows a failed click load next to the control, in words. */
const showFailureInPlace: ClickGuard = async (status, load) => {
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

/** Opens plans and tasks in place: buttons, so no stored text ever becomes an address. */
function inPlaceNavigation(board: () => Board | undefined): BoardNavigation {
  return {
    openLink: (id, label) =>
      el("button", { class: "link", attrs: { type: "button" }, data: { target: id }, on: { click: () => void board()?.show(id) } }, label),
    reasoningLinks: () => [],
  };
}

async function drawBoard(root: HTMLElement, answer: VisualizeAnswer, callTool: CallTool): Promise<void> {
  const boardHost = el("div", { class: "app-board" });
  root.replaceChildren(headerView(answer), boardHost);
  let board: Board | undefined;
  try {
    board = await renderBoard(boardHost, {
      read: hostReader(callTool, answer.reads),
      navigation: inPlaceNavigation(() => board),
      guard: showFailureInPlace,
      selected: answer.target?.id,
      foldLists: answer.target !== null,
      detailFailure: errorView,
    });
  } catch (error) {
    boardHost.replaceChildren(errorView(error));
  }
}

/** Draws the page for a `visualize` tool result: the board, or why there is none. */
export async function showToolResult(root: HTMLElement, result: ToolResult, callTool: CallTool): Promise<void> {
  let answer: VisualizeAnswer | string;
  try {
    answer = visualizeAnswer(resultPayload(result, "visualize"));
  } catch (error) {
    root.replaceChildren(errorView(error));
    return;
  }
  if (typeof answer === "string") {
    root.replaceChildren(errorView(new Error(answer)));
    return;
  }
  await drawBoard(root, answer, callTool);
}
