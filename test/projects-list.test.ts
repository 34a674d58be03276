// Record-Sync projects (seed 004, docs/projects.md), listed: list_projects over 200+ projects (pages,
// one call, budget), token patterns, and the summaries pushed by the workspace alarm (counts, never
// backwards; any workspace that pushed one is listed as a project).

import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { as, failure, ok } from "./helpers/mcp";
import { directory, type ListItem, type Page, walk } from "./helpers/projects";

describe("list_projects", () => {
  it("lists 200+ projects in pages and in one call, in id order, within the budget", async () => {
    const bulk = await as("bulk-agent", { workspaces: ["bulk/*"] });
    const ids = Array.from({ length: 210 }, (_, index) => `bulk/p-${String(index).padStart(3, "0")}`);
    // Ten through create_project; the other 200 registered straight in the Directory (no workspace to wake).
    const created = ids.filter((_, index) => index % 21 === 0);
    expect(created.length).toBe(10);
    await Promise.all(created.map((id) => ok("create_project", { id, name: `Project ${id.slice(5)}` }, bulk)));
    for (const id of ids.filter((id) => !created.includes(id))) {
      const registered = await directory().ensureProject({
        id,
        name: `Project ${id.slice(5)}`,
        description: null,
        origin: "workspace",
        agent_id: null,
      });
      expect(registered.ok).toBe(true);
    }
    const paged = await walk(bulk, 50);
    expect(paged.ids).toEqual(ids);
    expect(paged.pages).toBe(5);

    const whole = await ok<Page>("list_projects", { limit: 250, budget_profile: "audit" }, bulk);
    expect(whole.projects.map((project) => project.id)).toEqual(ids);
    expect(whole.pagination).toMatchObject({ has_more: false, count: 210, limit: 250 });
    expect(whole.budget.truncated).toBe(false);
    expect(whole.projects[7]).toEqual({
      id: "bulk/p-007",
      name: "Project p-007",
      tick: 0,
      open_sessions: 0,
      open_records: 0,
      as_of_tick: 0,
    });

    // The default page (100) fits the default budget untrimmed.
    const first = await ok<Page>("list_projects", {}, bulk);
    expect(first.projects.length).toBe(100);
    expect(first.budget).toMatchObject({ max_chars: 20_000, truncated: false });

    // A tight budget drops projects from the end, and next_cursor resumes right after the last one shown.
    const tight = await ok<Page>("list_projects", { limit: 250, max_chars: 3_000 }, bulk);
    expect(tight.budget).toMatchObject({ truncated: true });
    expect(tight.budget.used_chars).toBeLessThanOrEqual(3_000);
    const shown = tight.projects.map((project) => project.id);
    expect(shown).toEqual(ids.slice(0, shown.length));
    expect(tight.pagination).toMatchObject({ has_more: true, next_cursor: shown[shown.length - 1] });
    const rest = await ok<Page>("list_projects", { limit: 250, budget_profile: "audit", cursor: tight.pagination.next_cursor }, bulk);
    expect(rest.projects.map((project) => project.id)).toEqual(ids.slice(shown.length));
  });

  it("shows only the projects the token's patterns grant", async () => {
    for (const id of ["scope/a/one", "scope/a/two", "scope/b/one", "scope/c"]) await ok("create_project", { id, name: id });
    expect((await walk(await as("scoped", { workspaces: ["scope/a/*"] }), 10)).ids).toEqual(["scope/a/one", "scope/a/two"]);
    expect((await walk(await as("scoped", { workspaces: ["scope/*/one", "scope/c"] }), 1)).ids).toEqual([
      "scope/a/one",
      "scope/b/one",
      "scope/c",
    ]);
    expect((await walk(await as("scoped", { workspaces: ["scope/**"] }), 2)).ids).toEqual([
      "scope/a/one",
      "scope/a/two",
      "scope/b/one",
      "scope/c",
    ]);
    expect((await walk(await as("scoped", { workspaces: ["elsewhere/*"] }), 10)).ids).toEqual([]);
    // get_project is held to the same patterns.
    expect((await failure("get_project", { id: "scope/c" }, await as("scoped", { workspaces: ["scope/a/*"] }))).code).toBe("FORBIDDEN");
  });

  it("shows the tick, open sessions and open records a workspace pushed, never moving backwards", async () => {
    const id = "counts/pushed";
    await ok("create_project", { id, name: "Counts" });
    const viewer = await as("counts-viewer", { workspaces: ["counts/*"] });
    // The create's own push: the workspace exists, Record-Sync counts are zero.
    expect(await runDurableObjectAlarm(env.WORKSPACES.getByName(id))).toBe(true);
    const initial = (await ok<Page>("list_projects", {}, viewer)).projects[0] as ListItem;
    expect(initial).toMatchObject({ id, tick: 0, open_records: 0, open_sessions: 0 });
    expect(initial.as_of_tick).toBeGreaterThan(0);
    // A later summary with Record-Sync counts (as a workspace with records pushes it) replaces it...
    await directory().report({
      name: id,
      tick: initial.as_of_tick + 5,
      seq: 0,
      branches: 1,
      as_of_tick: initial.as_of_tick + 5,
      project_tick: 4,
      open_records: 3,
      open_sessions: 2,
    });
    const after = (await ok<Page>("list_projects", {}, viewer)).projects[0];
    expect(after).toMatchObject({ tick: 4, open_records: 3, open_sessions: 2, as_of_tick: initial.as_of_tick + 5 });
    // ...and an older one arriving late is ignored.
    await directory().report({ name: id, tick: 1, seq: 0, branches: 1, as_of_tick: 1, project_tick: 0, open_records: 0, open_sessions: 0 });
    expect((await ok<Page>("list_projects", {}, viewer)).projects[0]).toMatchObject({ tick: 4, open_records: 3 });
  });

  it("lists any workspace that pushed a summary as a project named after itself", async () => {
    const workspace = "plain/workspace";
    await ok("notes_commit", { workspace, content: "x" });
    const viewer = await as("plain-viewer", { workspaces: ["plain/*"] });
    expect((await ok<Page>("list_projects", {}, viewer)).projects).toEqual([]);
    expect(await runDurableObjectAlarm(env.WORKSPACES.getByName(workspace))).toBe(true);
    expect((await ok<Page>("list_projects", {}, viewer)).projects).toEqual([
      { id: workspace, name: workspace, tick: 0, open_sessions: 0, open_records: 0, as_of_tick: 1 },
    ]);
  });
});
