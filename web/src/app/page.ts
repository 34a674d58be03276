/**
 * What the app shows: a waiting line until the host hands over the `visualize` result, then the view
 * it names (the task board, the reasoning graph or the Record-Sync session) under a common header; or
 * an error in words. The task board is the viewer's, read through the host and navigated in place: a
 * click on a plan or task redraws the detail, and no link leaves the page.
 */
import { el } from "../dom";
import { type Board, renderBoard } from "../tasks/board";
import type { BoardNavigation } from "../tasks/types";
import { type TasksAnswer, type VisualizeAnswer, visualizeAnswer } from "./answer";
import { errorView, headerView, showFailureInPlace } from "./chrome";
import { drawGraphView } from "./graph-view";
import { type CallTool, hostReader, resultPayload, type ToolResult } from "./host-reader";
import { drawSessionView } from "./session-view";

export { noticeView, waitingView } from "./chrome";

function scopeInWords(answer: TasksAnswer): string {
  const target = answer.target;
  if (!target) return "No plan or task chosen: pick one below.";
  const what = `${target.kind} ${target.id} (${target.title})`;
  return answer.scope === "focus" ? `Opened on your focus, ${what}.` : `Opened on ${what}.`;
}

/** Opens plans and tasks in place: buttons, so no stored text ever becomes an address. */
function inPlaceNavigation(board: () => Board | undefined): BoardNavigation {
  return {
    openLink: (id, label) =>
      el("button", { class: "link", attrs: { type: "button" }, data: { target: id }, on: { click: () => void board()?.show(id) } }, label),
    reasoningLinks: () => [],
  };
}

async function drawBoard(root: HTMLElement, answer: TasksAnswer, callTool: CallTool): Promise<void> {
  const boardHost = el("div", { class: "app-board" });
  root.replaceChildren(headerView(answer, scopeInWords(answer)), boardHost);
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

function drawView(root: HTMLElement, answer: VisualizeAnswer, callTool: CallTool): Promise<void> {
  switch (answer.what) {
    case "tasks":
      return drawBoard(root, answer, callTool);
    case "graph":
      return drawGraphView(root, answer, callTool);
    case "session":
      return drawSessionView(root, answer, callTool);
  }
}

/** Draws the page for a `visualize` tool result: its view, or why there is none. */
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
  await drawView(root, answer, callTool);
}
