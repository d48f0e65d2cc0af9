/**
 * The key of a kept vector: the first 16 bytes of SHA-256 over the embedder's fingerprint and the
 * text embedded. A new model (another file, precision or truncation: port.ts `fingerprint`) or a new
 * embedding text (catalog/normalise.ts embeddingText) gives a new key, so a vector is only ever reused
 * for the exact input that produced it. 128 bits: a collision among a billion texts is about 1 in 10^21.
 */
import { createHash } from 'node:crypto';
import type { Embedder } from './port.ts';

export const KEY_BYTES = 16;

/** What the vectors of `e` depend on besides the text. */
export function embedderIdentity(e: Pick<Embedder, 'model' | 'dims' | 'fingerprint'>): string {
  return e.fingerprint ?? `${e.model}|${e.dims}`;
}

export function embeddingKey(identity: string, text: string): Buffer {
  return createHash('sha256').update(identity).update('\n').update(text).digest().subarray(0, KEY_BYTES);
}
