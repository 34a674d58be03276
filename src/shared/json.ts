/**
 * Deterministic JSON: canonical (key-sorted) serialization for fingerprints, and the text block
 * layout of tool results. The text block is compact JSON with each top-level field and each element
 * of a top-level list on its own line, so `max_lines` has a meaning and the block stays valid JSON.
 */

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) sorted[key] = sortKeys(item);
    }
    return sorted;
  }
  return value;
}

export function renderTextBlock(payload: Record<string, unknown>): string {
  const fields: string[] = [];
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined) continue;
    const name = JSON.stringify(key);
    if (Array.isArray(value) && value.length > 0) {
      fields.push(`${name}:[\n${value.map((item) => JSON.stringify(item)).join(",\n")}\n]`);
    } else {
      fields.push(`${name}:${JSON.stringify(value)}`);
    }
  }
  return fields.length === 0 ? "{}" : `{\n${fields.join(",\n")}\n}`;
}

export function countLines(text: string): number {
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  return lines;
}

export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * The first top-level field of `args` whose value nests deeper than `maxDepth` levels (the field itself
 * is level 1 when it is an object or array), or undefined. Iterative: a value nested 50,000 levels deep
 * costs no stack, and the walk stops at the first value past the limit.
 */
export function fieldNestedDeeperThan(args: Readonly<Record<string, unknown>>, maxDepth: number): string | undefined {
  for (const [field, value] of Object.entries(args)) {
    const pending: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
    while (pending.length > 0) {
      const { value: item, depth } = pending.pop() as { value: unknown; depth: number };
      if (item === null || typeof item !== "object") continue;
      if (depth > maxDepth) return field;
      for (const inner of Array.isArray(item) ? item : Object.values(item)) pending.push({ value: inner, depth: depth + 1 });
    }
  }
  return undefined;
}
