/**
 * OAuth 2.1 beside the team tokens (docs/oauth.md), with `@cloudflare/workers-oauth-provider` as the
 * authorization server. This module owns the configuration: when OAuth is on (a deployment that binds
 * `OAUTH_KV`, never dev mode), the server for an origin (its issuer and its one protected resource, the
 * origin itself, so `/mcp` and every `/w/<workspace>/mcp` are covered), the scopes and what they allow,
 * what a grant carries (`GrantProps`), and the checks a grant must pass on every use and refresh: it ends
 * no later than the team token it was made with, and revoking that token, or retiring the key that
 * signed it, cuts it off.
 */
import { OAuthAuthorizationServer, OAuthError, type TokenExchangeCallbackOptions } from "@cloudflare/workers-oauth-provider";
import { type Principal, ROLE_RANK, type Role } from "../../commands/context";
import { type GrantSettings, grantSettingsOf } from "../team-tokens";

/** The scopes, one per role: a grant's highest scope is the role its calls get (never more than its token's). */
export const OAUTH_SCOPES = ["read", "write", "admin"] as const satisfies readonly Role[];
/**
 * The scope an agent needs for ordinary work (notes, cards, tasks), named by every 401 so that a client
 * following the MCP authorization spec asks for it rather than for everything in `scopes_supported`;
 * also the most the consent page proposes (`admin` is only ever chosen by the person).
 */
export const ORDINARY_SCOPE = "write" satisfies Role;
export const AUTHORIZE_PATH = "/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";
export const GRANTS_PATH = "/oauth/grants";
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";
export const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";
/** An access token lives an hour (the library's default); the grant behind it lives on through refreshes. */
const ACCESS_TOKEN_TTL_S = 3600;
/** Key id a grant's principal shows in logs: the call came through OAuth, not a team token's key. */
export const OAUTH_KEY_ID = "oauth";

type OAuthEnv = Pick<Env, "AUTH_MODE" | "OAUTH_KV">;

/** OAuth is switched on by binding its KV namespace; dev mode (no tokens at all) never offers it. */
export function oauthEnabled(env: OAuthEnv): boolean {
  return env.AUTH_MODE !== "dev" && env.OAUTH_KV !== undefined;
}

/** What a grant carries, fixed when a person consents with a team token. */
export interface GrantProps {
  agent_id: string;
  workspaces: string[];
  /** The role consented to (at most the team token's). */
  role: Role;
  /** The team token's id (a token without one is refused at consent): listing it in AUTH_REVOKED cuts this grant off. */
  token_jti: string;
  /**
   * The id of the key that signed the team token: retiring that key (docs/deploy.md) cuts this grant off.
   * Absent from grants made before grants recorded it; those have ended (`grantProblem`).
   */
  key_id?: string;
  /** Unix seconds after which the grant is over: the consented lifetime, never past the team token's expiry. */
  not_after: number;
}

/** The one protected resource of a deployment: its origin. */
export function resourceOf(origin: string): string {
  return origin;
}

/** The way back from every ended grant: a new one, made on the consent page with a team token valid now. */
export const RECONNECT_HINT = "Connect the app again with a current team token: its consent page makes a new grant (docs/oauth.md).";

/**
 * Why a grant may no longer be used, or undefined when it may. A grant without a key id was made before
 * grants recorded one: which key signed its team token is unknown, so no retirement could end it, and it
 * is held to have ended (docs/oauth.md, "When a grant ends").
 */
export function grantProblem(props: GrantProps, settings: GrantSettings, nowS: number): string | undefined {
  if (settings.revoked.has(props.token_jti)) return "the team token behind this grant was revoked";
  if (props.key_id === undefined) return "this grant was made before grants recorded their key, so it has ended";
  if (!settings.keyIds.has(props.key_id)) return "the key that signed the team token behind this grant was retired";
  if (nowS >= props.not_after) return "this grant has ended (its lifetime, or its team token's, is over)";
  return undefined;
}

/** The role a token's scopes allow, capped by the grant's role; undefined when no scope names a role. */
export function roleOfScopes(scopes: readonly string[], cap: Role): Role | undefined {
  const granted = OAUTH_SCOPES.filter((scope) => scopes.includes(scope));
  const highest = granted.at(-1);
  if (highest === undefined) return undefined;
  return ROLE_RANK[highest] <= ROLE_RANK[cap] ? highest : cap;
}

/**
 * The role the consent page proposes for an app's requested scopes: the highest role requested, at most
 * the ordinary one (a grant is never wider than asked, and admin is never proposed). A request naming no
 * role of this server (no scope, or only others') gets the ordinary one, the scope the 401 names.
 */
export function proposedRole(requested: readonly string[]): Role {
  const highest = OAUTH_SCOPES.filter((scope) => requested.includes(scope)).at(-1) ?? ORDINARY_SCOPE;
  return ROLE_RANK[highest] <= ROLE_RANK[ORDINARY_SCOPE] ? highest : ORDINARY_SCOPE;
}

/** Every scope up to `role`: a write grant reads too. */
export function scopesUpTo(role: Role): string[] {
  return OAUTH_SCOPES.filter((scope) => ROLE_RANK[scope] <= ROLE_RANK[role]);
}

export function principalOf(props: GrantProps, role: Role): Principal {
  return { agent_id: props.agent_id, workspaces: props.workspaces, role, key_id: OAUTH_KEY_ID };
}

const servers = new Map<string, OAuthAuthorizationServer<Env>>();
/**
 * Origins kept per isolate: a deployment answers on a few (its workers.dev name, its custom domains); the
 * cap keeps a stream of made-up Host headers on a local server from growing the map.
 */
const MAX_CACHED_ORIGINS = 16;

/**
 * The authorization server of one origin (built once per isolate and origin: the library fixes its
 * issuer and resources at construction). A refresh runs the grant's checks again, so an ended grant
 * (revoked token, retired key, lifetime over) stops getting access tokens too.
 */
export function authorizationServerFor(origin: string): OAuthAuthorizationServer<Env> {
  let server = servers.get(origin);
  if (server === undefined) {
    if (servers.size >= MAX_CACHED_ORIGINS) servers.clear();
    server = new OAuthAuthorizationServer<Env>({
      issuer: origin,
      resources: [resourceOf(origin)],
      defaultResource: resourceOf(origin),
      authorizeEndpoint: AUTHORIZE_PATH,
      tokenEndpoint: TOKEN_PATH,
      clientRegistrationEndpoint: REGISTER_PATH,
      // Client ID metadata documents (an HTTPS URL as client_id), which the current MCP spec prefers to DCR.
      clientIdMetadataDocumentEnabled: true,
      scopesSupported: [...OAUTH_SCOPES],
      accessTokenTTL: ACCESS_TOKEN_TTL_S,
      tokenExchangeCallback: (options: TokenExchangeCallbackOptions<Env>) => {
        const settings = grantSettingsOf(options.env);
        if (settings === undefined) throw new OAuthError("temporarily_unavailable", { description: "server misconfigured" });
        const problem = grantProblem(options.props as GrantProps, settings, Math.floor(Date.now() / 1000));
        if (problem !== undefined)
          throw new OAuthError("invalid_grant", { description: `${problem}; connect again with a current team token` });
      },
    });
    servers.set(origin, server);
  }
  return server;
}

/** RFC 9728: where a client learns which authorization server guards this resource. */
export function resourceMetadata(origin: string): Record<string, unknown> {
  return {
    resource: resourceOf(origin),
    authorization_servers: [origin],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "BranchMind",
  };
}
