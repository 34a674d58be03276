/**
 * `path:<repo-relative>` bindings of anchors, pure: normalising a repository path (forward slashes, no
 * `./`, no trailing `/`, no absolute path, no `..`) and listing the prefixes a path can be bound under,
 * deepest first — so `src/storage/sql.ts` is looked up as itself, `src/storage`, then `src`.
 */

export const PATH_REF_PREFIX = "path:";
/** Longest path accepted (as long as a code ref's path may be). */
export const MAX_PATH_CHARS = 512;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to reject control characters.
const CONTROL = /[\x00-\x1f\x7f]/;

export type PathResult = { ok: true; path: string } | { ok: false; problem: string };

/** The normal form of a repository-relative path, or what is wrong with it. */
export function normalizePath(raw: string): PathResult {
  let path = raw.trim();
  if (path.includes("\\")) return { ok: false, problem: "use / between path segments, not a backslash" };
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return { ok: false, problem: "the path must be repo-relative, not absolute" };
  if (CONTROL.test(path)) return { ok: false, problem: "the path may not contain control characters" };
  while (path.startsWith("./")) path = path.slice(2);
  path = path.replace(/\/+/g, "/").replace(/\/$/, "");
  const segments = path.split("/");
  if (path.length === 0 || path === ".") return { ok: false, problem: "the path is empty" };
  if (segments.includes("..") || segments.includes(".")) return { ok: false, problem: "the path may not contain a '.' or '..' segment" };
  if (path.length > MAX_PATH_CHARS) return { ok: false, problem: `the path is longer than ${MAX_PATH_CHARS} characters` };
  return { ok: true, path };
}

/** The path and each of its parent directories, deepest first. */
export function pathPrefixes(path: string): string[] {
  const segments = path.split("/");
  return segments.map((_, index) => segments.slice(0, segments.length - index).join("/"));
}

/** The bindings among an anchor's refs (`path:` refs, normalised), sorted; malformed ones are reported. */
export function pathBindings(refs: readonly string[]): { paths: string[]; problems: { ref: string; problem: string }[] } {
  const paths = new Set<string>();
  const problems: { ref: string; problem: string }[] = [];
  for (const ref of refs) {
    if (!ref.startsWith(PATH_REF_PREFIX)) continue;
    const result = normalizePath(ref.slice(PATH_REF_PREFIX.length));
    if (result.ok) paths.add(result.path);
    else problems.push({ ref, problem: result.problem });
  }
  return { paths: [...paths].sort(), problems };
}
