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
