/** Stable numeric ids derived from identity keys, identical on every engine and across re-ingests. */
import { createHash } from 'node:crypto';

/** A positive integer below 2^53 (safe in JSON and SQLite) from the key's SHA-256. */
export function stableId53(key: string): number {
  const h = createHash('sha256').update(key).digest();
  // 21 bits from the high word, 32 from the low word.
  return (h.readUInt32BE(0) & 0x1fffff) * 0x100000000 + h.readUInt32BE(4) || 1;
}

/** A positive 31-bit integer (manufacturer ids and the like). */
export function stableId32(key: string): number {
  return (createHash('sha256').update(key).digest().readUInt32BE(0) & 0x7fffffff) || 1;
}

/** An opaque handle: prefix + 20 base32 characters of the key's SHA-256. */
export function opaqueId(prefix: string, key: string): string {
  const h = createHash('sha256').update(key).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const byte of h) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 20) {
      out += alphabet[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length >= 20) break;
  }
  return `${prefix}${out}`;
}
