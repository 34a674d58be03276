/**
 * The viewer's Tasks view (`#/w/<ws>/tasks?target=`): the shared task board (web/src/tasks/), read
 * through the viewer's JSON API and navigated with hash links: a plan or task opens at its own
 * address, and a branch's reasoning opens in the timeline and graph views.
 */
import { read } from "../api";
import { el } from "../dom";
import { href } from "../router";
import { renderBoard } from "../tasks/board";
import type { BoardNavigation, Reader } from "../tasks/types";
import { guarded } from "./actions";
import type { ViewContext } from "./context";

function viewerReader(context: ViewContext): Reader {
  return (command, args) => read(command, context.workspace, args, context.signal);
}

function viewerNavigation(context: ViewContext): BoardNavigation {
  return {
    openLink: (id, label) => el("a", { href: href("tasks", context.workspace, { target: id }) }, label),
    reasoningLinks: (ref) => [
      el("a", { href: href("timeline", context.workspace, { branch: ref.branch, doc: ref.trace_doc }) }, "trace"),
      " · ",
      el("a", { href: href("graph", context.workspace, { branch: ref.branch, doc: ref.graph_doc }) }, "graph"),
    ],
  };
}

export async function renderTasks(context: ViewContext): Promise<void> {
  await renderBoard(context.root, {
    read: viewerReader(context),
    navigation: viewerNavigation(context),
    guard: guarded,
    selected: context.params.get("target") ?? undefined,
  });
}
