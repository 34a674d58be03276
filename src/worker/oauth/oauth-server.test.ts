// The grant rules that need no server: when a grant may no longer be used, which role its scopes give.
import { describe, expect, it } from "vitest";
import { type GrantProps, grantProblem, roleOfScopes, scopesUpTo } from "./oauth-server";

const grant: GrantProps = {
  agent_id: "alice.app",
  workspaces: ["acme/*"],
  role: "write",
  token_jti: "abc123",
  key_id: "k1",
  not_after: 1_000,
};
const settings = { revoked: new Set<string>(), keyIds: new Set(["k1"]) };

describe("grantProblem", () => {
  it("ends a grant at not_after, with its team token's revocation, and with its key's retirement", () => {
    expect(grantProblem(grant, settings, 999)).toBeUndefined();
    expect(grantProblem(grant, settings, 1_000)).toContain("ended");
    expect(grantProblem(grant, { ...settings, revoked: new Set(["abc123"]) }, 10)).toContain("revoked");
    expect(grantProblem({ ...grant, token_jti: "other" }, { ...settings, revoked: new Set(["abc123"]) }, 10)).toBeUndefined();
    expect(grantProblem(grant, { ...settings, keyIds: new Set(["k2"]) }, 10)).toContain("retired");
    const { key_id: _made, ...older } = grant;
    expect(grantProblem(older, settings, 10)).toContain("before grants recorded their key");
  });
});

describe("scopes and roles", () => {
  it("give the highest scope's role, never above the grant's", () => {
    expect(roleOfScopes(["read"], "write")).toBe("read");
    expect(roleOfScopes(["read", "write"], "write")).toBe("write");
    expect(roleOfScopes(["read", "write", "admin"], "write")).toBe("write");
    expect(roleOfScopes(["offline_access"], "admin")).toBeUndefined();
    expect(scopesUpTo("write")).toEqual(["read", "write"]);
    expect(scopesUpTo("read")).toEqual(["read"]);
  });
});
