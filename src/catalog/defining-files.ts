/**
 * Which file defines each command, for the generated reference (docs/commands.md names it, so a reader
 * finds a command's code from its name). The caller reads the capabilities' sources (the docs script
 * from disk, the staleness test through Vite's raw imports) and passes them in; a command's definition
 * is the one line `name: "<dotted name>",` of a `define*Command` call, or `name: \`…${…}\`,` for a family
 * of commands defined by one template.
 */
import type { Command } from "../commands/registry";

/** Repository-relative path → the file's text. */
export type Sources = Readonly<Record<string, string>>;

/** Command name → the path of the file that defines it; throws unless each is defined exactly once. */
export function definingFiles(sources: Sources, commands: readonly Command[]): Map<string, string> {
  const wanted = new Set(commands.map((command) => command.name));
  const found = new Map<string, string[]>();
  const add = (name: string, path: string) => found.set(name, [...(found.get(name) ?? []), path]);
  for (const [path, text] of Object.entries(sources)) {
    for (const match of text.matchAll(/^\s+name: "([^"]+)",$/gm)) {
      const name = match[1] ?? "";
      if (wanted.has(name)) add(name, path);
    }
    // A family defined by one template (`think.add.${type}`): every command its shape fits.
    for (const match of text.matchAll(/^\s+name: `([^`]+)`,$/gm)) {
      const shape = new RegExp(
        `^${(match[1] ?? "")
          .split(/\$\{[^}]+\}/)
          .map(escapeRegExp)
          .join("[a-z0-9_]+")}$`,
      );
      for (const name of wanted) if (shape.test(name)) add(name, path);
    }
  }
  const files = new Map<string, string>();
  for (const name of wanted) {
    const paths = found.get(name) ?? [];
    if (paths.length !== 1) throw new Error(`command ${name} is defined in ${paths.length} files (${paths.join(", ") || "none"})`);
    files.set(name, paths[0] as string);
  }
  return files;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
