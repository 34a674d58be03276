/**
 * The viewer's entry point: builds the page frame, checks the session on every route change (a
 * refused or expired token shows its reason and no data), and draws the route's view. Views are
 * read-only: they only call `read` (docs/viewer.md).
 */
import "./base.css";
import "./styles.css";
import { ApiError, fetchSession, type Session } from "./api";
import { parseRoute, type Route, type WorkspaceView } from "./router";
import { createShell } from "./shell";
import { forgetToken, storedToken, storeToken } from "./token-store";
import { renderBranches } from "./views/branches";
import type { WorkspaceViewRenderer } from "./views/context";
import { renderGraph } from "./views/graph";
import { authErrorView, errorView, notFoundView } from "./views/messages";
import { renderRecords } from "./views/records";
import { renderTasks } from "./views/tasks";
import { renderTimeline } from "./views/timeline";
import { renderWorkspaces } from "./views/workspaces";

const VIEWS: Record<WorkspaceView, WorkspaceViewRenderer> = {
  branches: renderBranches,
  timeline: renderTimeline,
  graph: renderGraph,
  tasks: renderTasks,
  records: renderRecords,
};

const app = document.getElementById("app") as HTMLElement;
const shell = createShell(app, {
  useToken(token) {
    storeToken(token);
    void show();
  },
  forgetToken() {
    forgetToken();
    void show();
  },
});

let current: AbortController | undefined;

function failureView(error: unknown, route: Route): HTMLElement {
  if (error instanceof ApiError && error.isAuth) {
    shell.setSession(undefined);
    return authErrorView(error, storedToken() !== undefined);
  }
  if (error instanceof ApiError && error.isNotFound) {
    const inWorkspace = route.view === "workspaces" || route.view === "not-found" ? "" : ` in workspace "${route.workspace}"`;
    const { workspace, branch } = error.error.details ?? {};
    const what =
      typeof workspace === "string"
        ? `workspace "${workspace}"`
        : typeof branch === "string"
          ? `branch "${branch}"${inWorkspace}`
          : `such item${inWorkspace}`;
    return notFoundView(what, error.message);
  }
  return errorView(error);
}

async function draw(route: Route, session: Session, signal: AbortSignal): Promise<void> {
  const root = shell.content;
  if (route.view === "not-found") {
    root.replaceChildren(notFoundView(route.what));
    return;
  }
  if (route.view === "workspaces") {
    await renderWorkspaces({ root, signal, session });
    return;
  }
  await VIEWS[route.view]({ root, workspace: route.workspace, params: route.params, signal, session });
}

async function show(): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const route = parseRoute(location.hash);
  shell.setRoute(route);
  shell.content.replaceChildren();
  shell.content.dataset.state = "loading";
  try {
    const session = await fetchSession();
    if (controller.signal.aborted) return;
    shell.setSession(session);
    await draw(route, session, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) return;
    shell.content.replaceChildren(failureView(error, route));
  } finally {
    if (!controller.signal.aborted) shell.content.dataset.state = "ready";
  }
}

window.addEventListener("hashchange", () => void show());
void show();
