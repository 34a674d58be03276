/**
 * Workspace patterns, as a token's `ws` claim and an OAuth grant name the workspaces they allow: `*`
 * matches one path segment, `**` any number. Shared by the front door (who may call) and the Directory
 * (which workspaces a listing shows), so neither imports the other.
 */

/** `*` matches one path segment, `**` any number (including none). */
export function matchesWorkspace(pattern: string, workspace: string): boolean {
  return matchSegments(pattern.split("/"), workspace.split("/"));
}

function matchSegments(pattern: string[], name: string[]): boolean {
  if (pattern.length === 0) return name.length === 0;
  const [head, ...rest] = pattern;
  if (head === "**") {
    for (let skip = 0; skip <= name.length; skip++) if (matchSegments(rest, name.slice(skip))) return true;
    return false;
  }
  if (name.length === 0) return false;
  return (head === "*" || head === name[0]) && matchSegments(rest, name.slice(1));
}
