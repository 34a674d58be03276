// Default projects cannot collide (docs/projects.md, "The default project"): through the real MCP
// endpoint, an agent minted with another agent's derived default-project name reads nothing of it,
// whether that default was made under the current rule or the old one (`<slug>-<fnv>`), and an agent
// whose default was registered under the old rule still reaches it when it names no project.

import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { defaultProjectOf, escapeAgentId, legacyDefaultProjectOf } from "../src/directory/project-ids";
import { projectDirectory } from "../src/hosts/directory/directory-object";
import { isValidWorkspaceName } from "../src/shared/names";
import { DIRECTORY_NAME } from "../src/shared/workspace-summary";
import { isAgentId } from "../src/worker/team-tokens";
import { as, failure, ok, rpc } from "./helpers/mcp";

const directory = () => projectDirectory(env.DIRECTORY.getByName(DIRECTORY_NAME));
const record = (title: string) => ({ type: "question", title, summary: "A default-project record.", body: "Body." });
const titles = (page: { records: { title: string }[] }) => page.records.map((item) => item.title);
/** The agent id that is exactly the name (after `default/`) that another agent's id derives. */
const impostorOf = (name: string) => name.slice("default/".length);

/** Registers an agent's old-rule default project in the Directory, exactly as the old code did on first use. */
async function registerLegacyDefault(agent: string): Promise<string> {
  const id = legacyDefaultProjectOf(agent);
  const registered = await directory().ensureProject({
    id,
    name: "Default Project",
    description: `Default project of agent ${agent}, created on first use.`,
    origin: "default",
    agent_id: agent,
  });
  expect(registered).toMatchObject({ ok: true, value: { id, origin: "default", created_by: agent } });
  return id;
}

describe("default project names", () => {
  it("are valid and one per agent id, and no agent id derives another's", () => {
    const ids = [
      "alice",
      "mallory@example.com",
      "mallory:example.com",
      "mallory_aexample.com",
      impostorOf(defaultProjectOf("mallory@example.com")),
      impostorOf(legacyDefaultProjectOf("mallory@example.com")),
      "a@b",
      "a_ab",
      "a__ab",
      "team/lead",
      "x".repeat(120),
      "x".repeat(121),
      "@".repeat(128),
      `${"@".repeat(127)}:`,
      "é",
      "\ud800",
      "",
    ];
    for (let n = 0; n < 2000; n++) ids.push(Array.from({ length: 1 + (n % 7) }, (_, i) => "a_@:.-/Z9"[(n * 7 + i * 3) % 9]).join(""));
    const names = new Map<string, string>();
    for (const id of new Set(ids)) {
      const name = defaultProjectOf(id);
      expect(isValidWorkspaceName(name), `${JSON.stringify(id)} → ${name}`).toBe(true);
      expect(names.get(name), `${JSON.stringify(id)} and ${JSON.stringify(names.get(name))} both → ${name}`).toBeUndefined();
      names.set(name, id);
    }
    // Plain ids keep their name; others are escaped under a mark no plain id starts with.
    expect(defaultProjectOf("alice")).toBe("default/alice");
    expect(defaultProjectOf("mallory@example.com")).toBe("default/_mallory_aexample.com");
    expect(escapeAgentId("a_b:c@d/é")).toBe("a__b_cc_ad_u002f_u00e9");
    expect(defaultProjectOf("@".repeat(128))).toMatch(/^default\/-[0-9a-f]{64}$/);
    // No new name is a name of the old rule (those start with a letter or digit after `default/`).
    for (const id of ["mallory@example.com", "team/lead", "x".repeat(121)])
      expect(defaultProjectOf(id)).not.toBe(legacyDefaultProjectOf(id));
  });
});

describe("default projects through the endpoint", () => {
  it("keep an agent minted with another agent's derived name out of that agent's records", async () => {
    const victim = "mallory@example.com";
    const victimToken = await as(victim);
    await ok("create_record", record("victim's secret"), victimToken);
    const victimProject = (await ok("get_project", {}, victimToken)).id as string;
    expect(victimProject).toBe(defaultProjectOf(victim));

    // Every spelling of the victim's derived name, old rule and new, as an agent id of its own. One that
    // is no valid agent id (an escaped name starts with `_` or `-`) is refused at the door: a token's sub
    // is checked whenever it is verified.
    const impostors = [impostorOf(victimProject), impostorOf(legacyDefaultProjectOf(victim))];
    expect(impostors.some((impostor) => !isAgentId(impostor))).toBe(true);
    for (const impostor of impostors) {
      const attacker = await as(impostor);
      if (!isAgentId(impostor)) {
        expect((await rpc("tools/call", { name: "list_records", arguments: {} }, attacker)).status).toBe(401);
        continue;
      }
      expect(titles(await ok("list_records", {}, attacker))).toEqual([]);
      expect((await ok("get_project", {}, attacker)).id).not.toBe(victimProject);
      await ok("create_record", record(`written by ${impostor}`), attacker);
    }
    expect(titles(await ok("list_records", {}, victimToken))).toEqual(["victim's secret"]);
  });

  it("keep a default project made under the old rule reachable by its agent, and by no one else", async () => {
    const agent = "bob@example.com";
    const legacy = await registerLegacyDefault(agent);
    // The old code wrote the agent's records there (the same workspace, named explicitly here).
    await ok("create_record", { project_id: legacy, ...record("bob's old record") }, await as(agent));

    const bob = await as(agent);
    expect(titles(await ok("list_records", {}, bob))).toEqual(["bob's old record"]);
    await ok("create_record", record("bob's new record"), bob);
    expect(titles(await ok("list_records", { project_id: legacy }, bob))).toEqual(["bob's old record", "bob's new record"]);
    expect(await ok("get_project", {}, bob)).toMatchObject({ id: legacy, origin: "default", created_by: agent, open_records: 2 });

    // The agent whose plain id spells that old name gets a default of its own, not bob's.
    const impostor = impostorOf(legacy);
    const attacker = await as(impostor);
    expect(titles(await ok("list_records", {}, attacker))).toEqual([]);
    await ok("create_record", record("impostor's record"), attacker);
    const own = await ok("get_project", {}, attacker);
    expect(own).toMatchObject({ origin: "default", created_by: impostor, open_records: 1 });
    expect(own.id).not.toBe(legacy);
    expect(titles(await ok("list_records", {}, bob))).toEqual(["bob's old record", "bob's new record"]);

    // A token that grants none of them still gets the clear error, naming the agent's default.
    const outside = await failure("list_records", {}, await as(agent, { workspaces: ["acme/*"] }));
    expect(outside).toMatchObject({ code: "WORKSPACE_REQUIRED", details: { granted: ["acme/*"] } });
    expect([legacy, defaultProjectOf(agent)]).toContain(outside.details?.default_project);
  });

  it("give an old-rule name only to the agent that registered it, never to another id deriving it", async () => {
    // An old-rule default registered by a plain agent (its own name) is not taken from it.
    const plain = "carol.plain";
    await ok("create_record", record("carol's record"), await as(plain));
    expect((await ok("get_project", {}, await as(plain))).id).toBe("default/carol.plain");
    // A project of that old name registered by someone else as a default does not make it anyone else's.
    const dave = "dave@example.com";
    const squatted = legacyDefaultProjectOf(dave);
    await registerLegacyDefault(impostorOf(squatted));
    const daveToken = await as(dave);
    expect(titles(await ok("list_records", {}, daveToken))).toEqual([]);
    expect((await ok("get_project", {}, daveToken)).id).toBe(defaultProjectOf(dave));
    // A hand-minted id starting with `_` once registered, under the old rule, the name erin now derives:
    // erin gets a clear error, not that agent's records.
    const erin = "erin@example.com";
    await registerLegacyDefault(impostorOf(defaultProjectOf(erin)));
    expect(await failure("list_records", {}, await as(erin))).toMatchObject({
      code: "WORKSPACE_REQUIRED",
      details: { default_project: defaultProjectOf(erin) },
    });
  });
});
