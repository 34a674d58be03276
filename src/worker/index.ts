/**
 * The Worker: a stateless front door. It routes, applies the host and origin policy (answering a
 * browser's preflight before anything else, `browser-policy.ts`), caps the request body, authenticates,
 * resolves the toolset and the URL's workspace lock, and hands the request to the MCP handler, or an
 * `/api/*` request to the viewer's read-only JSON API (`viewer-api.ts`; the viewer's files are static assets).
 * It keeps no state and knows no domain rules; the Durable Objects are exported from here for the
 * runtime. Every request it refuses writes one `refused` JSON log line (`call-log.ts`), without the token.
 */

import { appError } from "../shared/errors";
import { MAX_REQUEST_BODY_BYTES } from "../shared/limits";
import { isValidWorkspaceName } from "../shared/names";
import { authenticate } from "./auth";
import { boundedBatchAnswer, oversizedBatch } from "./batch";
import { checkBrowserRules, preflightAnswer, withBrowserHeaders } from "./browser-policy";
import { refusalLogLine } from "./call-log";
import { MCP_ROUTE, SERVER_INFO, serveMcp } from "./mcp";
import { serveOAuth } from "./oauth/oauth-routes";
import { oauthEnabled } from "./oauth/oauth-server";
import { browserRuleOf, type Route, route } from "./routes";
import { connectionOf, DEFAULT_SURFACE, isSurfaceName, SURFACE_NAMES, type SurfaceName } from "./surfaces/surfaces";
import { serveViewerApi } from "./viewer-api";

export { DirectoryObject } from "../hosts/directory/directory-object";
export { WorkspaceObject } from "../hosts/workspace/workspace-object";

/** Logs a refused request (status, error code, a fixed reason: never the request's content) and returns its answer. */
function refuse(response: Response, code: string, reason: string): Response {
  console.log(refusalLogLine({ ts: new Date().toISOString(), status: response.status, outcome: code, reason }));
  return response;
}

function jsonRpcError(status: number, code: number, message: string, data: unknown): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message, data }, id: null }, { status });
}

function tooLarge(): Response {
  const error = appError(
    "PAYLOAD_TOO_LARGE",
    `Request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes.`,
    "Split the content over several calls (one note holds at most 256 KB).",
    { max_bytes: MAX_REQUEST_BODY_BYTES },
  );
  return jsonRpcError(413, -32600, error.message, error);
}

/** Reads the body up to the cap; undefined when it is larger. */
async function boundedBody(request: Request): Promise<ArrayBuffer | undefined> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > MAX_REQUEST_BODY_BYTES) return undefined;
  const body = await request.arrayBuffer();
  return body.byteLength > MAX_REQUEST_BODY_BYTES ? undefined : body;
}

/**
 * The body as the MCP handler parses it, when it is a JSON object or array (a JSON-RPC message or a
 * batch). Handed over parsed, it spares the handler its own reads of the body (a clone to classify the
 * request's protocol era, then the message itself): about half a millisecond of every call. Anything
 * else (not JSON, a bare value) is left to the handler, which reads and refuses it as it always has.
 */
function jsonMessageOf(body: ArrayBuffer | undefined): object | undefined {
  if (body === undefined || body.byteLength === 0) return undefined;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
    return parsed !== null && typeof parsed === "object" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Serves a request the host and origin policy accepted (preflights are answered before this). */
async function serveRoute(
  request: Request,
  url: URL,
  target: Exclude<Route, { kind: "not_found" | "oauth" }>,
  env: Env,
): Promise<Response> {
  if (target.kind === "health") return Response.json({ ok: true, server: SERVER_INFO });

  let surface: SurfaceName = DEFAULT_SURFACE;
  if (target.kind === "mcp") {
    if (target.lock !== undefined && !isValidWorkspaceName(target.lock)) {
      const error = appError(
        "INVALID_NAME",
        `"${target.lock}" is not a valid workspace name.`,
        "Use /w/<workspace>/mcp with letters, digits and . _ / -.",
      );
      return refuse(Response.json({ error }, { status: 400 }), error.code, "invalid workspace lock");
    }
    const toolset = url.searchParams.get("toolset") ?? DEFAULT_SURFACE;
    if (!isSurfaceName(toolset)) {
      const error = appError("INVALID_INPUT", `Unknown toolset "${toolset}".`, `Use one of: ${SURFACE_NAMES.join(", ")}.`);
      return refuse(Response.json({ error }, { status: 400 }), error.code, "unknown toolset");
    }
    surface = toolset;
  }

  let body: ArrayBuffer | undefined;
  if (request.method === "POST") {
    body = await boundedBody(request);
    if (body === undefined) return refuse(tooLarge(), "PAYLOAD_TOO_LARGE", "request body too large");
  }
  const auth = await authenticate(request, env, Date.now());
  if (!auth.ok) return refuse(auth.response, auth.refusal.code, auth.refusal.reason);
  if (target.kind === "api") return serveViewerApi(request, target.endpoint, body, auth.principal, env);

  const mcpUrl = new URL(url);
  mcpUrl.pathname = MCP_ROUTE;
  const forwarded = new Request(mcpUrl, {
    method: request.method,
    headers: request.headers,
    body: body ?? null,
    signal: request.signal,
  });
  const message = jsonMessageOf(body);
  const oversized = oversizedBatch(message);
  if (oversized) return refuse(oversized, "INVALID_INPUT", "batch too large");
  const answer = serveMcp(
    forwarded,
    {
      principal: auth.principal,
      lock: target.lock,
      env,
      surface,
      connection: connectionOf(surface, target.lock),
    },
    message,
  );
  return Array.isArray(message) ? boundedBatchAnswer(await answer) : answer;
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    const target = route(url.pathname);
    if (target.kind === "not_found" || (target.kind === "oauth" && !oauthEnabled(env))) return new Response("Not Found", { status: 404 });
    const rule = browserRuleOf(target);
    const verdict = checkBrowserRules(request, rule, env);
    if (!verdict.ok) {
      const { status, error, reason } = verdict;
      const body = target.kind === "mcp" ? jsonRpcError(status, -32000, error.message, error) : Response.json({ error }, { status });
      return refuse(body, error.code, reason);
    }
    if (request.method === "OPTIONS") return preflightAnswer(request, rule, verdict.origin);
    if (target.kind === "oauth") {
      const declared = Number(request.headers.get("Content-Length") ?? "0");
      if (declared > MAX_REQUEST_BODY_BYTES) return refuse(tooLarge(), "PAYLOAD_TOO_LARGE", "request body too large");
      return withBrowserHeaders(await serveOAuth(request, target.endpoint, env, ctx), rule, verdict.origin);
    }
    return withBrowserHeaders(await serveRoute(request, url, target, env), rule, verdict.origin);
  },
} satisfies ExportedHandler<Env>;
