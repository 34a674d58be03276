/**
 * Bearer tokens: `bm1.<claims>.<signature>`, both parts base64url; the signature is HMAC-SHA256 over
 * `bm1.<claims>` with the deployment secret (WebCrypto). Claims: agent id, workspace patterns, role,
 * key id, issue and expiry times (seconds). No imports, so the minting script can load it in Node.
 */

export type TokenRole = "read" | "write" | "admin";

export interface TokenClaims {
  v: 1;
  kid: string;
  sub: string;
  ws: string[];
  role: TokenRole;
  iat: number;
  exp: number;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: string };

const PREFIX = "bm1";
const encoder = new TextEncoder();

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
    typeof claims.sub === "string" &&
    Array.isArray(claims.ws) &&
    claims.ws.every((pattern) => typeof pattern === "string") &&
    (claims.role === "read" || claims.role === "write" || claims.role === "admin") &&
    typeof claims.iat === "number" &&
    typeof claims.exp === "number"
  );
}

export async function verifyToken(secret: string, keyId: string, token: string, nowSeconds: number): Promise<TokenCheck> {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== PREFIX) return { ok: false, reason: "malformed token" };
  const [, payload, signaturePart] = parts as [string, string, string];
  const signature = fromBase64Url(signaturePart);
  const claimsBytes = fromBase64Url(payload);
  if (!signature || !claimsBytes) return { ok: false, reason: "malformed token" };
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(secret), signature, encoder.encode(`${PREFIX}.${payload}`));
  if (!valid) return { ok: false, reason: "bad signature" };
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(claimsBytes));
  } catch {
    return { ok: false, reason: "malformed claims" };
  }
  if (!isClaims(claims)) return { ok: false, reason: "malformed claims" };
  if (claims.kid !== keyId) return { ok: false, reason: "unknown key id" };
  if (claims.exp <= nowSeconds) return { ok: false, reason: "token expired" };
  return { ok: true, claims };
}

/** `*` matches one path segment, `**` any number (including none). */
export function matchesWorkspace(pattern: string, workspace: string): boolean {
  return matchSegments(pattern.split("/"), workspace.split("/"));
}

function matchSegments(pattern: string[], name: string[]): boolean {
  if (pattern.length === 0) return name.length === 0;
  const [head, ...rest] = pattern;
  if (head === "**") {
    for (let skip = 0; skip <= name.length; skip++) if (matchSegments(rest, name.slice(skip))) return true;
    return false;
  }
  if (name.length === 0) return false;
  return (head === "*" || head === name[0]) && matchSegments(rest, name.slice(1));
}
