/**
 * Authentication at the front door: turns a request into a principal, or into the HTTP answer that
 * refuses it. Dev mode (only when AUTH_MODE=dev is passed on the dev script's command line) trusts an
 * `X-Agent-Id` header; every other mode needs a bearer token signed with a configured key, and a
 * deployment without any key refuses every call.
 *
 * The keys and the revocation list are team-tokens.ts's; with OAuth on, a bearer credential that is
 * not a team token is an OAuth access token (oauth/oauth-auth.ts), and every 401 says where the
 * protected-resource metadata is.
 */
import type { Principal } from "../commands/context";
import { type AppError, appError } from "../shared/errors";
import { verifyOAuthToken } from "./oauth/oauth-auth";
import { ORDINARY_SCOPE, oauthEnabled, RESOURCE_METADATA_PATH } from "./oauth/oauth-server";
import { checkTeamToken, isAgentId, keyRingOf, type Problem, revokedIdsOf } from "./team-tokens";
import { isTeamToken } from "./token";

/** Why a request was refused: what the front door logs (never the token). */
export interface Refusal {
  code: AppError["code"];
  reason: string;
}

export type Authentication = { ok: true; principal: Principal } | { ok: false; response: Response; refusal: Refusal };

type AuthEnv = Pick<Env, "AUTH_MODE" | "AUTH_SECRET" | "AUTH_KEY_ID" | "AUTH_SECRETS" | "AUTH_REVOKED" | "OAUTH_KV">;

const DEV_AGENT = "local";

function refused(status: number, error: AppError, reason: string, headers: Record<string, string> = {}): Authentication {
  return {
    ok: false,
    response: Response.json({ error }, { status, headers }),
    refusal: { code: error.code, reason },
  };
}

/**
 * A 401 whose challenge names the reason (clients show `error_description`) and, when OAuth is on,
 * where its protected-resource metadata is (RFC 9728), so a client can start the OAuth flow. `recovery`
 * replaces the general hint when the refusal has a way back of its own.
 */
function unauthorized(reason: string, resourceMetadataUrl?: string, recovery?: string): Authentication {
  // With OAuth on, the challenge also names the scope of ordinary work, which a client then asks for.
  const metadata = resourceMetadataUrl === undefined ? "" : `, resource_metadata="${resourceMetadataUrl}", scope="${ORDINARY_SCOPE}"`;
  const hint =
    recovery ??
    (resourceMetadataUrl === undefined
      ? "Send `Authorization: Bearer <token>`; mint one with `npm run token`."
      : "Send `Authorization: Bearer <token>` (a team token from `npm run token`), or connect through OAuth (docs/oauth.md).");
  return refused(401, appError("UNAUTHORIZED", `Authentication failed: ${reason}.`, hint), reason, {
    "WWW-Authenticate": `Bearer realm="branchmind"${metadata}, error="invalid_token", error_description="${reason}"`,
  });
}

/** A valid OAuth token whose scopes allow nothing here: 403 naming the least scope that would (RFC 6750 §3.1). */
function insufficientScope(reason: string, resourceMetadataUrl?: string): Authentication {
  const metadata = resourceMetadataUrl === undefined ? "" : `, resource_metadata="${resourceMetadataUrl}"`;
  return refused(
    403,
    appError("FORBIDDEN", `Not allowed: ${reason}.`, "Connect the app again and grant it at least the read role (scope read)."),
    reason,
    { "WWW-Authenticate": `Bearer realm="branchmind"${metadata}, error="insufficient_scope", scope="read", error_description="${reason}"` },
  );
}

function misconfigured(problem: Problem): Authentication {
  return refused(503, appError("SERVER_MISCONFIGURED", problem.message, problem.hint), problem.reason);
}

export async function authenticate(request: Request, env: AuthEnv, nowMs: number): Promise<Authentication> {
  if (env.AUTH_MODE === "dev") {
    const agent = request.headers.get("X-Agent-Id")?.trim() || DEV_AGENT;
    if (!isAgentId(agent)) {
      return unauthorized("X-Agent-Id must be letters, digits and . _ : @ -");
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
  const keys = keyRingOf(env);
  if (!keys.ok) return misconfigured(keys);
  const revoked = revokedIdsOf(env);
  if (!revoked.ok) return misconfigured(revoked);

  const oauth = oauthEnabled(env) ? new URL(request.url).origin : undefined;
  const challenge = oauth === undefined ? undefined : `${oauth}${RESOURCE_METADATA_PATH}`;
  const header = request.headers.get("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) return unauthorized("missing bearer token", challenge);
  if (oauth !== undefined && !isTeamToken(match[1])) {
    const grant = await verifyOAuthToken(oauth, match[1], env as Env, Math.floor(nowMs / 1000));
    if (grant.ok) return { ok: true, principal: grant.principal };
    return grant.insufficientScope ? insufficientScope(grant.reason, challenge) : unauthorized(grant.reason, challenge, grant.hint);
  }
  const check = await checkTeamToken(keys.value, revoked.value, match[1], Math.floor(nowMs / 1000));
  if (!check.ok) return unauthorized(check.reason, challenge, check.hint);
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
