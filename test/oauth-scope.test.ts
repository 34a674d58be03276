// A grant is never wider than what the app asked for, by default (docs/oauth.md, "Scopes are roles"):
// the 401 names the scope for ordinary work, and the consent page, submitted as shown by a form-filling
// client, grants the lower of the requested scope and write, never admin; a person may choose another
// role within the team token, and the token response's scope says what was chosen.
import { describe, expect, it } from "vitest";
import { formAsShown } from "./helpers/html-form";
import { token } from "./helpers/mcp";
import { callWith, consentAsShown, exchange, startAuthorization, structured } from "./helpers/oauth";

/** A whole flow where the client asks for `scope` and the person approves the page as shown (or with `typed`). */
async function connectAsShown(scope: string, teamToken: string, typed: Record<string, string> = {}) {
  const started = await startAuthorization(scope);
  const decided = await consentAsShown(started, teamToken, typed);
  expect(decided.status, await decided.clone().text()).toBe(302);
  return exchange(started, decided.headers.get("location") ?? "");
}

describe("the scope an app asks for", () => {
  it("is named by the 401: write, the scope of ordinary work", async () => {
    const refused = await callWith("not-a-token", "ping", {});
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('scope="write"');
    await refused.body?.cancel();
  });

  it("preselects the lower of the requested scope and write on the consent page, never admin", async () => {
    for (const [requested, shown] of [
      ["read", "read"],
      ["write", "write"],
      ["read write", "write"],
      ["read write admin", "write"],
      ["admin", "write"],
      ["", "write"],
    ] as const) {
      const started = await startAuthorization(requested);
      expect((await formAsShown(started.page)).fields.role, `requested "${requested}"`).toBe(shown);
    }
  });

  it("read, approved as shown, is a read grant: its write is refused naming the scope", async () => {
    const bearer = await token({ agent: "rita", workspaces: ["scope/*"], role: "admin" });
    const tokens = await connectAsShown("read", bearer);
    expect(tokens.scope).toBe("read");
    const write = await structured(await callWith(tokens.access_token, "notes_commit", { workspace: "scope/r", content: "x" }));
    expect(write.error).toMatchObject({ code: "FORBIDDEN", details: { scope_required: "write" } });
    const read = await structured(await callWith(tokens.access_token, "show", { workspace: "scope/r", doc: "notes" }));
    expect(read.error).toBeUndefined();
  });

  it("everything (admin included), approved as shown with an admin team token, is a write grant", async () => {
    const bearer = await token({ agent: "sam", workspaces: ["scope/*"], role: "admin" });
    const tokens = await connectAsShown("read write admin", bearer);
    expect(tokens.scope.split(" ").sort()).toEqual(["read", "write"]);
    const note = await structured(await callWith(tokens.access_token, "notes_commit", { workspace: "scope/s", content: "ordinary work" }));
    expect(note.error).toBeUndefined();
    const exported = await structured(await callWith(tokens.access_token, "workspace_export", { workspace: "scope/s" }));
    expect(exported.error).toMatchObject({ code: "FORBIDDEN", details: { scope_required: "admin" } });
  });

  it("may be widened by the person, within the team token: the token's scope says what was chosen", async () => {
    const bearer = await token({ agent: "tess", workspaces: ["scope/*"], role: "admin" });
    const widened = await connectAsShown("read", bearer, { role: "admin" });
    expect(widened.scope.split(" ").sort()).toEqual(["admin", "read", "write"]);
    const exported = await structured(await callWith(widened.access_token, "workspace_export", { workspace: "scope/t" }));
    expect(exported.error).toBeUndefined();

    const writer = await token({ agent: "uma", workspaces: ["scope/*"], role: "write" });
    const started = await startAuthorization("read");
    const refused = await consentAsShown(started, writer, { role: "admin" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("cannot get admin");
  });
});
