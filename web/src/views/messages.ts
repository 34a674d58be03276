/**
 * The views that show no data: not found (an unknown workspace, branch, task or page), the token
 * refused (with the server's reason), and any other error with its recovery hint.
 */
import type { ApiError } from "../api";
import { el } from "../dom";
import { HOME } from "../router";

export function notFoundView(what: string, detail?: string): HTMLElement {
  return el(
    "section",
    { class: "message not-found", testid: "not-found" },
    el("h2", {}, "Not found"),
    el("p", {}, `There is no ${what}.`),
    detail ? el("p", { class: "muted" }, detail) : null,
    el("p", {}, el("a", { href: HOME }, "Back to the workspaces")),
  );
}

export function authErrorView(error: ApiError | undefined, hasToken: boolean): HTMLElement {
  const reason = error?.message ?? "This server needs a token.";
  return el(
    "section",
    { class: "message auth-error", testid: "auth-error" },
    el("h2", {}, hasToken ? "Your token was refused" : "A token is needed"),
    el("p", { testid: "auth-error-reason" }, reason),
    el(
      "p",
      {},
      hasToken
        ? "Nothing is shown with this token. Paste a valid, unexpired token above (mint one with `npm run token -- --agent <you> --workspace '<pattern>' --role read`)."
        : "Paste a token above. It stays in this browser tab only (session storage) and is sent in the Authorization header, never in the address.",
    ),
  );
}

export function errorView(error: unknown): HTMLElement {
  const api = error as Partial<ApiError>;
  const code = api.error?.code ?? "ERROR";
  const message = api.error?.message ?? (error instanceof Error ? error.message : String(error));
  return el(
    "section",
    { class: "message error", testid: "error" },
    el("h2", {}, `Could not load this view (${code})`),
    el("p", {}, message),
    api.error?.recovery_hint ? el("p", { class: "muted" }, api.error.recovery_hint) : null,
  );
}
