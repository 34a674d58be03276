/**
 * Team tokens (`npm run token`), as the deployment's settings define them: the key ring (AUTH_SECRET
 * under AUTH_KEY_ID, default k1, plus AUTH_SECRETS: a JSON object `{"k2": "<secret>"}` or
 * `k2:<secret>,k3:<secret>`, so old and new keys work while tokens are re-minted), the revoked token
 * ids (AUTH_REVOKED, comma- or whitespace-separated, read on every request so `wrangler secret put`
 * applies without a redeploy), and verifying one token against both and against the agent-id rule. The
 * front door (auth.ts) and the OAuth pages (oauth/, where a team token vouches for a person) use the same
 * rules. See docs/deploy.md.
 */
import { MAX_AGENT_ID_CHARS } from "../shared/limits";
import { isTokenIdText, type KeyRing, type TokenClaims, verifyToken } from "./token";

type TeamTokenEnv = Pick<Env, "AUTH_SECRET" | "AUTH_KEY_ID" | "AUTH_SECRETS" | "AUTH_REVOKED">;

/** Key id used when AUTH_KEY_ID is not set: tokens minted without --key-id carry it. */
export const DEFAULT_KEY_ID = "k1";
/** What an agent id may hold, for team tokens and dev mode's header alike. */
const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;
/**
 * A signed token whose `sub` breaks the agent-id rule: `npm run token` never mints one, but any tooling
 * that holds the secret can. The reason is fixed (it never echoes the sub: it goes into a header).
 */
const BAD_AGENT_REASON = "its agent id (sub) is not a valid agent id";
const BAD_AGENT_HINT = `Mint a new token with \`npm run token -- --agent <id>\`: an agent id is at most ${MAX_AGENT_ID_CHARS} letters, digits and . _ : @ -, starting with a letter or digit.`;

/** Whether `text` may be an agent id: a team token's `sub`, dev mode's header, a grant's agent. */
export function isAgentId(text: string): boolean {
  return text.length <= MAX_AGENT_ID_CHARS && AGENT_ID_PATTERN.test(text);
}
const LIST_SEPARATOR = /[\s,]+/;

/** A configuration problem: the message names the variable, never its value. */
export interface Problem {
  message: string;
  hint: string;
  reason: string;
}

export type Parsed<T> = { ok: true; value: T } | ({ ok: false } & Problem);

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
export function keyRingOf(env: TeamTokenEnv): Parsed<KeyRing> {
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
export function revokedIdsOf(env: TeamTokenEnv): Parsed<ReadonlySet<string>> {
  const text = env.AUTH_REVOKED ?? "";
  if (revokedCache?.key === text) return revokedCache.revoked;
  const ids = text.split(LIST_SEPARATOR).filter((id) => id !== "");
  const revoked: Parsed<ReadonlySet<string>> = ids.every(isTokenIdText) ? { ok: true, value: new Set(ids) } : { ok: false, ...BAD_REVOKED };
  revokedCache = { key: text, revoked };
  return revoked;
}

/** A team token's claims, or why it is refused and, when the refusal has one of its own, the way back. */
export type TeamTokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: string; hint?: string };

/** A team token checked against the keys and the revoked ids: signature, key, expiry, not revoked, a valid agent id. */
export async function checkTeamToken(keys: KeyRing, revoked: ReadonlySet<string>, token: string, nowS: number): Promise<TeamTokenCheck> {
  const check = await verifyToken(keys, token, nowS);
  if (!check.ok) return check;
  if (check.claims.jti !== undefined && revoked.has(check.claims.jti)) return { ok: false, reason: "token revoked" };
  if (!isAgentId(check.claims.sub)) return { ok: false, reason: BAD_AGENT_REASON, hint: BAD_AGENT_HINT };
  return check;
}

/** A team token's claims when it is valid now under the deployment's settings, or why it is not. */
export async function verifyTeamToken(env: TeamTokenEnv, token: string, nowMs: number): Promise<TeamTokenCheck> {
  const keys = keyRingOf(env);
  if (!keys.ok) return { ok: false, reason: keys.message };
  const revoked = revokedIdsOf(env);
  if (!revoked.ok) return { ok: false, reason: revoked.message };
  return checkTeamToken(keys.value, revoked.value, token, Math.floor(nowMs / 1000));
}

/** What an OAuth grant is held to on every use and refresh (oauth/oauth-server.ts, `grantProblem`). */
export interface GrantSettings {
  /** The revoked team token ids: a grant made with one of them has ended. */
  revoked: ReadonlySet<string>;
  /** The key ids the deployment accepts now: a grant whose team token's key is not among them has ended. */
  keyIds: ReadonlySet<string>;
}

/** The settings grants are held to, or undefined when the keys or AUTH_REVOKED are missing or malformed. */
export function grantSettingsOf(env: TeamTokenEnv): GrantSettings | undefined {
  const keys = keyRingOf(env);
  const revoked = revokedIdsOf(env);
  if (!keys.ok || !revoked.ok) return undefined;
  return { revoked: revoked.value, keyIds: new Set(keys.value.keys()) };
}
