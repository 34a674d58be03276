// Unit tests of token signing and workspace patterns. Authentication through MCP is in test/auth.test.ts.
import { describe, expect, it } from "vitest";
import { matchesWorkspace } from "../shared/workspace-patterns";
import { mintToken, newTokenId, readUnverifiedClaims, type TokenClaims, verifyToken } from "./token";

const S = "s".repeat(32);
const T = "t".repeat(32);
const claims: TokenClaims = { v: 1, kid: "k1", jti: "0123456789abcdef", sub: "alice", ws: ["acme/**"], role: "write", iat: 100, exp: 200 };
const ring = (entries: [string, string[]][]) => new Map(entries);
const encodeClaims = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

describe("tokens", () => {
  it("round-trips claims and rejects tampering, expiry and other keys", async () => {
    const token = await mintToken(S, claims);
    expect(await verifyToken(ring([["k1", [S]]]), token, 150)).toEqual({ ok: true, claims });
    expect(await verifyToken(ring([["k1", [S]]]), token, 200)).toEqual({ ok: false, reason: "token expired" });
    expect(await verifyToken(ring([["k1", [T]]]), token, 150)).toEqual({ ok: false, reason: "bad signature" });
    expect(await verifyToken(ring([["k2", [S]]]), token, 150)).toEqual({ ok: false, reason: "unknown key id" });
    const [prefix, payload, signature] = token.split(".");
    const tampered = `${prefix}.${encodeClaims({ ...claims, role: "admin" })}.${signature}`;
    expect(await verifyToken(ring([["k1", [S]]]), tampered, 150)).toEqual({ ok: false, reason: "bad signature" });
    expect(payload).toBeDefined();
  });

  it("picks the secret by the token's key id, trying each secret of that id", async () => {
    const second = await mintToken(T, { ...claims, kid: "k2" });
    const keys = ring([
      ["k1", [S]],
      ["k2", [S, T]],
    ]);
    expect((await verifyToken(keys, second, 150)).ok).toBe(true);
    expect(await verifyToken(ring([["k1", [T]]]), second, 150)).toEqual({ ok: false, reason: "unknown key id" });
    // The key id is signed too: moving a token to another key id breaks it.
    const [prefix, , signature] = second.split(".");
    const moved = `${prefix}.${encodeClaims({ ...claims, kid: "k1" })}.${signature}`;
    expect(await verifyToken(ring([["k1", [T]]]), moved, 150)).toEqual({ ok: false, reason: "bad signature" });
  });

  it("accepts tokens without a token id, refuses a malformed one", async () => {
    const { jti: _jti, ...legacy } = claims;
    expect(await verifyToken(ring([["k1", [S]]]), await mintToken(S, legacy), 150)).toEqual({ ok: true, claims: legacy });
    const odd = await mintToken(S, { ...claims, jti: "a,b" });
    expect(await verifyToken(ring([["k1", [S]]]), odd, 150)).toEqual({ ok: false, reason: "malformed claims" });
  });

  it("makes 16-hex token ids and reads claims without a secret", async () => {
    const ids = new Set(Array.from({ length: 50 }, newTokenId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(readUnverifiedClaims(await mintToken(S, claims))).toEqual(claims);
    expect(readUnverifiedClaims("bm1.nope.nope")).toBeUndefined();
  });
});

describe("workspace patterns", () => {
  it.each([
    ["acme/*", "acme/repo", true],
    ["acme/*", "acme/repo/deep", false],
    ["acme/*", "acme", false],
    ["acme/**", "acme", true],
    ["acme/**", "acme/a/b/c", true],
    ["**", "anything/at/all", true],
    ["*/repo", "team/repo", true],
    ["exact", "exact", true],
    ["exact", "exactly", false],
  ])("%s matches %s: %s", (pattern, name, expected) => {
    expect(matchesWorkspace(pattern, name)).toBe(expected);
  });
});
