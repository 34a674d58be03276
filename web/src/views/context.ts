/** What every workspace view receives: where to draw, which workspace, the route's parameters, and a signal that aborts when the route changes. */
import type { Session } from "../api";

export interface ViewContext {
  root: HTMLElement;
  workspace: string;
  params: URLSearchParams;
  signal: AbortSignal;
  session: Session;
}

export type WorkspaceViewRenderer = (context: ViewContext) => Promise<void>;
