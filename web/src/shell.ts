/**
 * The page frame: a header with the session (who you are, read-only) and the token form, the tabs of
 * a workspace's views, and the content area the views draw into. The token input is a password field
 * submitted by script only, so the token never lands in the address bar or the history.
 */
import type { Session } from "./api";
import { clear, el } from "./dom";
import { HOME, href, type Route, VIEW_TITLES, WORKSPACE_VIEWS } from "./router";
import { storedToken } from "./token-store";

export interface Shell {
  content: HTMLElement;
  setRoute(route: Route): void;
  setSession(session: Session | undefined): void;
}

export interface ShellActions {
  useToken(token: string): void;
  forgetToken(): void;
}

export function createShell(app: HTMLElement, actions: ShellActions): Shell {
  const who = el("span", { class: "who", testid: "session" });
  const input = el("input", {
    testid: "token-input",
    attrs: {
      type: "password",
      autocomplete: "off",
      spellcheck: "false",
      placeholder: "Paste a bearer token",
      "aria-label": "Bearer token",
    },
  });
  const form = el(
    "form",
    {
      class: "token-form",
      on: {
        submit: (event) => {
          event.preventDefault();
          const token = input.value.trim();
          input.value = "";
          if (token) actions.useToken(token);
        },
      },
    },
    input,
    el("button", { testid: "token-submit", attrs: { type: "submit" } }, "Use token"),
    el("button", { testid: "token-forget", attrs: { type: "button" }, on: { click: () => actions.forgetToken() } }, "Forget token"),
  );
  const nav = el("nav", { class: "tabs", testid: "tabs" });
  const content = el("main", { class: "content", testid: "content" });
  app.replaceChildren(
    el(
      "header",
      { class: "top" },
      el("a", { class: "brand", href: HOME }, "BranchMind"),
      el("span", { class: "muted" }, "viewer · read-only"),
      who,
      form,
    ),
    nav,
    content,
  );

  return {
    content,
    setRoute(route) {
      clear(nav);
      if (route.view === "workspaces" || route.view === "not-found") return;
      nav.append(el("a", { href: HOME }, "Workspaces"), el("span", { class: "crumb", testid: "current-workspace" }, route.workspace));
      for (const view of WORKSPACE_VIEWS) {
        nav.append(
          el(
            "a",
            { href: href(view, route.workspace), class: view === route.view ? "tab active" : "tab", testid: `tab-${view}` },
            VIEW_TITLES[view],
          ),
        );
      }
    },
    setSession(session) {
      if (!session) {
        who.textContent = storedToken() ? "token refused" : "no token";
        return;
      }
      const mode = session.auth_mode === "dev" ? " · dev mode" : "";
      who.textContent = `${session.agent_id} · role ${session.role} · read-only viewer${mode}`;
    },
  };
}
