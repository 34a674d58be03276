/**
 * The export digest: FNV-1a 64 over the UTF-8 bytes of every line between the header and the trailer
 * (the tables and their rows), each followed by its newline — the same function as shared/hash.ts's `fnv1a64` over the concatenated text, computed
 * incrementally (the state travels in the export cursor and in the restore state as 16 hex digits) and
 * with 32-bit arithmetic instead of BigInt, since an export hashes every byte it writes. The trailer
 * carries it, so a restore detects a changed, dropped or spliced line. An integrity check, not a signature.
 */

/** FNV-1a 64's offset basis, as 16 hex digits: the digest of no lines. */
export const DIGEST_START = "cbf29ce484222325";

const encoder = new TextEncoder();
const NEWLINE = 0x0a;
/** FNV-1a 64's prime is 2^40 + 0x1b3: a product is `x * 0x1b3 + (x << 40)`. */
const PRIME_LOW = 0x1b3;
const TWO_TO_32 = 4_294_967_296;

/** The digest after `lines` (each hashed with a trailing newline), from the digest `state` before them. */
export function digestLines(state: string, lines: readonly string[]): string {
  let high = Number.parseInt(state.slice(0, 8), 16);
  let low = Number.parseInt(state.slice(8, 16), 16);
  const step = (byte: number) => {
    low = (low ^ byte) >>> 0;
    const lowProduct = low * PRIME_LOW; // < 2^41: exact in a double
    const carry = Math.floor(lowProduct / TWO_TO_32);
    high = (Math.imul(high, PRIME_LOW) + carry + (low << 8)) >>> 0;
    low = lowProduct >>> 0;
  };
  for (const line of lines) {
    for (const byte of encoder.encode(line)) step(byte);
    step(NEWLINE);
  }
  return high.toString(16).padStart(8, "0") + low.toString(16).padStart(8, "0");
}

export function isDigest(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{16}$/.test(value);
}
