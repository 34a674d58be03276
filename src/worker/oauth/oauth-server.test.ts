// The grant rules that need no server: when a grant may no longer be used, and which role its scopes give.
import { describe, expect, it } from "vitest";
import { type GrantProps, grantProblem, roleOfScopes, scopesUpTo } from "./oauth-server";

const grant: GrantProps = { agent_id: "alice.app", workspaces: ["acme/*"], role: "write", token_jti: "abc123", not_after: 1_000 };

describe("grantProblem", () => {
  it("ends a grant at not_after, and with its team token's revocation", () => {
    expect(grantProblem(grant, new Set(), 999)).toBeUndefined();
    expect(grantProblem(grant, new Set(), 1_000)).toContain("ended");
    expect(grantProblem(grant, new Set(["abc123"]), 10)).toContain("revoked");
    expect(grantProblem({ ...grant, token_jti: "other" }, new Set(["abc123"]), 10)).toBeUndefined();
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
