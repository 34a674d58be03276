/**
 * The OAuth flow as a client and a person run it, through the Worker's real fetch (test/oauth*.test.ts):
 * registration, the consent page (its cookies and one-time handle carried by hand, or its form submitted
 * as shown), the code exchange with PKCE, refresh, and tool calls with the access token.
 */
import { createExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import app from "../../src/worker/index";
import { formAsShown } from "./html-form";
import { toolCallRequest } from "./mcp";

export const ORIGIN = "http://localhost";
const REDIRECT = "http://localhost:33418/callback";

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

export async function send(path: string, init: RequestInit = {}, workerEnv?: Env): Promise<Response> {
  const request = new Request(`${ORIGIN}${path}`, { ...init, headers: { host: "localhost", ...(init.headers as Record<string, string>) } });
  return workerEnv === undefined ? exports.default.fetch(request) : app.fetch(request, workerEnv, createExecutionContext());
}

/** The cookies a response sets, as the next request sends them. */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

export async function registerClient(name = "Test Client"): Promise<string> {
  const response = await send("/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

export interface Started {
  page: string;
  cookies: string;
  handle: string;
  authorizePath: string;
  verifier: string;
  clientId: string;
}

export async function startAuthorization(scope = "read write", client?: string): Promise<Started> {
  const clientId = client ?? (await registerClient());
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "state-123",
    scope,
    resource: ORIGIN,
  });
  const authorizePath = `/authorize?${query}`;
  const response = await send(authorizePath);
  const page = await response.text();
  expect(response.status, page).toBe(200);
  const handle = /name="handle" value="([^"]+)"/.exec(page)?.[1] ?? "";
  return { page, cookies: cookiesOf(response), handle, authorizePath, verifier, clientId };
}

export async function consent(started: Started, fields: Record<string, string>): Promise<Response> {
  const body = new URLSearchParams({ handle: started.handle, decision: "approve", lifetime_days: "7", role: "write", ...fields });
  return send(started.authorizePath, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: started.cookies, origin: ORIGIN },
    body: body.toString(),
    redirect: "manual",
  });
}

/**
 * The person's part as a form-filling client does it: the consent page's form submitted with the values
 * it shows, only the team token typed in (and whatever `typed` changes, as a person would).
 */
export async function consentAsShown(started: Started, teamToken: string, typed: Record<string, string> = {}): Promise<Response> {
  const form = await formAsShown(started.page);
  expect(form.method).toBe("post");
  const body = new URLSearchParams({ ...form.fields, team_token: teamToken, ...typed });
  return send(started.authorizePath, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: started.cookies, origin: ORIGIN },
    body: body.toString(),
    redirect: "manual",
  });
}

export async function exchange(
  started: Started,
  redirect: string,
): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const code = new URL(redirect).searchParams.get("code") ?? "";
  const response = await send("/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: started.clientId,
      code_verifier: started.verifier,
      resource: ORIGIN,
    }).toString(),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text);
}

/** A refresh at the token endpoint (optionally under another environment): the raw answer. */
export async function refresh(clientId: string, refreshToken: string, workerEnv?: Env): Promise<Response> {
  return send(
    "/oauth/token",
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: refreshToken,
        client_id: clientId,
        resource: ORIGIN,
      }).toString(),
    },
    workerEnv,
  );
}

/** A whole flow: a person with `teamToken` consents with `fields`; the app's tokens. */
export async function connect(teamToken: string, fields: Record<string, string> = {}) {
  const started = await startAuthorization();
  const decided = await consent(started, { team_token: teamToken, ...fields });
  expect(decided.status, await decided.clone().text()).toBe(302);
  return { ...(await exchange(started, decided.headers.get("location") ?? "")), clientId: started.clientId };
}

export async function callWith(bearer: string, name: string, args: Record<string, unknown>, workerEnv?: Env): Promise<Response> {
  const request = toolCallRequest(name, args, { authorization: `Bearer ${bearer}` });
  return workerEnv === undefined ? exports.default.fetch(request) : app.fetch(request, workerEnv, createExecutionContext());
}

export async function structured(response: Response): Promise<Record<string, any>> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (JSON.parse(text) as { result: { structuredContent: Record<string, any> } }).result.structuredContent;
}
