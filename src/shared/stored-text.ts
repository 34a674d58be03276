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

// A leading U+FEFF is content, not a byte-order mark: keep it.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The UTF-16 length of the first `chars` code points of `text` (all of it when it has fewer). */
function codePointPrefixLength(text: string, chars: number): number {
  if (text.length <= chars) return text.length;
  let units = 0;
  for (let count = 0; count < chars && units < text.length; count++) {
    const code = text.charCodeAt(units);
    const next = text.charCodeAt(units + 1);
    units += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return units;
}

/**
 * The text a `prefixSql(column, chars)` value stands for: its first `chars` code points, and `cut`
 * when the stored value is longer. SQL NULL stays null. A prefix of more than `4 × chars` bytes
 * holds its first `chars` code points whole, so a code point cut by the byte bound is never shown.
 */
export function decodePrefix(value: unknown, chars: number): { text: string; cut: boolean } | null {
  if (value === null || value === undefined) return null;
  // Text arrives as such only from a caller that did not cast; it is cut all the same.
  const decoded = typeof value === "string" ? value : decoder.decode(value as ArrayBuffer | ArrayBufferView);
  const limit = Math.max(Math.trunc(chars), 0);
  const length = codePointPrefixLength(decoded, limit);
  const bytes = typeof value === "string" ? 0 : ArrayBuffer.isView(value) ? value.byteLength : (value as ArrayBuffer).byteLength;
  return { text: decoded.slice(0, length), cut: length < decoded.length || bytes >= prefixBytes(chars) };
}

/** `decodePrefix` of a NOT NULL column: the text alone. */
export function prefixText(value: unknown, chars: number): string {
  return decodePrefix(value, chars)?.text ?? "";
}

/**
 * Paths (`steps.0.title`, or `meta.<key>` for a key) of the strings in `value` — object keys included —
 * that hold a lone UTF-16 surrogate, in the order met.
 */
export function illFormedFields(value: Readonly<Record<string, unknown>>): string[] {
  const found: string[] = [];
  const visit = (item: unknown, path: string) => {
    if (typeof item === "string") {
      if (!item.isWellFormed()) found.push(path);
    } else if (Array.isArray(item)) {
      for (const [index, inner] of item.entries()) visit(inner, `${path}.${index}`);
    } else if (item !== null && typeof item === "object") {
      for (const [key, inner] of Object.entries(item)) {
        if (!key.isWellFormed()) found.push(`${path}.${key.toWellFormed()}`);
        visit(inner, `${path}.${key}`);
      }
    }
  };
  for (const [key, item] of Object.entries(value)) {
    if (!key.isWellFormed()) found.push(key.toWellFormed());
    visit(item, key);
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
