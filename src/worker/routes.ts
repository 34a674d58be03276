/**
 * URL routing of the front door: `/mcp`, and `/w/<workspace>/mcp` whose workspace is everything
 * between `/w/` and the final `/mcp` (so names containing `/` work, and `%2F` is decoded); the
 * viewer's JSON API under `/api/` (`viewer-api.ts`). The viewer's own files never reach the Worker:
 * they are static assets (wrangler.toml `[assets]`). Each route says how browsers may reach it
 * (`browserRuleOf`, applied by `browser-policy.ts`).
 */
import type { BrowserRule } from "./browser-policy";
import type { OAuthEndpoint } from "./oauth/oauth-routes";
import {
  AUTHORIZATION_SERVER_METADATA_PATH,
  AUTHORIZE_PATH,
  GRANTS_PATH,
  REGISTER_PATH,
  RESOURCE_METADATA_PATH,
  TOKEN_PATH,
} from "./oauth/oauth-server";
import { API_CALL_PATH, API_SESSION_PATH } from "./viewer-api";

export type Route =
  | { kind: "health" }
  | { kind: "oauth"; endpoint: OAuthEndpoint }
  | { kind: "mcp"; lock: string | undefined }
  | { kind: "api"; endpoint: "call" | "session" }
  | { kind: "not_found" };

const LOCKED_PREFIX = "/w/";
const MCP_SUFFIX = "/mcp";

/** The OAuth paths (served only while OAuth is on; otherwise the front door answers 404). */
function oauthEndpointOf(pathname: string): OAuthEndpoint | undefined {
  if (pathname === AUTHORIZE_PATH) return "authorize";
  if (pathname === GRANTS_PATH) return "grants";
  if (pathname === RESOURCE_METADATA_PATH || pathname.startsWith(`${RESOURCE_METADATA_PATH}/`)) return "resource_metadata";
  if (pathname === TOKEN_PATH || pathname === REGISTER_PATH) return "authorization_server";
  if (pathname === AUTHORIZATION_SERVER_METADATA_PATH || pathname.startsWith(`${AUTHORIZATION_SERVER_METADATA_PATH}/`))
    return "authorization_server";
  return undefined;
}

export function route(pathname: string): Route {
  if (pathname === "/health") return { kind: "health" };
  const oauth = oauthEndpointOf(pathname);
  if (oauth !== undefined) return { kind: "oauth", endpoint: oauth };
  if (pathname === MCP_SUFFIX) return { kind: "mcp", lock: undefined };
  if (pathname === API_CALL_PATH) return { kind: "api", endpoint: "call" };
  if (pathname === API_SESSION_PATH) return { kind: "api", endpoint: "session" };
  if (pathname.startsWith(LOCKED_PREFIX) && pathname.endsWith(MCP_SUFFIX)) {
    const raw = pathname.slice(LOCKED_PREFIX.length, pathname.length - MCP_SUFFIX.length);
    if (raw.length === 0) return { kind: "not_found" };
    try {
      return { kind: "mcp", lock: decodeURIComponent(raw) };
    } catch {
      return { kind: "not_found" };
    }
  }
  return { kind: "not_found" };
}

const MCP_RULE: BrowserRule = { access: "authenticated", methods: "GET, POST, DELETE" };
const API_RULE: BrowserRule = { access: "authenticated", methods: "GET, POST" };
const HEALTH_RULE: BrowserRule = { access: "public", methods: "GET" };
/** OAuth's metadata, token and registration endpoints: browser-based clients on any origin reach them. */
const OAUTH_PUBLIC_RULE: BrowserRule = { access: "public", methods: "GET, POST" };
/** The consent and grants pages: top-level pages that post to themselves. */
const CONSENT_RULE: BrowserRule = { access: "authenticated", methods: "GET, POST" };

/** How browsers may reach a route: only routes that need no token are public. */
export function browserRuleOf(target: Exclude<Route, { kind: "not_found" }>): BrowserRule {
  if (target.kind === "health") return HEALTH_RULE;
  if (target.kind === "oauth") return target.endpoint === "authorize" || target.endpoint === "grants" ? CONSENT_RULE : OAUTH_PUBLIC_RULE;
  return target.kind === "api" ? API_RULE : MCP_RULE;
}
