/**
 * Authentication at the front door: turns a request into a principal, or into the HTTP answer that
 * refuses it. Dev mode (only when AUTH_MODE=dev is passed on the dev script's command line) trusts an
 * `X-Agent-Id` header; every other mode needs a bearer token signed with a configured key, and a
 * deployment without any key refuses every call.
 *
 * Keys: AUTH_SECRET is the secret of key id AUTH_KEY_ID (default k1); AUTH_SECRETS adds more keys
 * (a JSON object `{"k2": "<secret>"}` or `k2:<secret>,k3:<secret>`), so a deployment can accept the
 * old and the new key while tokens are re-minted. Revocation: AUTH_REVOKED lists token ids (`jti`),
 * comma- or whitespace-separated; it is read from the environment on every request, so
 * `wrangler secret put AUTH_REVOKED` takes effect without a redeploy and costs no network hop.
 * See docs/deploy.md for the procedures and the size limit.
 */
import type { Principal } from "../commands/context";
import { type AppError, appError } from "../shared/errors";
import { MAX_AGENT_ID_CHARS } from "../shared/limits";
import { verifyOAuthToken } from "./oauth/oauth-auth";
import { oauthEnabled, RESOURCE_METADATA_PATH } from "./oauth/oauth-server";
import { isTeamToken, isTokenIdText, type KeyRing, type TokenClaims, verifyToken } from "./token";

/** Why a request was refused: what the front door logs (never the token). */
export interface Refusal {
  code: AppError["code"];
  reason: string;
}

export type Authentication = { ok: true; principal: Principal } | { ok: false; response: Response; refusal: Refusal };

type AuthEnv = Pick<Env, "AUTH_MODE" | "AUTH_SECRET" | "AUTH_KEY_ID" | "AUTH_SECRETS" | "AUTH_REVOKED" | "OAUTH_KV">;

/** Key id used when AUTH_KEY_ID is not set: tokens minted without --key-id carry it. */
export const DEFAULT_KEY_ID = "k1";
const DEV_AGENT = "local";
export const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;
const LIST_SEPARATOR = /[\s,]+/;

function refused(status: number, error: AppError, reason: string, headers: Record<string, string> = {}): Authentication {
  return {
    ok: false,
    response: Response.json({ error }, { status, headers }),
    refusal: { code: error.code, reason },
  };
}

/**
 * A 401 whose challenge names the reason (clients show `error_description`) and, when OAuth is on,
 * where its protected-resource metadata is (RFC 9728), so a client can start the OAuth flow.
 */
function unauthorized(reason: string, resourceMetadataUrl?: string): Authentication {
  const metadata = resourceMetadataUrl === undefined ? "" : `, resource_metadata="${resourceMetadataUrl}"`;
  const hint =
    resourceMetadataUrl === undefined
      ? "Send `Authorization: Bearer <token>`; mint one with `npm run token`."
      : "Send `Authorization: Bearer <token>` (a team token from `npm run token`), or connect through OAuth (docs/oauth.md).";
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

/** A configuration problem: the message names the variable, never its value. */
interface Problem {
  message: string;
  hint: string;
  reason: string;
}

type Parsed<T> = { ok: true; value: T } | ({ ok: false } & Problem);

function misconfigured(problem: Problem): Authentication {
  return refused(503, appError("SERVER_MISCONFIGURED", problem.message, problem.hint), problem.reason);
}

const NO_SECRET: Problem = {
  message: "This server has no AUTH_SECRET (nor AUTH_SECRETS) and is not in dev mode, so it refuses every call.",
  hint: "Operators: run `wrangler secret put AUTH_SECRET` (it applies without a redeploy; see docs/deploy.md).",
  reason: "no secret configured",
};
const BAD_SECRETS: Problem = {
  message:
    'AUTH_SECRETS is malformed (it must be a JSON object {"<key id>": "<secret>"} or <key id>:<secret> pairs separated by commas), so this server refuses every call.',
  hint: "Operators: set AUTH_SECRETS again with `wrangler secret put AUTH_SECRETS` (see docs/deploy.md, rotating keys).",
  reason: "AUTH_SECRETS malformed",
};
const BAD_REVOKED: Problem = {
  message:
    "AUTH_REVOKED is malformed (it must list token ids: letters, digits and . _ -, separated by commas or spaces), so this server refuses every call.",
  hint: "Operators: set AUTH_REVOKED again with `wrangler secret put AUTH_REVOKED` (see docs/deploy.md, revoking a token).",
  reason: "AUTH_REVOKED malformed",
};

/** Pairs of AUTH_SECRETS, or undefined when it is neither form (no value is ever echoed). */
function parseExtraSecrets(text: string): [string, string][] | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  let pairs: [string, unknown][];
  if (trimmed.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
      pairs = Object.entries(parsed);
    } catch {
      return undefined;
    }
  } else {
    pairs = trimmed.split(LIST_SEPARATOR).map((entry) => {
      const colon = entry.indexOf(":");
      return colon < 0 ? ["", undefined] : [entry.slice(0, colon), entry.slice(colon + 1)];
    });
  }
  const valid = pairs.every(([kid, secret]) => isTokenIdText(kid) && typeof secret === "string" && secret.length > 0);
  return valid ? (pairs as [string, string][]) : undefined;
}

let ringCache: { key: string; ring: Parsed<KeyRing> } | undefined;

/** The accepted keys (cached per isolate while the variables stay the same). */
export function keyRingOf(env: AuthEnv): Parsed<KeyRing> {
  const cacheKey = JSON.stringify([env.AUTH_SECRET ?? null, env.AUTH_KEY_ID ?? null, env.AUTH_SECRETS ?? null]);
  if (ringCache?.key === cacheKey) return ringCache.ring;
  const ring = new Map<string, string[]>();
  const add = (kid: string, secret: string) => {
    const secrets = ring.get(kid) ?? [];
    if (!secrets.includes(secret)) secrets.push(secret);
    ring.set(kid, secrets);
  };
  if (env.AUTH_SECRET) add(env.AUTH_KEY_ID?.trim() || DEFAULT_KEY_ID, env.AUTH_SECRET);
  const extra = parseExtraSecrets(env.AUTH_SECRETS ?? "");
  let result: Parsed<KeyRing>;
  if (extra === undefined) {
    result = { ok: false, ...BAD_SECRETS };
  } else {
    for (const [kid, secret] of extra) add(kid, secret);
    result = ring.size > 0 ? { ok: true, value: ring } : { ok: false, ...NO_SECRET };
  }
  ringCache = { key: cacheKey, ring: result };
  return result;
}

let revokedCache: { key: string; revoked: Parsed<ReadonlySet<string>> } | undefined;

/** The revoked token ids (cached per isolate while AUTH_REVOKED stays the same). */
export function revokedIdsOf(env: AuthEnv): Parsed<ReadonlySet<string>> {
  const text = env.AUTH_REVOKED ?? "";
  if (revokedCache?.key === text) return revokedCache.revoked;
  const ids = text.split(LIST_SEPARATOR).filter((id) => id !== "");
  const revoked: Parsed<ReadonlySet<string>> = ids.every(isTokenIdText) ? { ok: true, value: new Set(ids) } : { ok: false, ...BAD_REVOKED };
  revokedCache = { key: text, revoked };
  return revoked;
}

/** A team token's claims when it is valid now (signature, key, expiry, not revoked), or why it is not. */
export async function verifyTeamToken(
  env: AuthEnv,
  token: string,
  nowMs: number,
): Promise<{ ok: true; claims: TokenClaims } | { ok: false; reason: string }> {
  const keys = keyRingOf(env);
  if (!keys.ok) return { ok: false, reason: keys.message };
  const revoked = revokedIdsOf(env);
  if (!revoked.ok) return { ok: false, reason: revoked.message };
  const check = await verifyToken(keys.value, token, Math.floor(nowMs / 1000));
  if (!check.ok) return { ok: false, reason: check.reason };
  if (check.claims.jti !== undefined && revoked.value.has(check.claims.jti)) return { ok: false, reason: "token revoked" };
  return { ok: true, claims: check.claims };
}

/** The revoked token ids, or undefined when AUTH_REVOKED is malformed (OAuth's refresh check reads them too). */
export function revokedTokenIds(env: AuthEnv): ReadonlySet<string> | undefined {
  const revoked = revokedIdsOf(env);
  return revoked.ok ? revoked.value : undefined;
}

export async function authenticate(request: Request, env: AuthEnv, nowMs: number): Promise<Authentication> {
  if (env.AUTH_MODE === "dev") {
    const agent = request.headers.get("X-Agent-Id")?.trim() || DEV_AGENT;
    if (agent.length > MAX_AGENT_ID_CHARS || !AGENT_ID_PATTERN.test(agent)) {
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
    const grant = await verifyOAuthToken(oauth, match[1], env as Env, revokedTokenIds, Math.floor(nowMs / 1000));
    if (grant.ok) return { ok: true, principal: grant.principal };
    return grant.insufficientScope ? insufficientScope(grant.reason, challenge) : unauthorized(grant.reason, challenge);
  }
  const check = await verifyToken(keys.value, match[1], Math.floor(nowMs / 1000));
  if (!check.ok) return unauthorized(check.reason, challenge);
  const { claims } = check;
  if (claims.jti !== undefined && revoked.value.has(claims.jti)) return unauthorized("token revoked", challenge);
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
