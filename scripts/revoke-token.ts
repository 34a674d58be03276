/**
 * Builds the next value of AUTH_REVOKED: `npm run -s revoke -- --list "$(cat revoked.txt)" <jti-or-token> ...`.
 * Each argument is a token id (as `npm run token` printed it) or a whole token, whose id is read from
 * its claims (the signature is not checked: no secret is needed). The current list plus the new ids,
 * deduplicated and comma-separated, goes to stdout, ready for `npx wrangler secret put AUTH_REVOKED`;
 * a line per token given (its id, agent and expiry: after that the id can be pruned) goes to stderr.
 * Cloudflare does not show a secret's value again, so keep the list (e.g. revoked.txt) yourself.
 */
import { parseArgs } from "node:util";
import { isTokenIdText, readUnverifiedClaims } from "../src/worker/token.ts";

const USAGE = `Usage: npm run -s revoke -- [--list "<current AUTH_REVOKED>"] <token id or token> [...]

  --list   the deployment's current AUTH_REVOKED value (ids separated by commas or spaces)

Prints the new AUTH_REVOKED value on stdout. Apply it with:
  npm run -s revoke -- --list "$(cat revoked.txt)" <jti> > revoked.new && mv revoked.new revoked.txt
  npx wrangler secret put AUTH_REVOKED < revoked.txt`;

/** Worker variables hold at most 5 KB. */
const MAX_LIST_BYTES = 5 * 1024;

function die(message: string): never {
  process.stderr.write(`revoke-token: ${message}\n`);
  process.exit(2);
}

function idOf(argument: string): string {
  const text = argument.trim();
  if (text.startsWith("bm1.")) {
    const claims = readUnverifiedClaims(text);
    if (!claims) die("that token is malformed");
    if (claims.jti === undefined) {
      die(
        `the token of agent ${claims.sub} (key ${claims.kid}) has no id: it was minted before token ids existed. Retire its key instead (docs/deploy.md).`,
      );
    }
    process.stderr.write(
      `revoking token ${claims.jti}: agent ${claims.sub}, key ${claims.kid}, expires ${new Date(claims.exp * 1000).toISOString()} (prune it from the list after that)\n`,
    );
    return claims.jti;
  }
  if (!isTokenIdText(text)) die(`"${text}" is neither a token id (letters, digits and . _ -) nor a token (bm1.…)`);
  return text;
}

function main(): void {
  let parsed: { values: { list?: string; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      options: { list: { type: "string", default: "" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    die(`${(error as Error).message}\n${USAGE}`);
  }
  if (parsed.values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  if (parsed.positionals.length === 0) die(`name at least one token id or token\n${USAGE}`);
  const current = (parsed.values.list ?? "").split(/[\s,]+/).filter((id) => id !== "");
  for (const id of current) if (!isTokenIdText(id)) die(`the --list entry "${id}" is not a token id`);
  const ids = [...new Set([...current, ...parsed.positionals.map(idOf)])];
  const value = ids.join(",");
  if (Buffer.byteLength(value) > MAX_LIST_BYTES) {
    die(`the list would be ${Buffer.byteLength(value)} bytes, over the 5 KB a variable holds: prune the ids of expired tokens first`);
  }
  process.stdout.write(`${value}\n`);
  process.stderr.write(`AUTH_REVOKED: ${ids.length} token id(s), ${Buffer.byteLength(value)} of ${MAX_LIST_BYTES} bytes\n`);
}

main();
