/**
 * Access control for declared routes, in this order:
 *   1. throttle: 60 requests per sliding 60 s per key, and 60 failed authentications (no key, a bad
 *      one) per client address (client-address.ts), counted before the key is judged: a credential the
 *      gate has not seen authenticate is judged only while its address has failures to spare
 *      (accounts/gate.ts), so invalid keys are throttled too, per client; every /v1 response carries
 *      X-RateLimit-Limit / -Remaining / -Reset, a 429 adds Retry-After;
 *   2. authentication: missing -> 401 missing_api_key; malformed, unknown or revoked -> 401 invalid_api_key.
 *      The credential is an API key or an access token of one (POST /connect/token; accounts/tokens.ts),
 *      in `Authorization: Bearer` or, as Supply API clients send it, a `token:` header. A token is
 *      admitted as its key (the key's throttle window, revocation, account and ledger) within its scope;
 *      an expired or forged one is invalid_api_key;
 *   3. capability: a key without the route's capability -> 403 insufficient_scope;
 *   4. monthly anti-abuse cap -> 429 rate_limit_exceeded "Monthly API request limit reached.";
 *   5. paid routes: no subscription -> 403 subscription_required; no credit -> 402 insufficient_credit.
 * Metering itself happens after the work succeeded (ctx.state.charge), so failures are never charged;
 * a HEAD request, which shows nothing, is never charged either. A route with a fixed `price` behind the
 * Redis gate is debited with its admission (one round trip instead of two); the handler's charge then
 * confirms it, and a call that does not confirm it gets it back as it ends.
 */
import { createHash } from 'node:crypto';
import type { Context, Next } from 'koa';
import { currentPeriod, debitAtPrice, priceOf, usd } from '../../accounts/billing.ts';
import { createGate, type Admission, type PreCharge } from '../../accounts/gate.ts';
import type { ApiKeyInfo, AuthState, Capability, DebitResult, ThrottleDecision, UsageClass } from '../../accounts/port.ts';
import { looksLikeJwt, type VerifiedToken } from '../../accounts/tokens.ts';
import { ApiError } from '../../errors.ts';
import { clientAddresses, failureBucket } from './client-address.ts';
import { routePath, type RouteSpec } from '../route.ts';
import type { AppServices } from '../../service/app-services.ts';

export type { AuthState };

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;
const WINDOW_MS = 60_000;

/** What the guard derives from an Authorization header: the secret, its keyed hash and the throttle bucket. */
interface Credential {
  header: string;
  secret: string | null;
  keyHash: string | null;
  bucket: string;
  /** Set when the secret is a valid access token: the key it stands for is `keyHash`'s. */
  token?: VerifiedToken;
}

/** Largest number of key ids whose stored hash the guard remembers (for access tokens) before it forgets them all. */
const KEY_HASHES_MAX = 10_000;

/**
 * The credential of a request: its Authorization header, else its `token` header (Supply API clients
 * send an access token there) as a bearer credential.
 */
function credentialHeader(ctx: Context): string {
  const authorization = ctx.get('Authorization');
  if (authorization) return authorization;
  const token = ctx.get('token');
  return token ? `Bearer ${token}` : '';
}

/** The key's capabilities that a token's scope grants. */
const scoped = (key: ApiKeyInfo, scope: readonly Capability[]): ApiKeyInfo => ({ ...key, capabilities: key.capabilities.filter((c) => scope.includes(c)) });

/** `guardedElsewhere`: guarded paths outside /v1 (lower case), throttled by `unrouted` like /v1 paths. */
export function createGuard(s: AppServices, guardedElsewhere: readonly string[] = []) {
  const elsewhere = new Set(guardedElsewhere);
  const clientAddress = clientAddresses(s.config.trustedProxies);
  const billing = s.config.billing;
  const gate = s.gate ?? createGate(s.accounts, s.throttle);
  /**
   * The last credential seen on each connection. Clients send the same header on every request of a
   * keep-alive connection, and deriving the keyed hash and the bucket is two SHA-256 computations; a
   * repeat costs one constant-time comparison of the header instead (sameText: a connection shared by
   * several clients behind a proxy learns nothing from its timing). Only derived values are
   * remembered: authentication itself runs on every request (and a token's expiry is checked on each).
   * Per guard, since the keyed hash depends on its account store's pepper.
   */
  const lastCredential = new WeakMap<object, Credential>();
  /** Key id -> its stored hash, for access tokens (a key's hash never changes; revocation is judged at admission). */
  const keyHashes = new Map<string, string>();
  const invalid = (header: string, secret: string | null): Credential => ({
    header,
    secret,
    keyHash: null,
    bucket: `cred:${createHash('sha256').update(header).digest('hex').slice(0, 32)}`,
  });
  const remember = (connection: object, c: Credential) => {
    lastCredential.set(connection, c);
    return c;
  };
  /** The credential of an access token: the key it names, found by id once per process. */
  const tokenCredential = (connection: object, header: string, secret: string): Credential | Promise<Credential> => {
    const token = s.tokens.verify(secret);
    if (!token) return remember(connection, invalid(header, secret));
    const make = (keyHash: string | null) =>
      remember(connection, keyHash === null ? invalid(header, secret) : { header, secret, keyHash, bucket: `key:${keyHash.slice(0, 32)}`, token });
    const known = keyHashes.get(token.keyId);
    if (known !== undefined) return make(known);
    return s.accounts.keyHashById(token.keyId).then((keyHash) => {
      if (keyHash !== null) {
        if (keyHashes.size >= KEY_HASHES_MAX) keyHashes.clear();
        keyHashes.set(token.keyId, keyHash);
      }
      return make(keyHash);
    });
  };
  function credentialOf(connection: object, header: string): Credential | Promise<Credential> {
    const last = lastCredential.get(connection);
    if (last && sameText(last.header, header)) return last.token && last.token.exp * 1000 <= Date.now() ? invalid(header, last.secret) : last;
    const secret = BEARER.exec(header)?.[1] ?? null;
    if (secret !== null && looksLikeJwt(secret)) return tokenCredential(connection, header, secret);
    const keyHash = secret === null ? null : s.accounts.keyHash(secret);
    // A well-formed key is throttled by its keyed hash (so "Bearer" and "bearer" are one bucket); anything
    // else by a hash of the whole header.
    if (keyHash === null) return remember(connection, invalid(header, secret));
    return remember(connection, { header, secret, keyHash, bucket: `key:${keyHash.slice(0, 32)}` });
  }
  /**
   * The gate's admission of this request (throttle step, key, monthly count when `countsFor`), marked on
   * the context so that `unrouted` does not count it again if what follows fails. Synchronous when the
   * gate can admit without I/O (the embedded default) and the credential is known; a promise otherwise.
   */
  const admit = (ctx: Context, header: string, period: string, countsFor: (key: ApiKeyInfo) => boolean, charge?: PreCharge) => {
    ctx.state.admitting = true;
    const cred = header ? credentialOf(ctx.req.socket, header) : null;
    return cred instanceof Promise ? cred.then((c) => admitWith(ctx, c, period, countsFor, charge)) : admitWith(ctx, cred, period, countsFor, charge);
  };
  const admitWith = (ctx: Context, cred: Credential | null, period: string, countsFor: (key: ApiKeyInfo) => boolean, charge?: PreCharge) => {
    const token = cred?.token;
    // The throttle counts the request whatever the key turns out to be (see the gate).
    const failures = failureBucket(clientAddress(ctx));
    const req = {
      bucket: cred?.bucket ?? failures,
      failures,
      secret: cred?.secret ?? null,
      keyHash: cred?.keyHash ?? null,
      defaultLimit: billing.defaultRateLimitPerMinute,
      windowMs: WINDOW_MS,
      period,
      countsFor: token ? (key: ApiKeyInfo) => countsFor(scoped(key, token.scope)) : countsFor,
      ...(charge ? { charge } : {}),
    };
    const admitted = gate.admitNow ? gate.admitNow(req) : gate.admit(req);
    if (!token) return admitted;
    // A token grants its key's capabilities within its scope.
    const within = (a: Admission): Admission => (a.auth ? { ...a, auth: { ...a.auth, key: scoped(a.auth.key, token.scope) } } : a);
    return admitted instanceof Promise ? admitted.then(within) : within(admitted);
  };
  const countsForNothing = () => false;
  /** Throttles a request that no route's guard admitted (see `unrouted`). */
  const admitUnrouted = async (ctx: Context) => {
    if (ctx.state.admitting) return; // the route's guard took it (even if its admission then failed)
    rateLimited(ctx, (await admit(ctx, credentialHeader(ctx), currentPeriod().key, countsForNothing)).throttle);
  };
  /**
   * A /v1 request (or one to a guarded path outside /v1: GraphQL) that reaches no route (404, 405) or
   * fails before its route runs (a body too large
   * or not JSON) is throttled like any other, so every /v1 response carries the rate-limit headers and
   * probing unknown paths uses up the window too; a full window turns it into the 429. It is not
   * counted against the monthly cap, and the key is not judged beyond finding its limit.
   */
  const unrouted = async (ctx: Context, next: Next) => {
    // The router matches paths in any case: so does this.
    const p = routePath(ctx.path);
    if (p !== '/v1' && !p.startsWith('/v1/') && !elsewhere.has(p)) return next();
    try {
      await next();
    } catch (e) {
      await admitUnrouted(ctx);
      throw e;
    }
    // Unmatched (404), another method (405, and the router's 501 for one it does not know), or the router's own answer to OPTIONS.
    if (ctx.method === 'OPTIONS' || (ctx.body === undefined && ctx.status >= 400)) await admitUnrouted(ctx);
  };
  const forRoute = (route: RouteSpec) => {
    if (route.access === 'public') return (_ctx: Context, next: Next) => next();
    const access = route.access;
    const allowedFor = (key: ApiKeyInfo) => access === 'authenticated' || key.capabilities.includes(access);
    // A price held from admission to the end of the call is credit other calls of the account cannot
    // use meanwhile, so it is held only where that cannot matter: no monthly quota on the class (a held
    // unit could refuse another call's), and (in the gate) a balance of at least PRECHARGE_HEADROOM prices.
    // Otherwise, and when the gate does not charge at admission, the handler's charge debits after the work.
    const price = route.paid && route.price && billing.quotas[route.price.usage_class] === undefined ? route.price : undefined;
    const preCharge: PreCharge | undefined = price && {
      usage_class: price.usage_class,
      units: price.units,
      amount_micros: priceOf(billing, price.usage_class, price.units),
      quota: null,
      monthlyCap: billing.monthlyRequestCap,
    };
    return async (ctx: Context, next: Next) => {
      if (route.publicWhen?.(ctx)) return next();
      const header = credentialHeader(ctx);
      const period = currentPeriod();
      // HEAD shows no record: nothing to charge (a link checker's HEAD on a part URL is free).
      const admitted = admit(ctx, header, period.key, allowedFor, ctx.method === 'HEAD' ? undefined : preCharge);
      const { throttle: t, auth, requests, charged } = 'then' in admitted ? await admitted : admitted;
      /**
       * The price debited with the admission, until the handler confirms it or it is given back. A charge
       * the gate did not take (refused, or not applied) is no answer yet: the handler's charge debits after
       * the work, so a 404 or a redirect stays free whatever the balance.
       */
      const held: Held | null = charged?.ok && auth && preCharge ? { auth, charge: preCharge, period: period.key, open: true } : null;
      try {
        rateLimited(ctx, t);
        if (!header)
          throw new ApiError('missing_api_key', 'Authentication required: send Authorization: Bearer <API key>.', {
            headers: { 'WWW-Authenticate': 'Bearer' },
          });
        if (!auth) {
          // API keys hold no dots; JWTs are dot-separated.
          const message = (BEARER.exec(header)?.[1] ?? '').includes('.')
            ? 'The access token is malformed, expired or not issued here, or its API key was revoked.'
            : 'The API key is malformed, unknown or revoked.';
          throw new ApiError('invalid_api_key', message, { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });
        }
        if (!allowedFor(auth.key)) {
          throw new ApiError(
            'insufficient_scope',
            `This API key lacks the "${access}" capability that ${route.method} ${route.openapiPath ?? route.path} needs.`,
          );
        }
        if (requests !== null && requests > billing.monthlyRequestCap) {
          ctx.set('X-RateLimit-Remaining', '0'); // "0 on a 429" (SPEC.md, Limits), whichever limit refused it
          throw new ApiError('rate_limit_exceeded', 'Monthly API request limit reached.', { headers: { 'Retry-After': String(period.secondsLeft) } });
        }
        if (route.paid) {
          if (!auth.account.subscription)
            throw new ApiError('subscription_required', 'This operation is paid and needs an active subscription on the account.');
          if (auth.account.balance_micros <= 0) throw new ApiError('insufficient_credit', 'The account has no credit left; add credit to continue.');
        }
        ctx.state.auth = auth satisfies AuthState;
        ctx.state.charge =
          ctx.method === 'HEAD'
            ? async () => undefined
            : async (cls: UsageClass, units: number, reference?: string) => {
                // The handler's charge of the price held: confirmed, nothing more to debit.
                if (held?.open && reference === undefined && cls === held.charge.usage_class && units === held.charge.units) {
                  held.open = false;
                  return;
                }
                return charge(s, auth, cls, units, reference);
              };
        await next();
      } catch (e) {
        await giveBack(s, held);
        throw e;
      }
      // A call that did not confirm the price (a redirect, a 404 answered without throwing) pays nothing.
      await giveBack(s, held);
    };
  };
  return Object.assign(forRoute, { unrouted });
}

/** A price debited with a call's admission; open until its handler confirms it or it is given back. */
interface Held {
  auth: AuthState;
  charge: PreCharge;
  period: string;
  open: boolean;
}

/**
 * Sets the rate-limit headers of a throttle decision; a refused one becomes the 429 with Retry-After.
 * Set on the response directly: ctx.set normalises every header through arrays and regular
 * expressions, and these are three of every /v1 response's headers.
 */
function rateLimited(ctx: Context, t: ThrottleDecision): void {
  if (!ctx.res.headersSent) {
    ctx.res.setHeader('X-RateLimit-Limit', String(t.limit));
    ctx.res.setHeader('X-RateLimit-Remaining', String(t.remaining));
    ctx.res.setHeader('X-RateLimit-Reset', String(t.reset));
  }
  if (!t.allowed) {
    throw new ApiError('rate_limit_exceeded', 'Rate limit exceeded. Try again later.', { headers: { 'Retry-After': String(t.retryAfter) } });
  }
}

/** Whether two strings are equal, in a time that depends on their length only. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

/** Debits work that succeeded; refuses (402) when the balance or the monthly quota cannot cover it. */
export async function charge(s: AppServices, auth: AuthState, cls: UsageClass, units: number, reference?: string): Promise<void> {
  if (units <= 0) return;
  const { result: r, amount_micros: amount } = await debitAtPrice(s.accounts, s.config.billing, auth.account.id, cls, units, reference);
  if (!r.ok) throw chargeRefused(r, cls, amount);
}

/** The 402 of a debit the balance or the monthly quota refused. */
function chargeRefused(r: Extract<DebitResult, { ok: false }>, cls: UsageClass, amount: number): ApiError {
  if (r.reason === 'usage_limit_exceeded') return new ApiError('usage_limit_exceeded', `The monthly usage quota for ${cls.replace('_', ' ')} is exhausted.`);
  return new ApiError(
    'insufficient_credit',
    `The account's credit (${usd(r.balance_micros).toFixed(6)} USD) does not cover this operation (${usd(amount).toFixed(6)} USD).`,
  );
}

/**
 * Gives back a price debited with the admission of a call that did not confirm it, once (closed first, so
 * that a charge after it is debited anew); never throws: a failure is logged.
 */
async function giveBack(s: AppServices, held: Held | null): Promise<void> {
  if (!held?.open) return;
  held.open = false;
  const { auth, charge: c, period } = held;
  try {
    await s.accounts.debit({ account_id: auth.account.id, usage_class: c.usage_class, units: c.units, amount_micros: c.amount_micros, period, refund: true });
  } catch (e) {
    s.log.error('refund of an unconfirmed charge failed', {
      account_id: auth.account.id,
      usage_class: c.usage_class,
      units: c.units,
      error: (e as Error).message,
    });
  }
}
