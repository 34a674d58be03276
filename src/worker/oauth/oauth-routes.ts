/**
 * The OAuth routes of the front door, served only while OAuth is on (oauth-server.ts): the protected
 * resource's metadata (RFC 9728, ours), the authorization server's metadata, token, revocation and
 * registration endpoints (the library's), the consent page (consent.ts) and a person's grants
 * (grants.ts). Which path is which is
 * `routes.ts`'s; the browser rules (public for everything but the consent page) are too.
 */
import { serveAuthorize } from "./consent";
import { serveGrants } from "./grants";
import { authorizationServerFor, resourceMetadata } from "./oauth-server";

export type OAuthEndpoint = "resource_metadata" | "authorization_server" | "authorize" | "grants";

/** Metadata changes only with a deployment: clients may keep it an hour. */
const METADATA_MAX_AGE_S = 3600;

export async function serveOAuth(request: Request, endpoint: OAuthEndpoint, env: Env, ctx: ExecutionContext): Promise<Response> {
  const origin = new URL(request.url).origin;
  if (endpoint === "resource_metadata") {
    if (request.method !== "GET") return new Response(null, { status: 405, headers: { Allow: "GET" } });
    return Response.json(resourceMetadata(origin), { headers: { "Cache-Control": `public, max-age=${METADATA_MAX_AGE_S}` } });
  }
  if (endpoint === "authorize") return serveAuthorize(request, env, Date.now());
  if (endpoint === "grants") return serveGrants(request, env, Date.now());
  return authorizationServerFor(origin).fetch(request, env, ctx);
}
