/**
 * A person's connected apps (`/oauth/grants`, docs/oauth.md "Your grants"): paste the team token you
 * connected them with, see each grant (app, agent id, role, when it was made and when it ends), revoke
 * one. Every POST carries the team token itself, so the page has no ambient authority another site could
 * borrow (no session, no cookie); it cannot be framed and runs no script. The grants are filed under the
 * token's agent (consent.ts), so a token shows exactly the grants it vouched for, and no other's.
 */
import type { GrantSummary, OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { verifyTeamToken } from "../team-tokens";
import { escapeHtml, htmlAnswer } from "./consent-page";
import { authorizationServerFor } from "./oauth-server";

/** Grants shown on one page: more than a person connects apps with one token. */
const MAX_LISTED_GRANTS = 100;

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</html>`;
  return htmlAnswer(html, status);
}

const TOKEN_FIELD = `<p><label for="team_token">Your team token (the one you connected the apps with; it is not stored)</label><br>
<input id="team_token" name="team_token" type="password" autocomplete="off" required size="60"></p>`;

function askForToken(problem?: string): Response {
  const alert = problem === undefined ? "" : `<p role="alert"><strong>Refused:</strong> ${escapeHtml(problem)}</p>`;
  return page(
    "Your connected apps",
    `${alert}<form method="post">${TOKEN_FIELD}<p><button name="action" value="list">Show my apps</button></p></form>`,
    problem === undefined ? 200 : 400,
  );
}

function when(seconds: number | undefined): string {
  return seconds === undefined ? "never" : new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ");
}

function grantRow(grant: GrantSummary): string {
  const metadata = (grant.metadata ?? {}) as { agent_id?: string; client_name?: string };
  return `<tr><td><input type="radio" name="grant_id" value="${escapeHtml(grant.id)}" id="g-${escapeHtml(grant.id)}" required></td>
<td><label for="g-${escapeHtml(grant.id)}">${escapeHtml(metadata.client_name ?? grant.clientId)}</label></td>
<td>${escapeHtml(metadata.agent_id ?? "")}</td><td>${escapeHtml(grant.scope.join(" "))}</td>
<td>${escapeHtml(when(grant.createdAt))}</td><td>${escapeHtml(when(grant.expiresAt))}</td></tr>`;
}

function listing(grants: readonly GrantSummary[], notice?: string): Response {
  const done = notice === undefined ? "" : `<p role="status">${escapeHtml(notice)}</p>`;
  if (grants.length === 0) return page("Your connected apps", `${done}<p>No app is connected with this token.</p>`);
  const rows = grants.map(grantRow).join("\n");
  return page(
    "Your connected apps",
    `${done}<form method="post">
<table><thead><tr><th></th><th>App</th><th>Agent id</th><th>Scopes</th><th>Connected (UTC)</th><th>Ends (UTC)</th></tr></thead>
<tbody>${rows}</tbody></table>
${TOKEN_FIELD}<p><button name="action" value="revoke">Revoke the chosen app</button></p></form>`,
  );
}

async function grantsOf(oauth: OAuthHelpers, userId: string): Promise<GrantSummary[]> {
  return (await oauth.listUserGrants(userId, { limit: MAX_LISTED_GRANTS })).items;
}

/** `GET` asks for the team token; `POST` lists the grants it made (`action=list`) or revokes one (`action=revoke`). */
export async function serveGrants(request: Request, env: Env, nowMs: number): Promise<Response> {
  if (request.method === "GET") return askForToken();
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "GET, POST" } });
  const form = await request.formData();
  const token = await verifyTeamToken(env, String(form.get("team_token") ?? "").trim(), nowMs);
  if (!token.ok) return askForToken(`the team token was refused (${token.reason})`);
  const oauth = authorizationServerFor(new URL(request.url).origin).getOAuthApi(env);
  const userId = encodeURIComponent(token.claims.sub);
  if (form.get("action") !== "revoke") return listing(await grantsOf(oauth, userId));
  const grantId = String(form.get("grant_id") ?? "");
  const grants = await grantsOf(oauth, userId);
  const chosen = grants.find((grant) => grant.id === grantId);
  if (chosen === undefined) return listing(grants, "Choose one of your apps to revoke.");
  await oauth.revokeGrant(chosen.id, userId);
  return listing(
    grants.filter((grant) => grant.id !== chosen.id),
    `Revoked: ${(chosen.metadata as { client_name?: string } | undefined)?.client_name ?? chosen.clientId}. Its tokens no longer work.`,
  );
}
