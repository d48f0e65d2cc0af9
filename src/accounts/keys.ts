/**
 * API key secrets and the ids of the account layer.
 *
 * A secret is the fixed prefix `psk_` followed by the base64url form (no padding, 43 characters) of
 * 32 random bytes. Only HMAC-SHA256(pepper, secret) is stored; the pepper is a server-side secret
 * kept outside the database, so a leaked database alone cannot be used to test guessed keys.
 * `looksLikeKey` rejects malformed input before any hashing or lookup.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { opaqueId } from '../catalog/ids.ts';

export const KEY_PREFIX = 'psk_';
/** Characters of a secret shown in listings (`ApiKeyInfo.prefix`). */
export const DISPLAY_PREFIX_LENGTH = 12;
const KEY_BODY_BYTES = 32;
const KEY_PATTERN = /^psk_[A-Za-z0-9_-]{43}$/;

/** A new key secret: `psk_` + base64url(32 random bytes). */
export function generateKeySecret(): string {
  return KEY_PREFIX + randomBytes(KEY_BODY_BYTES).toString('base64url');
}

/** Format check, done before any lookup: the prefix and exactly 43 base64url characters. */
export function looksLikeKey(secret: unknown): secret is string {
  return typeof secret === 'string' && secret.length === KEY_PREFIX.length + 43 && KEY_PATTERN.test(secret);
}

/** The stored form of a secret: HMAC-SHA256 keyed with the pepper, lower-case hex. */
export function hashKey(secret: string, pepper: Buffer): string {
  return createHmac('sha256', pepper).update(secret, 'utf8').digest('hex');
}

/** The stored form of a presented secret, or null when it is malformed (AccountStore.keyHash). */
export function keyHashOf(secret: string, pepper: Buffer): string | null {
  return looksLikeKey(secret) ? hashKey(secret, pepper) : null;
}

/** What listings show of a secret: its first 12 characters (`psk_` + 8). */
export function displayPrefix(secret: string): string {
  return secret.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** Throws unless the pepper is a non-empty Buffer. */
export function checkPepper(pepper: unknown): Buffer {
  if (!Buffer.isBuffer(pepper) || pepper.length === 0) throw new TypeError('accounts: the key pepper must be a non-empty Buffer');
  return pepper;
}

export const newAccountId = (): string => opaqueId('acc_', randomBytes(16).toString('hex'));
export const newKeyId = (): string => opaqueId('key_', randomBytes(16).toString('hex'));
