/**
 * Hash routes of the viewer. The hash names what is shown (a workspace, a view, a branch or a task),
 * never a credential: `#/` lists workspaces, `#/w/<workspace>/<view>?<params>` opens one of a
 * workspace's views. Workspace names may hold `/`, so they are percent-encoded as one segment.
 */

export const WORKSPACE_VIEWS = ["branches", "timeline", "graph", "tasks", "records"] as const;
export type WorkspaceView = (typeof WORKSPACE_VIEWS)[number];

export const VIEW_TITLES: Record<WorkspaceView, string> = {
  branches: "Branches",
  timeline: "Timeline",
  graph: "Graph",
  tasks: "Tasks",
  records: "Records",
};

export type Route =
  | { view: "workspaces" }
  | { view: WorkspaceView; workspace: string; params: URLSearchParams }
  | { view: "not-found"; what: string };

function isWorkspaceView(name: string): name is WorkspaceView {
  return (WORKSPACE_VIEWS as readonly string[]).includes(name);
}

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, "") || "/";
  const [path = "/", query = ""] = raw.split("?", 2);
  if (path === "/" || path === "") return { view: "workspaces" };
  const match = /^\/w\/([^/]+)\/([a-z]+)$/.exec(path);
  if (!match) return { view: "not-found", what: `the page ${path}` };
  let workspace: string;
  try {
    workspace = decodeURIComponent(match[1] as string);
  } catch {
    return { view: "not-found", what: `the page ${path}` };
  }
  const view = match[2] as string;
  if (!isWorkspaceView(view)) return { view: "not-found", what: `the view "${view}"` };
  return { view, workspace, params: new URLSearchParams(query) };
}

export function href(view: WorkspaceView, workspace: string, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== "") query.set(name, value);
  const text = query.toString();
  return `#/w/${encodeURIComponent(workspace)}/${view}${text ? `?${text}` : ""}`;
}

export const HOME = "#/";
