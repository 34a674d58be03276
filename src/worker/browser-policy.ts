/**
 * One host and origin policy for every route of the front door (docs/deploy.md, "Hosts and origins").
 * It runs before authentication, so a browser's preflight (`OPTIONS`) is answered without a token, and
 * it decides the CORS headers of every answer, so no route sends its own.
 *
 * - **Host** (DNS rebinding): the `Host` header and the URL must name a host this server answers for:
 *   a loopback name, a `*.workers.dev` name (Cloudflare routes only the Worker's own there), or one the
 *   operator lists in `ALLOWED_HOSTS` (a custom domain). A page on a foreign name rebound to 127.0.0.1
 *   gets nothing, with or without a token.
 * - **Origin**: a request without `Origin` (desktop, editor and CLI clients) passes. A browser's is
 *   accepted from the server's own origin (the viewer), from a loopback origin (local tools such as the
 *   MCP Inspector's web page) and from the origins listed in `ALLOWED_ORIGINS`; any other is refused.
 * - **CORS**: an authenticated route echoes the accepted origin (never `*`, with `Vary: Origin`);
 *   a public route (answers that need no token: `/health`, later the OAuth metadata and registration
 *   endpoints) accepts any origin and answers `*`.
 */
import { type AppError, appError } from "../shared/errors";

/** Who may read a route's answers from a browser: only the accepted origins, or anyone (no token needed). */
export type BrowserAccess = "authenticated" | "public";

export interface BrowserRule {
  access: BrowserAccess;
  /** The methods the route serves, as a preflight lists them. */
  methods: string;
}

type PolicyEnv = Pick<Env, "ALLOWED_HOSTS" | "ALLOWED_ORIGINS">;

export type PolicyVerdict = { ok: true; origin: string | null } | { ok: false; status: number; error: AppError; reason: string };

/** Host names a local server answers on; the only ones dev mode needs. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** Cloudflare routes a `*.workers.dev` name only to the Worker it names, so no other Worker's page shares it. */
const WORKERS_DEV_SUFFIX = ".workers.dev";
/** Request headers a browser client may send: auth, content negotiation, dev mode's agent, and MCP's own. */
const ALLOWED_REQUEST_HEADERS = ["Authorization", "Content-Type", "Accept", "Last-Event-ID", "X-Agent-Id"];
/** MCP's transport headers (`Mcp-Session-Id`, `Mcp-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and any it adds). */
const MCP_HEADER = /^mcp-[a-z0-9-]{1,64}$/i;
/** Headers a browser client must be able to read: MCP's, and the 401's pointer to how to authenticate. */
const EXPOSED_HEADERS = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate";
/** Chromium caps a cached preflight at two hours and ignores longer values. */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;
/** At most this many names of a preflight's `Access-Control-Request-Headers` are looked at. */
const MAX_REQUESTED_HEADERS = 32;
const LIST_SEPARATOR = /[\s,]+/;

interface Allowed {
  hosts: ReadonlySet<string>;
  /** Suffixes from `*.example.com` entries, with their leading dot. */
  hostSuffixes: readonly string[];
  origins: ReadonlySet<string>;
}

type Parsed = { ok: true; value: Allowed } | { ok: false; variable: "ALLOWED_HOSTS" | "ALLOWED_ORIGINS" };

const HOST_ENTRY = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    const plain = url.pathname === "/" && url.search === "" && url.hash === "" && url.username === "" && !text.endsWith("/");
    return (url.protocol === "https:" || url.protocol === "http:") && plain ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

let allowedCache: { key: string; parsed: Parsed } | undefined;

/** The operator's lists (cached per isolate while the variables stay the same); a malformed entry is reported, never guessed. */
function allowedOf(env: PolicyEnv): Parsed {
  const key = JSON.stringify([env.ALLOWED_HOSTS ?? "", env.ALLOWED_ORIGINS ?? ""]);
  if (allowedCache?.key === key) return allowedCache.parsed;
  const hostEntries = (env.ALLOWED_HOSTS ?? "").toLowerCase().split(LIST_SEPARATOR).filter(Boolean);
  const originEntries = (env.ALLOWED_ORIGINS ?? "").split(LIST_SEPARATOR).filter(Boolean);
  const origins = originEntries.map(originOf);
  let parsed: Parsed;
  if (!hostEntries.every((entry) => HOST_ENTRY.test(entry))) parsed = { ok: false, variable: "ALLOWED_HOSTS" };
  else if (origins.some((origin) => origin === undefined)) parsed = { ok: false, variable: "ALLOWED_ORIGINS" };
  else {
    parsed = {
      ok: true,
      value: {
        hosts: new Set(hostEntries.filter((entry) => !entry.startsWith("*."))),
        hostSuffixes: hostEntries.filter((entry) => entry.startsWith("*.")).map((entry) => entry.slice(1)),
        origins: new Set(origins as string[]),
      },
    };
  }
  allowedCache = { key, parsed };
  return parsed;
}

/** The host name of a `Host` header value (`name:port`, `[v6]:port`), lowercased. */
function hostnameOf(host: string): string {
  return host.replace(/:\d+$/, "").toLowerCase();
}

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

function servesHost(hostname: string, allowed: Allowed): boolean {
  return (
    isLoopback(hostname) ||
    hostname.endsWith(WORKERS_DEV_SUFFIX) ||
    allowed.hosts.has(hostname) ||
    allowed.hostSuffixes.some((suffix) => hostname.endsWith(suffix))
  );
}

function acceptsOrigin(origin: string, url: URL, allowed: Allowed): boolean {
  if (origin === url.origin || allowed.origins.has(origin)) return true;
  const parsed = originOf(origin);
  return parsed !== undefined && isLoopback(new URL(parsed).hostname);
}

function misconfigured(variable: string): PolicyVerdict {
  return {
    ok: false,
    status: 503,
    error: appError(
      "SERVER_MISCONFIGURED",
      `${variable} is malformed, so this server refuses every request.`,
      `Operators: list ${variable === "ALLOWED_HOSTS" ? "host names (example.com or *.example.com)" : "origins (https://app.example.com)"} separated by commas or spaces (docs/deploy.md, hosts and origins).`,
    ),
    reason: `${variable} malformed`,
  };
}

/** Whether this request may be served at all: its host, then (for an authenticated route) its origin. */
export function checkBrowserRules(request: Request, rule: BrowserRule, env: PolicyEnv): PolicyVerdict {
  const allowed = allowedOf(env);
  if (!allowed.ok) return misconfigured(allowed.variable);
  const url = new URL(request.url);
  const host = hostnameOf(request.headers.get("Host") ?? url.host);
  if (!servesHost(host, allowed.value) || !servesHost(url.hostname.toLowerCase(), allowed.value)) {
    return {
      ok: false,
      status: 403,
      error: appError(
        "FORBIDDEN",
        `This server does not answer for the host "${host}".`,
        "Use the server's own address (localhost or 127.0.0.1 when local). Operators add a custom domain to ALLOWED_HOSTS (docs/deploy.md).",
      ),
      reason: "foreign host",
    };
  }
  const origin = request.headers.get("Origin");
  if (origin === null || rule.access === "public") return { ok: true, origin };
  if (!acceptsOrigin(origin, url, allowed.value)) {
    return {
      ok: false,
      status: 403,
      error: appError(
        "FORBIDDEN",
        `Browser pages of the origin "${origin}" may not call this server.`,
        "Call it from the server's own pages, from localhost, or without a browser. Operators add an origin to ALLOWED_ORIGINS (docs/deploy.md).",
      ),
      reason: "foreign origin",
    };
  }
  return { ok: true, origin };
}

function allowedRequestHeaders(request: Request): string {
  const requested = (request.headers.get("Access-Control-Request-Headers") ?? "").split(LIST_SEPARATOR).slice(0, MAX_REQUESTED_HEADERS);
  const mcp = requested.filter((name) => MCP_HEADER.test(name)).map((name) => name.toLowerCase());
  return [...ALLOWED_REQUEST_HEADERS, ...new Set(mcp)].join(", ");
}

/** The answer to an accepted `OPTIONS` request: what a browser may send, with no body and no token needed. */
export function preflightAnswer(request: Request, rule: BrowserRule, origin: string | null): Response {
  const answer = withBrowserHeaders(new Response(null, { status: 204, headers: { Allow: `${rule.methods}, OPTIONS` } }), rule, origin);
  if (origin !== null) {
    answer.headers.set("Access-Control-Allow-Methods", `${rule.methods}, OPTIONS`);
    answer.headers.set("Access-Control-Allow-Headers", allowedRequestHeaders(request));
    answer.headers.set("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_SECONDS));
  }
  return answer;
}

/**
 * The answer with the policy's CORS headers and no one else's (any `Access-Control-*` header it had is
 * dropped): an accepted origin is echoed on an authenticated route, `*` on a public one; without an
 * `Origin` no CORS header is sent.
 */
export function withBrowserHeaders(response: Response, rule: BrowserRule, origin: string | null): Response {
  const headers = new Headers(response.headers);
  for (const name of [...headers.keys()]) if (name.startsWith("access-control-")) headers.delete(name);
  headers.append("Vary", "Origin");
  if (origin !== null) {
    headers.set("Access-Control-Allow-Origin", rule.access === "public" ? "*" : origin);
    headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
