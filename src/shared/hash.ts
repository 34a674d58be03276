/**
 * FNV-1a 64-bit: a fast, synchronous, deterministic fingerprint (WebCrypto digests are async and
 * cannot run inside a synchronous transaction). Used for idempotency argument fingerprints and
 * content-addressed ids; never for secrets.
 */
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  const bytes = new TextEncoder().encode(text);
  for (const byte of bytes) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, "0");
}
