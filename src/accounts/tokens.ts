/**
 * Access tokens of the OAuth2 client-credentials grant (RFC 6749 §4.4; POST /connect/token): JSON Web
 * Tokens (RFC 7519) signed with HMAC-SHA256. A token names its API key (`sub`), the key's account
 * (`acc`) and the capabilities it grants (`scope`, space-separated, a subset of the key's), and expires
 * (`exp`, seconds since the epoch). It is a credential for the key: every request with it is admitted
 * as the key's (its throttle window, its account's ledger), and a revoked key's tokens stop working
 * with the key, since admission looks the key up as for the key itself.
 *
 * The signing key is derived from the server secret that keys the stored key hashes (the key pepper),
 * so every API process sharing the accounts verifies every other's tokens, and replacing that secret
 * voids keys and tokens alike. Only HS256 tokens this service issued verify: any other header (`alg:
 * none`, RS256...) is refused before the signature is looked at.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CAPABILITIES, type ApiKeyInfo, type Capability } from './port.ts';

export const TOKEN_ISSUER = 'partsearch';
/** Default lifetime: one day, the lifetime the Supply API clients assume when they cache a token. */
export const DEFAULT_TOKEN_TTL_SECONDS = 86_400;

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export interface AccessTokenClaims {
  iss: string;
  /** The API key's id (also the OAuth client_id). */
  sub: string;
  client_id: string;
  /** The key's account. */
  acc: string;
  /** Capabilities granted, space-separated (OAuth `scope`). */
  scope: string;
  iat: number;
  exp: number;
  jti: string;
}

/** What a valid token grants. */
export interface VerifiedToken {
  keyId: string;
  accountId: string;
  scope: Capability[];
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export interface TokenService {
  /** Lifetime of the tokens it issues, seconds. */
  readonly ttlSeconds: number;
  /** A token for the key granting `scope` (the caller keeps it within the key's capabilities). */
  issue(key: Pick<ApiKeyInfo, 'id' | 'account_id'>, scope: readonly Capability[], nowMs?: number): { token: string; exp: number };
  /** The grant of a token this service issued, or null: malformed, signed otherwise, or expired at `nowMs`. */
  verify(token: string, nowMs?: number): VerifiedToken | null;
}

/** Whether a presented credential has the form of a JWT (three base64url segments), not of an API key. */
export function looksLikeJwt(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(credential);
}

/** The capabilities of a space-separated scope that this service knows, in catalogue order. */
export function parseScope(scope: string): Capability[] {
  const asked = new Set(scope.split(/\s+/));
  return CAPABILITIES.filter((c) => asked.has(c));
}

export function createTokenService(opts: { pepper: Buffer; ttlSeconds?: number }): TokenService {
  const signingKey = createHmac('sha256', opts.pepper).update('partsearch access-token signing key v1').digest();
  const ttlSeconds = opts.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  const sign = (input: string) => createHmac('sha256', signingKey).update(input).digest();
  return {
    ttlSeconds,
    issue(key, scope, nowMs = Date.now()) {
      const iat = Math.floor(nowMs / 1000);
      const claims: AccessTokenClaims = {
        iss: TOKEN_ISSUER,
        sub: key.id,
        client_id: key.id,
        acc: key.account_id,
        scope: scope.join(' '),
        iat,
        exp: iat + ttlSeconds,
        jti: randomBytes(12).toString('base64url'),
      };
      const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      return { token: `${input}.${sign(input).toString('base64url')}`, exp: claims.exp };
    },
    verify(token, nowMs = Date.now()) {
      if (!looksLikeJwt(token)) return null;
      const [header, payload, signature] = token.split('.') as [string, string, string];
      if (header !== HEADER) return null;
      const expected = sign(`${header}.${payload}`);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let c: Partial<AccessTokenClaims>;
      try {
        c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<AccessTokenClaims>;
      } catch {
        return null;
      }
      if (c.iss !== TOKEN_ISSUER || typeof c.sub !== 'string' || typeof c.acc !== 'string' || typeof c.scope !== 'string') return null;
      if (typeof c.exp !== 'number' || c.exp * 1000 <= nowMs) return null;
      return { keyId: c.sub, accountId: c.acc, scope: parseScope(c.scope), exp: c.exp };
    },
  };
}
