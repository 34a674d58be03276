/**
 * Bearer tokens: `bm1.<claims>.<signature>`, both parts base64url; the signature is HMAC-SHA256 over
 * `bm1.<claims>` with the secret of the token's key id (WebCrypto). Claims: agent id, workspace
 * patterns, role, key id, token id (`jti`, absent from tokens minted before revocation existed),
 * issue and expiry times (seconds). No imports, so the minting scripts can load it in Node.
 */

export type TokenRole = "read" | "write" | "admin";

export interface TokenClaims {
  v: 1;
  kid: string;
  /** Token id: what AUTH_REVOKED lists. Optional so that older tokens stay valid. */
  jti?: string;
  sub: string;
  ws: string[];
  role: TokenRole;
  iat: number;
  exp: number;
}

/**
 * The secrets a deployment accepts, by key id. A key id may map to more than one secret while an
 * operator changes two variables one after the other: a token is valid if any of them signed it.
 */
export type KeyRing = ReadonlyMap<string, readonly string[]>;

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: string };

const PREFIX = "bm1";
/** Token ids and key ids: no separators, so lists of them can be comma- or space-separated. */
const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const TOKEN_ID_BYTES = 8;
const encoder = new TextEncoder();

/** Whether a bearer credential is a team token (rather than an OAuth access token). */
export function isTeamToken(token: string): boolean {
  return token.startsWith(`${PREFIX}.`);
}

export function isTokenIdText(text: string): boolean {
  return ID_PATTERN.test(text);
}

/** A fresh random token id: 16 hex digits (64 bits). */
export function newTokenId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TOKEN_ID_BYTES));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  try {
    return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

export async function mintToken(secret: string, claims: TokenClaims): Promise<string> {
  const body = `${PREFIX}.${toBase64Url(encoder.encode(JSON.stringify(claims)))}`;
  const signature = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(body));
  return `${body}.${toBase64Url(new Uint8Array(signature))}`;
}

function isClaims(value: unknown): value is TokenClaims {
  if (value === null || typeof value !== "object") return false;
  const claims = value as Record<string, unknown>;
  return (
    claims.v === 1 &&
    typeof claims.kid === "string" &&
    (claims.jti === undefined || (typeof claims.jti === "string" && ID_PATTERN.test(claims.jti))) &&
    typeof claims.sub === "string" &&
    Array.isArray(claims.ws) &&
    claims.ws.every((pattern) => typeof pattern === "string") &&
    (claims.role === "read" || claims.role === "write" || claims.role === "admin") &&
    typeof claims.iat === "number" &&
    typeof claims.exp === "number"
  );
}

type Split = { ok: true; payload: string; claims: unknown; signature: Uint8Array<ArrayBuffer> } | { ok: false; reason: string };

function split(token: string): Split {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== PREFIX) return { ok: false, reason: "malformed token" };
  const [, payload, signaturePart] = parts as [string, string, string];
  const signature = fromBase64Url(signaturePart);
  const claimsBytes = fromBase64Url(payload);
  if (!signature || !claimsBytes) return { ok: false, reason: "malformed token" };
  try {
    return { ok: true, payload, signature, claims: JSON.parse(new TextDecoder().decode(claimsBytes)) };
  } catch {
    return { ok: false, reason: "malformed claims" };
  }
}

/**
 * The claims of a token WITHOUT checking its signature: for operator tools (which token id is this,
 * when does it expire), never for authentication.
 */
export function readUnverifiedClaims(token: string): TokenClaims | undefined {
  const parts = split(token.trim());
  return parts.ok && isClaims(parts.claims) ? parts.claims : undefined;
}

/**
 * Checks a token against the key ring: the key id (read from the claims) picks the secrets, one of
 * them must have signed it, and it must not have expired. Revocation is the caller's (auth.ts).
 */
export async function verifyToken(keys: KeyRing, token: string, nowSeconds: number): Promise<TokenCheck> {
  const parts = split(token);
  if (!parts.ok) return parts;
  const kid = (parts.claims as { kid?: unknown } | null)?.kid;
  if (typeof kid !== "string") return { ok: false, reason: "malformed claims" };
  const secrets = keys.get(kid);
  if (!secrets || secrets.length === 0) return { ok: false, reason: "unknown key id" };
  const signed = encoder.encode(`${PREFIX}.${parts.payload}`);
  let valid = false;
  for (const secret of secrets) {
    if (await crypto.subtle.verify("HMAC", await hmacKey(secret), parts.signature, signed)) {
      valid = true;
      break;
    }
  }
  if (!valid) return { ok: false, reason: "bad signature" };
  if (!isClaims(parts.claims)) return { ok: false, reason: "malformed claims" };
  if (parts.claims.exp <= nowSeconds) return { ok: false, reason: "token expired" };
  return { ok: true, claims: parts.claims };
}
