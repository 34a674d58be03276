/**
 * URL routing of the front door: `/mcp`, and `/w/<workspace>/mcp` whose workspace is everything
 * between `/w/` and the final `/mcp` (so names containing `/` work, and `%2F` is decoded).
 */

export type Route = { kind: "health" } | { kind: "mcp"; lock: string | undefined } | { kind: "not_found" };

const LOCKED_PREFIX = "/w/";
const MCP_SUFFIX = "/mcp";

export function route(pathname: string): Route {
  if (pathname === "/health") return { kind: "health" };
  if (pathname === MCP_SUFFIX) return { kind: "mcp", lock: undefined };
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
