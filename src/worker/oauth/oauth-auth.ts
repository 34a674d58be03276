/**
 * An OAuth access token at the front door: validated by the authorization server for this origin's
 * resource (audience, expiry, revocation of the grant), then held to the grant's own rules (its team
 * token not revoked, the key that signed it not retired, its lifetime not over) and turned into the
 * principal its calls run as, with the role its scopes allow. Every refusal names its reason, so clients
 * can show it, and an ended grant's says how to get a new one.
 */
import type { Principal } from "../../commands/context";
import { grantSettingsOf } from "../team-tokens";
import {
  authorizationServerFor,
  type GrantProps,
  grantProblem,
  principalOf,
  RECONNECT_HINT,
  resourceOf,
  roleOfScopes,
} from "./oauth-server";

/**
 * `insufficientScope`: the token is valid but no scope of it lets it do anything here (a 403, not a 401).
 * `hint`: the recovery when it is more specific than the front door's (an ended grant: connect again).
 */
export type GrantCheck = { ok: true; principal: Principal } | { ok: false; reason: string; hint?: string; insufficientScope?: true };

export async function verifyOAuthToken(origin: string, token: string, env: Env, nowS: number): Promise<GrantCheck> {
  const settings = grantSettingsOf(env);
  if (settings === undefined) return { ok: false, reason: "server misconfigured" };
  const validated = await authorizationServerFor(origin).validateToken(resourceOf(origin), token, env);
  if (validated === null) return { ok: false, reason: "OAuth token unknown, expired, revoked or for another server" };
  const props = validated.props as GrantProps;
  const problem = grantProblem(props, settings, nowS);
  if (problem !== undefined) return { ok: false, reason: problem, hint: RECONNECT_HINT };
  const role = roleOfScopes(validated.scope, props.role);
  if (role === undefined) {
    return { ok: false, reason: "the OAuth token grants no scope of this server (read, write or admin)", insufficientScope: true };
  }
  return { ok: true, principal: principalOf(props, role) };
}
