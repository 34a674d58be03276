/**
 * The consent page's HTML (docs/oauth.md, "Who signs in"): small, readable without JavaScript or
 * styles, every client-supplied string escaped. It shows which app asks, where its access goes, and
 * what the grant will be (agent id, workspaces, role, lifetime), and asks for the team token that
 * vouches for the person, and the headers every OAuth page answers with. Rendering only: the checks
 * are consent.ts's.
 */
import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import type { Role } from "../../commands/context";

/** Lifetimes a person may pick for a grant, in days (never past the team token's expiry). */
export const GRANT_LIFETIME_DAYS = [1, 7, 30] as const;
export const DEFAULT_LIFETIME_DAYS = 7;

const ESCAPED = /[&<>"']/g;

/** What every OAuth page may do: load nothing, run no script, never be framed. */
const PAGE_SECURITY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** An OAuth page's answer: HTML never cached, unframeable (on top of `headers`, e.g. the library's consent cookie). */
export function htmlAnswer(body: string, status: number, headers = new Headers()): Response {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set("Content-Security-Policy", PAGE_SECURITY);
  headers.set("X-Frame-Options", "DENY");
  return new Response(body, { status, headers });
}

export function escapeHtml(value: string): string {
  return value.replace(ESCAPED, (char) => `&#${char.charCodeAt(0)};`);
}

export interface ConsentView {
  details: ConsentDescription;
  handle: string;
  /** The suffix proposed after the token's agent id: the client's name as an agent-id segment. */
  agentSuffix: string;
  /** The role preselected: what the app asked for, at most write (oauth-server.ts, `proposedRole`). */
  role: Role;
  /** Shown above the form after a refused attempt. */
  problem?: string;
}

function option(value: string, label: string, selected: boolean): string {
  return `<option value="${escapeHtml(value)}"${selected ? " selected" : ""}>${escapeHtml(label)}</option>`;
}

const ROLES: readonly Role[] = ["read", "write", "admin"];
/** The requested scopes as the page shows them: the client chose the text, so it is cut short. */
const MAX_SHOWN_SCOPE_CHARS = 200;

export function consentPage(view: ConsentView): string {
  const { details } = view;
  const name = escapeHtml(details.clientName);
  const publisher = details.clientDomain
    ? `Published by <strong>${escapeHtml(details.clientDomain)}</strong>.`
    : "This app registered itself: its name is not verified.";
  const loopback = details.redirectIsLoopback
    ? "<p><strong>Access goes to an app on your own computer.</strong> Continue only if you just started connecting from it.</p>"
    : "";
  const problem = view.problem === undefined ? "" : `<p role="alert"><strong>Not authorized:</strong> ${escapeHtml(view.problem)}</p>`;
  const requested =
    details.scope.length === 0
      ? "the app named no scope"
      : `the app asked for ${escapeHtml(details.scope.join(" ").slice(0, MAX_SHOWN_SCOPE_CHARS))}`;
  const roles = ROLES.map((role) => option(role, role, role === view.role)).join("");
  const lifetimes = GRANT_LIFETIME_DAYS.map((days) =>
    option(String(days), `${days} day${days === 1 ? "" : "s"}`, days === DEFAULT_LIFETIME_DAYS),
  ).join("");
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect ${name} to BranchMind</title>
<main>
<h1>Connect ${name} to BranchMind?</h1>
<p>${publisher} Its access will be sent to <strong>${escapeHtml(details.redirectHost)}</strong>.</p>
${loopback}${problem}
<form method="post">
<input type="hidden" name="handle" value="${escapeHtml(view.handle)}">
<p><label for="team_token">Your team token (from <code>npm run token</code>; it vouches for you and is not stored)</label><br>
<input id="team_token" name="team_token" type="password" autocomplete="off" required size="60"></p>
<p><label for="agent_id">Agent id the app will act as: your token's agent id, or it followed by a dot and a name (empty: <code>.${escapeHtml(view.agentSuffix)}</code>)</label><br>
<input id="agent_id" name="agent_id" type="text" maxlength="128" pattern="[A-Za-z0-9][A-Za-z0-9._:@\\-]*" size="40"></p>
<p><label for="workspaces">Workspaces (patterns separated by commas; empty: all your token grants)</label><br>
<input id="workspaces" name="workspaces" type="text" size="60"></p>
<p><label for="role">Role (${requested}; at most your token's; to widen it later, connect again)</label>
<select id="role" name="role">${roles}</select></p>
<p><label for="lifetime_days">For</label>
<select id="lifetime_days" name="lifetime_days">${lifetimes}</select> (never longer than your token)</p>
<p><button name="decision" value="approve">Allow</button> <button name="decision" value="deny" formnovalidate>Deny</button></p>
</form>
</main>
</html>`;
}

/** A page for what cannot go back to the app (an invalid request, an expired form): it says what to do. */
export function consentErrorPage(message: string): string {
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>BranchMind: cannot connect</title>
<main>
<h1>This connection request cannot go on</h1>
<p>${escapeHtml(message)}</p>
<p>Start connecting again from your app.</p>
</main>
</html>`;
}
