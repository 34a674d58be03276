/**
 * An OAuth access token at the front door: validated by the authorization server for this origin's
 * resource (audience, expiry, revocation of the grant), then held to the grant's own rules (its team
 * token not revoked, its lifetime not over) and turned into the principal its calls run as, with the
 * role its scopes allow. Every refusal names its reason, so clients can show it.
 */
import type { Principal } from "../../commands/context";
import {
  authorizationServerFor,
  type GrantProps,
  grantProblem,
  principalOf,
  type RevokedIds,
  resourceOf,
  roleOfScopes,
} from "./oauth-server";

/** `insufficientScope`: the token is valid but no scope of it lets it do anything here (a 403, not a 401). */
export type GrantCheck = { ok: true; principal: Principal } | { ok: false; reason: string; insufficientScope?: true };

export async function verifyOAuthToken(origin: string, token: string, env: Env, revokedIds: RevokedIds, nowS: number): Promise<GrantCheck> {
  const revoked = revokedIds(env) ?? new Set<string>();
  const server = authorizationServerFor(origin, revokedIds);
  const validated = await server.validateToken(resourceOf(origin), token, env);
  if (validated === null) return { ok: false, reason: "OAuth token unknown, expired, revoked or for another server" };
  const props = validated.props as GrantProps;
  const problem = grantProblem(props, revoked, nowS);
  if (problem !== undefined) return { ok: false, reason: problem };
  const role = roleOfScopes(validated.scope, props.role);
  if (role === undefined) {
    return { ok: false, reason: "the OAuth token grants no scope of this server (read, write or admin)", insufficientScope: true };
  }
  return { ok: true, principal: principalOf(props, role) };
}
