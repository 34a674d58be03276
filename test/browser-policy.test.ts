// The front door's host and origin policy (issue: browser rules), attacked through the Worker's real
// fetch: preflights are answered before auth, authenticated answers never carry `*`, and a
// DNS-rebinding-shaped request (Host and Origin both a foreign name) is refused on every route, with or
// without a token. The operator's lists are tried through the same Worker with an edited environment.
import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../src/worker/index";
import { rpc, token } from "./helpers/mcp";

/** The Worker as the runtime calls it, with an execution context of its own. */
const worker = { fetch: (request: Request, workerEnv: Env) => app.fetch(request, workerEnv, createExecutionContext()) };

const LOCAL_TOOL = "http://localhost:6274";
const EVIL = "evil.example";

interface Sent {
  method?: string;
  host?: string;
  origin?: string;
  bearer?: string;
  headers?: Record<string, string>;
  body?: string;
}

function request(path: string, sent: Sent = {}): Request {
  const host = sent.host ?? "localhost";
  const headers: Record<string, string> = { host, ...sent.headers };
  if (sent.origin !== undefined) headers.origin = sent.origin;
  if (sent.bearer !== undefined) headers.authorization = `Bearer ${sent.bearer}`;
  if (sent.body !== undefined) headers["content-type"] = "application/json";
  return new Request(`http://${host}${path}`, { method: sent.method ?? "GET", headers, body: sent.body ?? null });
}

async function send(path: string, sent: Sent = {}): Promise<Response> {
  return exports.default.fetch(request(path, sent));
}

/** The same Worker with the operator's variables set as a deployment would set them. */
async function sendWith(vars: Record<string, string>, path: string, sent: Sent = {}): Promise<Response> {
  return worker.fetch(request(path, sent), { ...env, ...vars } as Env);
}

function preflight(origin: string, extra: Sent = {}): Sent {
  return {
    method: "OPTIONS",
    origin,
    ...extra,
    headers: {
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type, mcp-protocol-version, mcp-method, mcp-name, x-evil",
      ...extra.headers,
    },
  };
}

async function errorOf(response: Response): Promise<{ code: string; message: string; recovery_hint: string }> {
  const body = (await response.json()) as { error: unknown };
  const error = body.error as { data?: unknown; code: unknown };
  return (typeof error.code === "number" ? error.data : error) as { code: string; message: string; recovery_hint: string };
}

const API_CALL = JSON.stringify({ command: "workspace.list" });

describe("preflights", () => {
  it("are answered before auth for an accepted origin, on /mcp, a locked URL and /api", async () => {
    for (const path of ["/mcp", "/w/acme/app/mcp", "/api/call", "/api/session"]) {
      const answer = await send(path, preflight(LOCAL_TOOL));
      expect(answer.status, path).toBe(204);
      expect(answer.headers.get("access-control-allow-origin")).toBe(LOCAL_TOOL);
      expect(answer.headers.get("vary")).toContain("Origin");
      const allowed = (answer.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(", ");
      for (const name of ["authorization", "content-type", "mcp-protocol-version", "mcp-method", "mcp-name"])
        expect(allowed).toContain(name);
      expect(allowed).not.toContain("x-evil");
      expect(answer.headers.get("access-control-allow-methods")).toContain("POST");
      expect(Number(answer.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    }
  });

  it("are refused for a foreign origin, without any CORS header", async () => {
    const answer = await send("/mcp", preflight(`https://${EVIL}`));
    expect(answer.status).toBe(403);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    const error = await errorOf(answer);
    expect(error.code).toBe("FORBIDDEN");
    expect(error.recovery_hint).toContain("ALLOWED_ORIGINS");
  });
});

describe("authenticated answers", () => {
  it("echo an accepted origin and never send a wildcard", async () => {
    const fromTool = await rpc("tools/list", {}, { headers: { origin: LOCAL_TOOL } });
    expect(fromTool.status).toBe(200);
    expect(fromTool.headers.get("access-control-allow-origin")).toBe(LOCAL_TOOL);
    expect(fromTool.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
    await fromTool.body?.cancel();
    const noBrowser = await rpc("tools/list", {});
    expect(noBrowser.status).toBe(200);
    expect(noBrowser.headers.get("access-control-allow-origin")).toBeNull();
    await noBrowser.body?.cancel();
    const api = await send("/api/call", { method: "POST", origin: "http://localhost", bearer: await token(), body: API_CALL });
    expect(api.status).toBe(200);
    expect(api.headers.get("access-control-allow-origin")).toBe("http://localhost");
    await api.body?.cancel();
  });

  it("let a browser on an accepted origin read a 401 and how to authenticate", async () => {
    const answer = await send("/mcp", { method: "POST", origin: LOCAL_TOOL, body: "{}" });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBe(LOCAL_TOOL);
    expect(answer.headers.get("www-authenticate")).toContain("Bearer");
    await answer.body?.cancel();
  });

  it("refuse the opaque origin of a sandboxed page or a file", async () => {
    const answer = await rpc("tools/list", {}, { headers: { origin: "null" } });
    expect(answer.status).toBe(403);
    await answer.body?.cancel();
  });
});

describe("DNS-rebinding-shaped requests (Host and Origin both a foreign name)", () => {
  it("are refused on every route, even with a valid token", async () => {
    const bearer = await token();
    const attack = { host: `${EVIL}:8788`, origin: `http://${EVIL}:8788`, bearer };
    const api = await send("/api/call", { ...attack, method: "POST", body: API_CALL });
    expect(api.status).toBe(403);
    expect((await errorOf(api)).message).toContain(EVIL);
    const session = await send("/api/session", attack);
    expect(session.status).toBe(403);
    await session.body?.cancel();
    const mcp = await rpc("tools/list", {}, { headers: { host: `${EVIL}:8788`, origin: `http://${EVIL}:8788` } });
    expect(mcp.status).toBe(403);
    expect((await errorOf(mcp)).recovery_hint).toContain("ALLOWED_HOSTS");
    const health = await send("/health", { host: EVIL });
    expect(health.status).toBe(403);
    await health.body?.cancel();
    const pre = await send("/mcp", preflight(`http://${EVIL}:8788`, { host: `${EVIL}:8788` }));
    expect(pre.status).toBe(403);
    await pre.body?.cancel();
  });

  it("are refused when only the Host is foreign (a same-origin page of a rebound name, no Origin sent)", async () => {
    const answer = await send("/api/session", { host: EVIL, bearer: await token() });
    expect(answer.status).toBe(403);
    await answer.body?.cancel();
  });
});

describe("public routes", () => {
  it("/health answers any origin with a wildcard, and needs no token", async () => {
    const answer = await send("/health", { origin: "https://anyone.example" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(await answer.json()).toMatchObject({ ok: true });
  });
});

describe("the operator's lists", () => {
  const CUSTOM = "mcp.acme.example";

  it("a custom domain is served only once ALLOWED_HOSTS names it (exactly or by *.suffix)", async () => {
    const bearer = await token();
    const before = await sendWith({}, "/api/session", { host: CUSTOM, bearer });
    expect(before.status).toBe(403);
    expect((await errorOf(before)).recovery_hint).toContain("ALLOWED_HOSTS");
    const exact = await sendWith({ ALLOWED_HOSTS: `other.example, ${CUSTOM}` }, "/api/session", { host: CUSTOM, bearer });
    expect(exact.status).toBe(200);
    await exact.body?.cancel();
    const suffix = await sendWith({ ALLOWED_HOSTS: "*.acme.example" }, "/api/session", { host: CUSTOM, bearer });
    expect(suffix.status).toBe(200);
    await suffix.body?.cancel();
    const notParent = await sendWith({ ALLOWED_HOSTS: "*.acme.example" }, "/api/session", { host: "acme.example.evil.example", bearer });
    expect(notParent.status).toBe(403);
    await notParent.body?.cancel();
  });

  it("the server's own origin and ALLOWED_ORIGINS are accepted; other origins are not", async () => {
    const bearer = await token();
    const vars = { ALLOWED_HOSTS: CUSTOM, ALLOWED_ORIGINS: "https://app.acme.example" };
    const own = await sendWith(vars, "/api/session", { host: CUSTOM, origin: `http://${CUSTOM}`, bearer });
    expect(own.status).toBe(200);
    expect(own.headers.get("access-control-allow-origin")).toBe(`http://${CUSTOM}`);
    await own.body?.cancel();
    const listed = await sendWith(vars, "/api/session", { host: CUSTOM, origin: "https://app.acme.example", bearer });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://app.acme.example");
    await listed.body?.cancel();
    const unlisted = await sendWith(vars, "/api/session", { host: CUSTOM, origin: "https://other.acme.example", bearer });
    expect(unlisted.status).toBe(403);
    await unlisted.body?.cancel();
  });

  it("a malformed list refuses every request as SERVER_MISCONFIGURED, naming the variable and not its value", async () => {
    const hosts = await sendWith({ ALLOWED_HOSTS: "https://mcp.acme.example/" }, "/health");
    expect(hosts.status).toBe(503);
    const error = await errorOf(hosts);
    expect(error.code).toBe("SERVER_MISCONFIGURED");
    expect(error.message).toContain("ALLOWED_HOSTS");
    expect(error.message).not.toContain("acme");
    const origins = await sendWith({ ALLOWED_ORIGINS: "app.acme.example" }, "/health");
    expect(origins.status).toBe(503);
    expect((await errorOf(origins)).message).toContain("ALLOWED_ORIGINS");
  });
});
