// The Worker's Env in two parts. Its bindings (the Durable Object namespaces) are generated from
// wrangler.toml into worker-configuration.d.ts by `npm run types` (CI checks that file is current).
// What wrangler.toml cannot say is declared here, once: the secrets a deployment sets with
// `wrangler secret put` and the vars the dev script passes on its command line. All are optional,
// because which ones exist depends on the mode (docs/deploy.md).

declare global {
  interface DeploymentSettings {
    /** "dev" only when the dev script says so on its command line; anything else means tokens. */
    AUTH_MODE?: string;
    /** HMAC secret for bearer tokens; a deployment without it (nor AUTH_SECRETS) refuses every call. */
    AUTH_SECRET?: string;
    /** Key id stamped into tokens and required on verification (rotate by changing both). */
    AUTH_KEY_ID?: string;
    /** More accepted keys besides AUTH_SECRET: `{"kid": "secret", ...}` or `kid:secret,kid2:secret2`. */
    AUTH_SECRETS?: string;
    /** Revoked token ids (`jti`), separated by commas and/or whitespace. */
    AUTH_REVOKED?: string;
    /** Host names served besides loopback and *.workers.dev (a custom domain; `*.example.com` for its subdomains). */
    ALLOWED_HOSTS?: string;
    /** Browser origins allowed to call besides the server's own and loopback ones (`https://app.example.com`). */
    ALLOWED_ORIGINS?: string;
    /** OAuth's storage (grants, clients, tokens as hashes): binding it switches OAuth on (docs/oauth.md). */
    OAUTH_KV?: KVNamespace;
    /** Secret redaction of stored text: "off" stores text as sent; unset or anything else redacts. */
    REDACTION?: string;
  }

  interface Env extends DeploymentSettings {}

  namespace Cloudflare {
    interface Env extends DeploymentSettings {}
  }
}

export {};
