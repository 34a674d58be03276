/** Cutting text for display: one rule for every short line the server writes (titles, why lines, quotes). */

/** `text` whole when it has at most `maxChars` characters, else its start and `…`, `maxChars` in all. */
export function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}
