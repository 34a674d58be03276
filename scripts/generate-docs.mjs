// Writes docs/commands.md from the command catalog: `npm run docs`.
// The catalog is TypeScript that imports SQL migrations (and the Worker the app's HTML) as text, so it is bundled with esbuild (the
// same loader rule wrangler applies) into a temporary module, imported, and rendered with the
// toolsets of the Worker's surfaces. test/catalog.test.ts fails while the committed file is stale.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "docs", "commands.md");

const entry = `
export { renderCommandReference } from "./src/catalog/reference.ts";
export { definingFiles } from "./src/catalog/defining-files.ts";
export { COMMANDS } from "./src/catalog/catalog.ts";
export { DEFAULT_SURFACE, SURFACE_NAMES, toolsOf } from "./src/worker/surfaces/surfaces.ts";
`;

/** The capabilities' sources (test files aside) by repository path, for the "Defined in" line of each command. */
async function capabilitySources() {
  const sources = {};
  for (const entry of await readdir(join(root, "src", "capabilities"), { recursive: true })) {
    if (!entry.endsWith(".ts") || entry.endsWith(".test.ts")) continue;
    const path = ["src", "capabilities", ...entry.split(sep)].join("/");
    sources[path] = await readFile(join(root, path), "utf8");
  }
  return sources;
}

const dir = await mkdtemp(join(tmpdir(), "branchmind-docs-"));
try {
  const outfile = join(dir, "reference.mjs");
  await build({
    stdin: { contents: entry, resolveDir: root, loader: "ts", sourcefile: "docs-entry.ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    loader: { ".sql": "text", ".html": "text" },
    outfile,
    logLevel: "warning",
  });
  const { renderCommandReference, definingFiles, COMMANDS, DEFAULT_SURFACE, SURFACE_NAMES, toolsOf } = await import(
    pathToFileURL(outfile).href
  );
  const toolsets = Object.fromEntries(SURFACE_NAMES.map((name) => [name, toolsOf(name).map((tool) => tool.name)]));
  const definedIn = definingFiles(await capabilitySources(), COMMANDS);
  const markdown = renderCommandReference({ toolsets, defaultToolset: DEFAULT_SURFACE, definedIn });
  await writeFile(target, markdown);
  process.stderr.write(`wrote ${join("docs", "commands.md")} (${markdown.length} characters)\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
