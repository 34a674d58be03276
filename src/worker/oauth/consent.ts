/**
 * The authorization endpoint (`/authorize`, docs/oauth.md "Who signs in"): a person connects an app by
 * presenting a team token on the consent page and choosing what the app gets. The grant is never wider
 * than the token: its workspaces are among the token's, its role at most the token's, its end no later
 * than the token's expiry; it carries the token's id and its key id, so revoking the token, or retiring
 * the key that signed it, cuts it off. The library
 * validates the request (client, redirect URI, PKCE, resource), binds the form to the browser that
 * opened it and keeps the page from being framed; this module decides what is granted.
 */
import { AuthorizationError, CimdFetchError, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { ROLE_RANK, type Role } from "../../commands/context";
import { MAX_AGENT_ID_CHARS } from "../../shared/limits";
import { isValidWorkspaceName } from "../../shared/names";
import { matchesWorkspace } from "../../shared/workspace-patterns";
import { isAgentId, verifyTeamToken } from "../team-tokens";
import type { TokenClaims } from "../token";
import { consentErrorPage, consentPage, DEFAULT_LIFETIME_DAYS, GRANT_LIFETIME_DAYS, htmlAnswer } from "./consent-page";
import { authorizationServerFor, type GrantProps, proposedRole, scopesUpTo } from "./oauth-server";

const SECONDS_PER_DAY = 86_400;
/** The client's name as an agent-id segment: short enough to leave room for the token's agent id. */
const MAX_AGENT_SUFFIX_CHARS = 32;
/** Workspace patterns one grant may list. */
const MAX_GRANT_PATTERNS = 20;
function agentSuffixOf(clientName: string): string {
  const slug = clientName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_AGENT_SUFFIX_CHARS)
    .replace(/-+$/, "");
  return slug === "" ? "app" : slug;
}

/** Whether the token's patterns cover `pattern`: the same pattern, `**`, or a plain name one of them matches. */
function covers(granted: readonly string[], pattern: string): boolean {
  if (granted.includes("**") || granted.includes(pattern)) return true;
  return !pattern.includes("*") && isValidWorkspaceName(pattern) && granted.some((candidate) => matchesWorkspace(candidate, pattern));
}

type Choice = { ok: true; props: GrantProps } | { ok: false; problem: string };

/** What the person chose, held to the token: every part at most what the token allows. */
function grantOf(form: FormData, claims: TokenClaims, suffix: string, nowS: number): Choice {
  const agentField = String(form.get("agent_id") ?? "").trim();
  const agent = agentField === "" ? `${claims.sub}.${suffix}` : agentField;
  if (!isAgentId(agent)) {
    return { ok: false, problem: `the agent id must be at most ${MAX_AGENT_ID_CHARS} letters, digits and . _ : @ -` };
  }
  // A person names their own agents only: another agent's id would take over its leases, focus and lane.
  if (agent !== claims.sub && !agent.startsWith(`${claims.sub}.`)) {
    return { ok: false, problem: `the agent id must be your token's (${claims.sub.slice(0, 128)}) or start with it and a dot` };
  }
  const listed = String(form.get("workspaces") ?? "")
    .split(/[\s,]+/)
    .filter(Boolean);
  if (listed.length > MAX_GRANT_PATTERNS) return { ok: false, problem: `list at most ${MAX_GRANT_PATTERNS} workspace patterns` };
  const outside = listed.find((pattern) => !covers(claims.ws, pattern));
  if (outside !== undefined) return { ok: false, problem: `your token does not grant the workspaces "${outside.slice(0, 128)}"` };
  const role = String(form.get("role") ?? "read") as Role;
  if (!Object.hasOwn(ROLE_RANK, role)) return { ok: false, problem: "pick a role: read, write or admin" };
  if (ROLE_RANK[role] > ROLE_RANK[claims.role])
    return { ok: false, problem: `your token's role is ${claims.role}; the app cannot get ${role}` };
  const days = Number(form.get("lifetime_days") ?? DEFAULT_LIFETIME_DAYS);
  if (!(GRANT_LIFETIME_DAYS as readonly number[]).includes(days)) return { ok: false, problem: "pick a lifetime from the list" };
  return {
    ok: true,
    props: {
      agent_id: agent,
      workspaces: listed.length === 0 ? claims.ws : listed,
      role,
      token_jti: claims.jti as string,
      key_id: claims.kid,
      not_after: Math.min(nowS + days * SECONDS_PER_DAY, claims.exp),
    },
  };
}

/**
 * The authorization request as its URL carries it: the form posts back to the same URL, and its body
 * (the person's choices) is not part of the request the client made.
 */
function asQuery(request: Request): Request {
  return new Request(request.url, { method: "GET", headers: request.headers });
}

/** The consent page for a request the library accepted, with a problem to show after a refused attempt. */
async function showPage(oauth: OAuthHelpers, request: Request, problem?: string): Promise<Response> {
  const authRequest = await oauth.parseAuthRequest(asQuery(request));
  const details = await oauth.describeConsent(authRequest);
  const consent = await oauth.beginConsent(authRequest);
  const view = {
    details,
    handle: consent.handle,
    agentSuffix: agentSuffixOf(details.clientName),
    role: proposedRole(details.scope),
    ...(problem ? { problem } : {}),
  };
  return htmlAnswer(consentPage(view), problem === undefined ? 200 : 400, consent.headers);
}

async function decide(oauth: OAuthHelpers, request: Request, env: Env, nowMs: number): Promise<Response> {
  const form = await request.formData();
  const handle = String(form.get("handle") ?? "");
  if (form.get("decision") !== "approve") {
    const denied = await oauth.denyConsent(request, handle);
    denied.headers.set("Location", denied.redirectTo);
    return new Response(null, { status: 302, headers: denied.headers });
  }
  const token = await verifyTeamToken(env, String(form.get("team_token") ?? "").trim(), nowMs);
  if (!token.ok) return showPage(oauth, request, `the team token was refused (${token.reason})`);
  // A grant must end when its token is revoked, and only a token with an id can be revoked.
  if (token.claims.jti === undefined) {
    return showPage(oauth, request, "this team token has no id, so it could never be revoked: mint a new one with npm run token");
  }
  const authRequest = await oauth.parseAuthRequest(asQuery(request));
  const details = await oauth.describeConsent(authRequest);
  const choice = grantOf(form, token.claims, agentSuffixOf(details.clientName), Math.floor(nowMs / 1000));
  if (!choice.ok) return showPage(oauth, request, choice.problem);
  const scope = scopesUpTo(choice.props.role);
  const approved = await oauth.approveConsent(request, handle, { scope });
  const { redirectTo } = await oauth.completeAuthorization({
    request: approved.request,
    // The person is the team token's agent: their grants are listed and revoked under it (grants.ts).
    userId: encodeURIComponent(token.claims.sub),
    metadata: { agent_id: choice.props.agent_id, client_name: details.clientName },
    scope,
    props: choice.props,
  });
  approved.headers.set("Location", redirectTo);
  return new Response(null, { status: 302, headers: approved.headers });
}

/** `GET /authorize` shows the page; `POST /authorize` is the person's decision. */
export async function serveAuthorize(request: Request, env: Env, nowMs: number): Promise<Response> {
  const origin = new URL(request.url).origin;
  const oauth = authorizationServerFor(origin).getOAuthApi(env);
  try {
    if (request.method === "GET") return await showPage(oauth, request);
    if (request.method === "POST") return await decide(oauth, request, env, nowMs);
    return htmlAnswer(consentErrorPage("Open this page from your app."), 405, new Headers({ Allow: "GET, POST" }));
  } catch (error) {
    if (error instanceof AuthorizationError && error.redirectTo !== undefined) return Response.redirect(error.redirectTo, 302);
    if (error instanceof AuthorizationError) return htmlAnswer(consentErrorPage(error.description), 400);
    if (error instanceof CimdFetchError)
      return htmlAnswer(consentErrorPage("This app could not be verified: its metadata document is unreachable."), 400);
    throw error;
  }
}
