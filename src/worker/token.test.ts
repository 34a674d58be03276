// Unit tests of token signing and workspace patterns. Authentication through MCP is in test/auth.test.ts.
import { describe, expect, it } from "vitest";
import { matchesWorkspace, mintToken, type TokenClaims, verifyToken } from "./token";

const claims: TokenClaims = { v: 1, kid: "k1", sub: "alice", ws: ["acme/**"], role: "write", iat: 100, exp: 200 };

describe("tokens", () => {
  it("round-trips claims and rejects tampering, expiry and other keys", async () => {
    const token = await mintToken("s".repeat(32), claims);
    expect(await verifyToken("s".repeat(32), "k1", token, 150)).toEqual({ ok: true, claims });
    expect((await verifyToken("s".repeat(32), "k1", token, 200)).ok).toBe(false);
    expect((await verifyToken("t".repeat(32), "k1", token, 150)).ok).toBe(false);
    expect((await verifyToken("s".repeat(32), "k2", token, 150)).ok).toBe(false);
    const [prefix, payload, signature] = token.split(".");
    const tampered = `${prefix}.${btoa(JSON.stringify({ ...claims, role: "admin" })).replace(/=+$/, "")}.${signature}`;
    expect((await verifyToken("s".repeat(32), "k1", tampered, 150)).ok).toBe(false);
    expect(payload).toBeDefined();
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
