/**
 * URL routing of the front door: `/mcp`, and `/w/<workspace>/mcp` whose workspace is everything
 * between `/w/` and the final `/mcp` (so names containing `/` work, and `%2F` is decoded); the
 * viewer's JSON API under `/api/` (`viewer-api.ts`). The viewer's own files never reach the Worker:
 * they are static assets (wrangler.toml `[assets]`). Each route says how browsers may reach it
 * (`browserRuleOf`, applied by `browser-policy.ts`).
 */
import type { BrowserRule } from "./browser-policy";
import { API_CALL_PATH, API_SESSION_PATH } from "./viewer-api";

export type Route =
  | { kind: "health" }
  | { kind: "mcp"; lock: string | undefined }
  | { kind: "api"; endpoint: "call" | "session" }
  | { kind: "not_found" };

const LOCKED_PREFIX = "/w/";
const MCP_SUFFIX = "/mcp";

export function route(pathname: string): Route {
  if (pathname === "/health") return { kind: "health" };
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

/** How browsers may reach a route: only routes that need no token are public. */
export function browserRuleOf(target: Exclude<Route, { kind: "not_found" }>): BrowserRule {
  if (target.kind === "health") return HEALTH_RULE;
  return target.kind === "api" ? API_RULE : MCP_RULE;
}
