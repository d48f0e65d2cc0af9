/** Stable numeric ids derived from identity keys, identical on every engine and across re-ingests. */
import { createHash } from 'node:crypto';

/**
 * A positive integer below 2^53 (safe in JSON and SQLite) from the key: cyrb53 (two 32-bit
 * multiplicative hash lanes, public domain), fast enough for ingest's hot path. Collisions among a
 * million parts have a probability of about 1e-4; identity keys are what the engines de-duplicate on.
 */
export function stableId53(key: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const ch = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 0x100000 * (2097151 & h2) + (h1 >>> 0) || 1;
}

/** A positive 31-bit integer (manufacturer ids and the like). */
export function stableId32(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) & 0x7fffffff || 1;
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
