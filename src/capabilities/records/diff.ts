/**
 * A small deterministic line diff for record bodies, pure: the common prefix and suffix are cut,
 * the middle is aligned by a longest-common-subsequence table (ties prefer deletions first, so the
 * same inputs always give the same script), and the script is printed as a unified diff with 3 lines
 * of context. A middle too large for the table is shown as one replacement (still a correct diff).
 * Lines are split on "\n"; a trailing newline shows as a last empty line.
 */

/** Cells of the LCS table at most (2-byte cells: 4 MB), far above any body within MAX_RECORD_BODY_CHARS edited in place. */
const MAX_TABLE_CELLS = 2_000_000;
/** Lines of unchanged context around each change. */
export const CONTEXT_LINES = 3;

export type Op = { kind: "same" | "del" | "add"; line: string };

export function splitLines(text: string): string[] {
  return text === "" ? [] : text.split("\n");
}

/** The edit script turning `a` into `b`, line by line. */
export function diffLines(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = a.slice(0, start).map((line) => ({ kind: "same", line }));
  ops.push(...middle(a.slice(start, endA), b.slice(start, endB)));
  for (const line of a.slice(endA)) ops.push({ kind: "same", line });
  return ops;
}

function middle(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_TABLE_CELLS || n > 0xffff || m > 0xffff) {
    return [...a.map((line) => ({ kind: "del" as const, line })), ...b.map((line) => ({ kind: "add" as const, line }))];
  }
  // lcs[i][j] = length of the LCS of a[i..] and b[j..], stored row-major.
  const width = m + 1;
  const lcs = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: "same", line: a[i] as string });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number)) {
      ops.push({ kind: "del", line: a[i] as string });
      i++;
    } else {
      ops.push({ kind: "add", line: b[j] as string });
      j++;
    }
  }
  for (; i < n; i++) ops.push({ kind: "del", line: a[i] as string });
  for (; j < m; j++) ops.push({ kind: "add", line: b[j] as string });
  return ops;
}

/** `start,count` of a hunk side; an empty side names the line before it (unified diff convention). */
function range(start: number, count: number): string {
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/**
 * The unified diff of two texts with `--- from` / `+++ to` headers; "" when they are equal.
 */
export function unifiedDiff(before: string, after: string, labels: { from: string; to: string }, context = CONTEXT_LINES): string {
  if (before === after) return "";
  const ops = diffLines(splitLines(before), splitLines(after));
  const changed = ops.map((op, index) => (op.kind === "same" ? -1 : index)).filter((index) => index >= 0);
  const out = [`--- ${labels.from}`, `+++ ${labels.to}`];
  // Group changes whose contexts touch into one hunk. Line counters run forward with the hunks.
  let oldLine = 0;
  let newLine = 0;
  let counted = 0;
  let g = 0;
  while (g < changed.length) {
    let last = changed[g] as number;
    let next = g + 1;
    while (next < changed.length && (changed[next] as number) - last - 1 <= 2 * context) {
      last = changed[next] as number;
      next++;
    }
    const from = Math.max((changed[g] as number) - context, 0);
    const to = Math.min(last + context, ops.length - 1);
    for (; counted < from; counted++) {
      const kind = (ops[counted] as Op).kind;
      if (kind !== "add") oldLine++;
      if (kind !== "del") newLine++;
    }
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    for (let k = from; k <= to; k++) {
      const op = ops[k] as Op;
      if (op.kind === "same") {
        body.push(` ${op.line}`);
        oldCount++;
        newCount++;
      } else if (op.kind === "del") {
        body.push(`-${op.line}`);
        oldCount++;
      } else {
        body.push(`+${op.line}`);
        newCount++;
      }
    }
    out.push(`@@ -${range(oldLine, oldCount)} +${range(newLine, newCount)} @@`, ...body);
    oldLine += oldCount;
    newLine += newCount;
    counted = to + 1;
    g = next;
  }
  return out.join("\n");
}

/** A diff cut to `maxChars` at a line boundary; `truncated` says it was cut. */
export function cutDiff(diff: string, maxChars: number): { text: string; truncated: boolean } {
  if (diff.length <= maxChars) return { text: diff, truncated: false };
  const cut = diff.lastIndexOf("\n", maxChars);
  return { text: diff.slice(0, cut > 0 ? cut : maxChars), truncated: true };
}
