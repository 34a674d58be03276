/**
 * Anchor map export, pure and deterministic: the same anchors give byte-identical text. `text` is an
 * indented tree (children under their parent, siblings by slug, anchors in a parent cycle at the end)
 * with depends_on and the aliases; `mermaid` is a flowchart (parent → child solid, depends_on dotted)
 * whose node ids are `a_<slug with _ for ->` (slugs hold no `_`, so ids never collide).
 */

export interface ExportAnchor {
  slug: string;
  title: string;
  kind: string;
  parent: string | null;
  depends_on: string[];
}

export interface ExportAlias {
  alias: string;
  anchor: string;
}

export type ExportFormat = "text" | "mermaid";

const bySlug = (x: { slug: string }, y: { slug: string }) => (x.slug < y.slug ? -1 : x.slug > y.slug ? 1 : 0);

/** The anchors in tree order, each with its depth; anchors only reachable through a cycle come last. */
function treeOrder(anchors: ExportAnchor[]): { anchor: ExportAnchor; depth: number; cycle: boolean }[] {
  const known = new Map(anchors.map((anchor) => [anchor.slug, anchor]));
  const children = new Map<string, ExportAnchor[]>();
  const roots: ExportAnchor[] = [];
  for (const anchor of [...anchors].sort(bySlug)) {
    const parent = anchor.parent;
    if (parent === null || parent === anchor.slug || !known.has(parent)) roots.push(anchor);
    else children.set(parent, [...(children.get(parent) ?? []), anchor]);
  }
  const out: { anchor: ExportAnchor; depth: number; cycle: boolean }[] = [];
  const seen = new Set<string>();
  const visit = (anchor: ExportAnchor, depth: number, cycle: boolean) => {
    if (seen.has(anchor.slug)) return;
    seen.add(anchor.slug);
    out.push({ anchor, depth, cycle });
    for (const child of children.get(anchor.slug) ?? []) visit(child, depth + 1, false);
  };
  for (const root of roots) visit(root, 0, false);
  for (const anchor of [...anchors].sort(bySlug)) visit(anchor, 0, true);
  return out;
}

function textExport(anchors: ExportAnchor[], aliases: ExportAlias[]): string {
  const known = new Set(anchors.map((anchor) => anchor.slug));
  const lines = [`# anchors: ${anchors.length}, aliases: ${aliases.length}`];
  for (const { anchor, depth, cycle } of treeOrder(anchors)) {
    const extras: string[] = [];
    if (anchor.parent !== null && (!known.has(anchor.parent) || anchor.parent === anchor.slug || cycle))
      extras.push(`parent: a:${anchor.parent}${known.has(anchor.parent) ? "" : " (unregistered)"}${cycle ? " (cycle)" : ""}`);
    if (anchor.depends_on.length > 0)
      extras.push(`depends_on: ${anchor.depends_on.map((slug) => `a:${slug}${known.has(slug) ? "" : " (unregistered)"}`).join(", ")}`);
    const head = `${"  ".repeat(depth)}a:${anchor.slug}  ${oneLine(anchor.title)} [${anchor.kind}]`;
    lines.push(extras.length === 0 ? head : `${head}  ${extras.join("; ")}`);
  }
  if (aliases.length > 0) {
    lines.push("aliases:");
    for (const alias of sortedAliases(aliases)) lines.push(`  a:${alias.alias} -> a:${alias.anchor}`);
  }
  return `${lines.join("\n")}\n`;
}

function mermaidId(slug: string): string {
  return `a_${slug.replace(/-/g, "_")}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function mermaidLabel(text: string): string {
  return oneLine(text).replace(/"/g, "#quot;");
}

function sortedAliases(aliases: ExportAlias[]): ExportAlias[] {
  return [...aliases].sort((x, y) => (x.alias < y.alias ? -1 : x.alias > y.alias ? 1 : 0));
}

function mermaidExport(anchors: ExportAnchor[], aliases: ExportAlias[]): string {
  const sorted = [...anchors].sort(bySlug);
  const known = new Set(sorted.map((anchor) => anchor.slug));
  const lines = ["flowchart TD"];
  for (const anchor of sorted) lines.push(`  ${mermaidId(anchor.slug)}["a:${anchor.slug}: ${mermaidLabel(anchor.title)}"]`);
  for (const anchor of sorted) {
    if (anchor.parent !== null && anchor.parent !== anchor.slug && known.has(anchor.parent))
      lines.push(`  ${mermaidId(anchor.parent)} --> ${mermaidId(anchor.slug)}`);
  }
  for (const anchor of sorted) {
    for (const target of [...anchor.depends_on].sort()) {
      if (target !== anchor.slug && known.has(target)) lines.push(`  ${mermaidId(anchor.slug)} -.->|depends on| ${mermaidId(target)}`);
    }
  }
  for (const alias of sortedAliases(aliases)) lines.push(`  %% alias a:${alias.alias} -> a:${alias.anchor}`);
  return `${lines.join("\n")}\n`;
}

export function exportAnchors(format: ExportFormat, anchors: ExportAnchor[], aliases: ExportAlias[]): string {
  return format === "mermaid" ? mermaidExport(anchors, aliases) : textExport(anchors, aliases);
}
