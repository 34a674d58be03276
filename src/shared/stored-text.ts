/**
 * Text that goes through SQLite and comes back the same: bounded prefixes of stored TEXT, and the
 * strings SQLite cannot store as given.
 *
 * SQLite's `substr()` and `length()` on TEXT stop at the first NUL (U+0000), so a note holding one
 * would read back cut there. A bounded read therefore cuts the value's UTF-8 bytes in SQL (`substr`
 * of a BLOB counts bytes and knows no NUL) and is decoded and cut to code points here: the same
 * count the text `substr` used, so callers that compare lengths keep their meaning.
 *
 * A lone UTF-16 surrogate has no UTF-8 form: SQLite would store bytes that read back as U+FFFD. Such
 * strings are found by `illFormedFields` so the call can be refused, naming the fields, before it runs.
 */
import { type AppError, appError } from "./errors";

/** Every code point takes at most 4 UTF-8 bytes; one byte more tells that the value goes on. */
const MAX_BYTES_PER_CODE_POINT = 4;

/** Bytes a prefix of `chars` code points is read with (clamped to a safe integer). */
function prefixBytes(chars: number): number {
  return Math.min(Math.max(Math.trunc(chars), 0) * MAX_BYTES_PER_CODE_POINT + 1, Number.MAX_SAFE_INTEGER);
}

/**
 * A SQL expression (no alias) for the start of TEXT `column` as a BLOB: enough bytes for its first
 * `chars` code points, and one more when it is longer. Decode it with `decodePrefix(value, chars)`.
 */
export function prefixSql(column: string, chars: number): string {
  return `substr(CAST(${column} AS BLOB), 1, ${prefixBytes(chars)})`;
}

/**
 * A SQL expression for the code points of TEXT `column` when it holds no NUL, else NULL: `length()`
 * stops at the first NUL and `replace()` cannot remove one, so such a value is counted with
 * `codePoints` from its text.
 */
export function nulFreeCharsSql(column: string): string {
  return `CASE WHEN instr(${column}, char(0)) = 0 THEN length(${column}) END`;
}

/** Code points of `text`: what SQLite's `length()` counts on text without a NUL. */
export function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

// A leading U+FEFF is content, not a byte-order mark: keep it.
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

const SURROGATE = /[\uD800-\uDFFF]/;

/** The UTF-16 length of the first `chars` code points of `text` (all of it when it has fewer). */
function codePointPrefixLength(text: string, chars: number): number {
  if (text.length <= chars) return text.length;
  // Without a surrogate among the first `chars` units, they are the first `chars` code points.
  if (!SURROGATE.test(text.slice(0, chars))) return chars;
  let units = 0;
  for (let count = 0; count < chars && units < text.length; count++) {
    const code = text.charCodeAt(units);
    const next = text.charCodeAt(units + 1);
    units += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return units;
}

/** The bytes of a BLOB as SQLite hands it over. */
function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return new Uint8Array(value as ArrayBuffer);
}

/**
 * Decodes `bytes` far enough to hold `limit + 1` code points, when they do. Most text needs about a
 * byte a code point, so the first `limit + 1` bytes are decoded first (streaming: a code point they
 * cut waits for the rest) and the rest only when those hold too few code points.
 */
function decodeEnough(bytes: Uint8Array, limit: number): string {
  if (bytes.length <= limit + 1) return decoder.decode(bytes);
  const head = decoder.decode(bytes.subarray(0, limit + 1), { stream: true });
  if (codePointPrefixLength(head, limit) < head.length) {
    decoder.decode(); // ends the stream, so the next call starts clean
    return head;
  }
  return head + decoder.decode(bytes.subarray(limit + 1));
}

/**
 * The text a `prefixSql(column, chars)` value stands for: its first `chars` code points, and `cut`
 * when the stored value is longer. SQL NULL stays null. A prefix of more than `4 × chars` bytes
 * holds its first `chars` code points whole, so a code point cut by the byte bound is never shown.
 */
export function decodePrefix(value: unknown, chars: number): { text: string; cut: boolean } | null {
  if (value === null || value === undefined) return null;
  const limit = Math.max(Math.trunc(chars), 0);
  // Text arrives as such only from a caller that did not cast; it is cut all the same.
  const bytes = typeof value === "string" ? null : bytesOf(value);
  const decoded = bytes === null ? (value as string) : decodeEnough(bytes, limit);
  const length = codePointPrefixLength(decoded, limit);
  return { text: decoded.slice(0, length), cut: length < decoded.length || (bytes?.length ?? 0) >= prefixBytes(chars) };
}

/** `decodePrefix` of a NOT NULL column: the text alone. */
export function prefixText(value: unknown, chars: number): string {
  return decodePrefix(value, chars)?.text ?? "";
}

/** A place in the arguments: its key and its parent, so a path is spelled only when one is reported. */
interface Place {
  key: string;
  parent: Place | undefined;
}

function pathOf(place: Place): string {
  const keys: string[] = [];
  for (let at: Place | undefined = place; at !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join(".");
}

/**
 * Paths (`steps.0.title`, or `meta.<key>` for a key) of the strings in `value` — object keys included —
 * that hold a lone UTF-16 surrogate. Iterative, and paths are spelled only for what it
 * reports: arguments nested however deep cost neither the stack nor quadratic memory.
 */
export function illFormedFields(value: Readonly<Record<string, unknown>>): string[] {
  const found: string[] = [];
  const pending: { item: unknown; place: Place | undefined }[] = [{ item: value, place: undefined }];
  while (pending.length > 0) {
    const { item, place } = pending.pop() as { item: unknown; place: Place | undefined };
    if (typeof item === "string") {
      if (!item.isWellFormed() && place !== undefined) found.push(pathOf(place));
      continue;
    }
    if (item === null || typeof item !== "object") continue;
    const entries = Array.isArray(item) ? item.map((inner, index) => [String(index), inner] as const) : Object.entries(item);
    // Pushed last first, so entries are met in order.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, inner] = entries[index] as readonly [string, unknown];
      const child: Place = { key, parent: place };
      pending.push({ item: inner, place: child });
      if (!key.isWellFormed()) found.push(pathOf({ key: key.toWellFormed(), parent: place }));
    }
  }
  return found;
}

const MAX_NAMED_FIELDS = 5;

/** INVALID_INPUT for a call whose `fields` hold a lone surrogate (see `illFormedFields`): nothing ran. */
export function illFormedError(tool: string, fields: string[]): AppError {
  const shown = fields.slice(0, MAX_NAMED_FIELDS).map((field) => field.toWellFormed());
  return appError(
    "INVALID_INPUT",
    `${tool}: ${shown.join(", ")} ${fields.length === 1 ? "holds" : "hold"} a lone UTF-16 surrogate, which cannot be stored as text; nothing was written.`,
    "Send well-formed Unicode: pair each surrogate (\\uD800-\\uDBFF followed by \\uDC00-\\uDFFF) or remove it.",
    { fields: shown, ill_formed: fields.length },
  );
}
