/**
 * Authentication at the front door: turns a request into a principal, or into the HTTP answer that
 * refuses it. Dev mode (only when AUTH_MODE=dev is passed on the dev script's command line) trusts an
 * `X-Agent-Id` header; every other mode needs a bearer token signed with AUTH_SECRET, and a
 * deployment without that secret refuses every call.
 */
import type { Principal } from "../commands/context";
import { appError } from "../shared/errors";
import { MAX_AGENT_ID_CHARS } from "../shared/limits";
import { verifyToken } from "./token";

export type Authentication = { ok: true; principal: Principal } | { ok: false; response: Response };

/** Key id used when AUTH_KEY_ID is not set: tokens minted without --key-id carry it. */
export const DEFAULT_KEY_ID = "k1";
const DEV_AGENT = "local";
const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;

function errorResponse(status: number, error: ReturnType<typeof appError>, headers: Record<string, string> = {}): Response {
  return Response.json({ error }, { status, headers });
}

function unauthorized(reason: string): Response {
  return errorResponse(
    401,
    appError("UNAUTHORIZED", `Authentication failed: ${reason}.`, "Send `Authorization: Bearer <token>`; mint one with `npm run token`."),
    {
      "WWW-Authenticate": `Bearer realm="branchmind", error="invalid_token", error_description="${reason}"`,
    },
  );
}

export async function authenticate(request: Request, env: Env, nowMs: number): Promise<Authentication> {
  if (env.AUTH_MODE === "dev") {
    const agent = request.headers.get("X-Agent-Id")?.trim() || DEV_AGENT;
    if (agent.length > MAX_AGENT_ID_CHARS || !AGENT_ID_PATTERN.test(agent)) {
      return {
        ok: false,
        response: unauthorized("X-Agent-Id must be letters, digits and . _ : @ -"),
      };
    }
    return {
      ok: true,
      principal: {
        agent_id: agent,
        workspaces: ["**"],
        role: "admin",
        key_id: "dev",
      },
    };
  }
  if (!env.AUTH_SECRET) {
    return {
      ok: false,
      response: errorResponse(
        503,
        appError(
          "SERVER_MISCONFIGURED",
          "This server has no AUTH_SECRET and is not in dev mode, so it refuses every call.",
          "Operators: run `wrangler secret put AUTH_SECRET` (it applies without a redeploy; see docs/deploy.md).",
        ),
      ),
    };
  }
  const header = request.headers.get("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) return { ok: false, response: unauthorized("missing bearer token") };
  const check = await verifyToken(env.AUTH_SECRET, env.AUTH_KEY_ID ?? DEFAULT_KEY_ID, match[1], Math.floor(nowMs / 1000));
  if (!check.ok) return { ok: false, response: unauthorized(check.reason) };
  const { claims } = check;
  return {
    ok: true,
    principal: {
      agent_id: claims.sub,
      workspaces: claims.ws,
      role: claims.role,
      key_id: claims.kid,
    },
  };
}
