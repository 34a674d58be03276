/**
 * Mints a bearer token for one agent: `npm run token -- --agent alice --workspace 'acme/**' --role write --days 30`.
 * The secret comes from the AUTH_SECRET environment variable: the secret of the key named by --key-id
 * (the deployment's AUTH_SECRET for its AUTH_KEY_ID, or the matching entry of AUTH_SECRETS). Each
 * token gets a random id (`jti`, 16 hex digits), which is what AUTH_REVOKED lists. Only the token goes
 * to stdout, so `TOKEN=$(npm run -s token -- ...)` works; a one-line summary with the token id goes to stderr.
 */
import { parseArgs } from "node:util";
import { isTokenIdText, mintToken, newTokenId, type TokenClaims, type TokenRole } from "../src/worker/token.ts";

const USAGE = `Usage: AUTH_SECRET=... npm run -s token -- --agent <id> --workspace <pattern> [--workspace <pattern> ...]
                      [--role read|write|admin] [--days N] [--key-id <id>]

  --agent      agent id the token authenticates (required)
  --workspace  workspace pattern the token grants, repeatable: \`*\` one segment, \`**\` any depth
               (e.g. acme/repo, 'acme/*', 'acme/**', '**')
  --role       read | write | admin (default write)
  --days       lifetime in days (default 30)
  --key-id     key id of the secret in AUTH_SECRET: the server's AUTH_KEY_ID, or a key id of its
               AUTH_SECRETS (default k1)

The token id (jti) is printed on stderr: \`npm run -s revoke -- <jti>\` adds it to AUTH_REVOKED.`;

const ROLES: readonly TokenRole[] = ["read", "write", "admin"];
const MIN_SECRET_CHARS = 32;
const MAX_DAYS = 3650;
const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;
const MAX_AGENT_ID_CHARS = 128;
const WORKSPACE_SEGMENT = /^(\*\*?|[A-Za-z0-9][A-Za-z0-9._-]*)$/;

function die(message: string): never {
  process.stderr.write(`mint-token: ${message}\n`);
  process.exit(2);
}

function isRole(value: string): value is TokenRole {
  return (ROLES as readonly string[]).includes(value);
}

function checkPattern(pattern: string): void {
  const segments = pattern.split("/");
  if (pattern.length === 0 || pattern.length > 128 || !segments.every((segment) => WORKSPACE_SEGMENT.test(segment))) {
    die(`invalid workspace pattern "${pattern}": segments of letters, digits and . _ -, or * / ** (e.g. acme/**)`);
  }
}

async function main(): Promise<void> {
  let values: { agent?: string; workspace?: string[]; role?: string; days?: string; "key-id"?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        agent: { type: "string" },
        workspace: { type: "string", multiple: true },
        role: { type: "string", default: "write" },
        days: { type: "string", default: "30" },
        "key-id": { type: "string", default: "k1" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    die(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }

  const agent = values.agent?.trim();
  if (!agent) die(`--agent is required\n${USAGE}`);
  if (agent.length > MAX_AGENT_ID_CHARS || !AGENT_ID_PATTERN.test(agent)) {
    die(`invalid --agent "${agent}": letters, digits and . _ : @ -, starting with a letter or digit (at most ${MAX_AGENT_ID_CHARS})`);
  }
  const workspaces = values.workspace ?? [];
  if (workspaces.length === 0) die(`at least one --workspace is required (e.g. --workspace 'acme/**')\n${USAGE}`);
  for (const pattern of workspaces) checkPattern(pattern);

  const role = values.role ?? "write";
  if (!isRole(role)) die(`invalid --role "${role}": use read, write or admin`);
  const daysText = values.days ?? "30";
  const days = Number(daysText);
  if (!/^\d+(\.\d+)?$/.test(daysText) || !(days > 0) || days > MAX_DAYS)
    die(`invalid --days "${daysText}": a positive number up to ${MAX_DAYS}`);
  const keyId = values["key-id"] ?? "k1";
  if (!isTokenIdText(keyId)) die(`invalid --key-id "${keyId}": 1 to 64 letters, digits and . _ -`);

  const secret = process.env.AUTH_SECRET;
  if (!secret) die("AUTH_SECRET is not set: export the deployment's secret (the value given to `wrangler secret put AUTH_SECRET`)");
  if (secret.length < MIN_SECRET_CHARS) {
    die(
      `AUTH_SECRET is too short (${secret.length} characters; at least ${MIN_SECRET_CHARS}): generate one with \`openssl rand -base64 48\``,
    );
  }

  const now = Math.floor(Date.now() / 1000);
  const claims: TokenClaims = {
    v: 1,
    kid: keyId,
    jti: newTokenId(),
    sub: agent,
    ws: [...new Set(workspaces)],
    role,
    iat: now,
    exp: now + Math.round(days * 86_400),
  };
  const token = await mintToken(secret, claims);
  process.stdout.write(`${token}\n`);
  process.stderr.write(
    `token ${claims.jti} for agent ${claims.sub}, role ${claims.role}, workspaces ${claims.ws.join(" ")}, key ${claims.kid}, expires ${new Date(claims.exp * 1000).toISOString()}\n`,
  );
}

await main();
