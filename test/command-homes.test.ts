// Every command lives where its name says (docs/architecture.md, "Where a command lives"): in the
// capability its middle segment names when there is one (`think.knowledge.upsert` in knowledge/,
// `vcs.branch.create` in branches/), else in the capability its first segment names (`vcs.notes.commit`
// in vcs/, `jobs.open` in jobs/: the last segment is the verb, never a home).

import { describe, expect, it } from "vitest";
import { COMMANDS } from "../src/catalog/catalog";
import { definingFiles } from "../src/catalog/defining-files";
import { CAPABILITY_SOURCES } from "./helpers/capability-sources";

const CAPABILITIES = [...new Set(Object.keys(CAPABILITY_SOURCES).map((path) => path.split("/")[2] as string))].sort();

/** The capability a name segment names: the folder itself, its plural, or its first word (`code` → code-refs). */
function capabilityNamed(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  return CAPABILITIES.find(
    (name) => name === segment || name === `${segment}s` || name === `${segment}es` || name.startsWith(`${segment}-`),
  );
}

/** Where a command with this dotted name belongs. */
function homeOf(name: string): string | undefined {
  const segments = name.split(".");
  const middle = segments.length >= 3 ? capabilityNamed(segments[1]) : undefined;
  return middle ?? capabilityNamed(segments[0]);
}

describe("where a command lives", () => {
  it("reads a home from a name: the middle segment's capability, else the first's", () => {
    expect(homeOf("think.knowledge.upsert")).toBe("knowledge");
    expect(homeOf("vcs.branch.create")).toBe("branches");
    expect(homeOf("think.code.attach")).toBe("code-refs");
    expect(homeOf("records.project.overview")).toBe("projects");
    expect(homeOf("vcs.notes.commit")).toBe("vcs");
    expect(homeOf("think.macro.anchor.note")).toBe("think");
    expect(homeOf("jobs.open")).toBe("jobs");
    expect(homeOf("open")).toBe("open");
    expect(homeOf("nothing.here")).toBeUndefined();
  });

  it("every command of the catalog is defined in the capability its name names", () => {
    const files = definingFiles(CAPABILITY_SOURCES, COMMANDS);
    const misplaced = COMMANDS.map((command) => ({ name: command.name, home: homeOf(command.name), file: files.get(command.name) ?? "" }))
      .filter(({ home, file }) => file.split("/")[2] !== home)
      .map(({ name, home, file }) => `${name}: defined in ${file}, belongs in src/capabilities/${home ?? "?"}/`);
    expect(misplaced).toEqual([]);
    expect(files.size).toBe(COMMANDS.length);
  });
});
