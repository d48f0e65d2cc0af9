/**
 * POST /connect/token: OAuth2 client credentials (RFC 6749 §4.4), as the Supply API clients obtain their
 * access token. The client is an API key: `client_id` is the key's id (`key_...`, from `partsearch keys
 * list`) and `client_secret` the key itself, sent in the form body or as HTTP Basic credentials (§2.3.1).
 * The answer is `{access_token, token_type: "Bearer", expires_in, scope}`, the token a signed JWT standing
 * for the key (accounts/tokens.ts) within `scope`: the key's capabilities, or those of them the request's
 * `scope` names (names this service does not know, such as `supply.domain`, are ignored).
 *
 * Errors take OAuth's form, `{error, error_description}` (RFC 6749 §5.2), which these clients read,
 * instead of the API's envelope: invalid_request, unsupported_grant_type, invalid_scope (400) and
 * invalid_client (401; with `WWW-Authenticate: Basic` when the client sent Basic credentials). Requests
 * are throttled per client id (per address without one), with the API's default per-minute limit, and
 * each invalid_client counts against the client address's failed authentications, shared with the API
 * (middleware/client-address.ts): past them, the address is refused before its credentials are judged.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { Capability } from '../../accounts/port.ts';
import { parseScope } from '../../accounts/tokens.ts';
import { clientAddresses, failureBucket } from '../middleware/client-address.ts';
import type { RouteSpec } from '../route.ts';
import type { AppServices } from '../../service/app-services.ts';

/** Largest form body read, bytes (a client_id, a secret, a scope). */
const MAX_FORM_BYTES = 16 * 1024;

interface TokenRequest {
  grant_type?: string;
  client_id?: string;
  client_secret?: string;
  scope?: string;
  /** Whether the client authenticated with HTTP Basic (the 401 then asks for it again). */
  basic: boolean;
}

class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

/** The form body of the request (application/x-www-form-urlencoded), which the JSON body parser leaves alone. */
async function formBody(ctx: Context): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new OAuthError(400, 'invalid_request', `The request body exceeds ${MAX_FORM_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

/** The token request's parameters: form or JSON body, client credentials from the body or HTTP Basic. */
async function readRequest(ctx: Context): Promise<TokenRequest> {
  let body: Record<string, unknown>;
  if (ctx.is('application/x-www-form-urlencoded')) body = await formBody(ctx);
  else if (ctx.is('json')) body = ((ctx.request as unknown as { body?: unknown }).body ?? {}) as Record<string, unknown>;
  else throw new OAuthError(400, 'invalid_request', 'Send the parameters as application/x-www-form-urlencoded (or JSON).');
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const req: TokenRequest = {
    grant_type: text(body.grant_type),
    client_id: text(body.client_id),
    client_secret: text(body.client_secret),
    scope: text(body.scope),
    basic: false,
  };
  const basic = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(ctx.get('Authorization'));
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError(400, 'invalid_request', 'HTTP Basic credentials must be client_id:client_secret.');
    // RFC 6749 §2.3.1: both are form-encoded before they are joined.
    const decode = (x: string) => decodeURIComponent(x.replace(/\+/g, ' '));
    if (req.client_secret !== undefined) throw new OAuthError(400, 'invalid_request', 'Send the client credentials once: in the body or as HTTP Basic.');
    req.client_id = decode(decoded.slice(0, colon));
    req.client_secret = decode(decoded.slice(colon + 1));
    req.basic = true;
  }
  return req;
}

const sameId = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Answers a token request: the token, or the OAuth error thrown. */
async function issue(s: AppServices, ctx: Context, failures: string): Promise<Record<string, unknown>> {
  const req = await readRequest(ctx);
  if (req.grant_type === undefined) throw new OAuthError(400, 'invalid_request', 'grant_type is required: client_credentials.');
  if (req.grant_type !== 'client_credentials') throw new OAuthError(400, 'unsupported_grant_type', 'Only the client_credentials grant is supported.');
  const bucket = `oauth:${createHash('sha256')
    .update(req.client_id ?? `addr:${ctx.ip}`)
    .digest('hex')
    .slice(0, 32)}`;
  const limit = s.config.billing.defaultRateLimitPerMinute;
  // A client address that used up its failed authentications (the API's budget: guard.ts) is refused
  // before its credentials are judged, whatever client id it names next.
  const room = await s.throttle.peek(failures, limit, 60_000);
  const t = room.allowed ? await s.throttle.hit(bucket, limit, 60_000) : room;
  if (!t.allowed) {
    ctx.set('Retry-After', String(t.retryAfter));
    throw new OAuthError(429, 'rate_limit_exceeded', 'Too many token requests. Try again later.');
  }
  if (req.client_id === undefined || req.client_secret === undefined) {
    throw new OAuthError(400, 'invalid_request', 'client_id (the API key id) and client_secret (the API key) are required.');
  }
  const auth = await s.accounts.authenticate(req.client_secret);
  if (!auth || !sameId(auth.key.id, req.client_id)) {
    await s.throttle.hit(failures, limit, 60_000);
    if (req.basic) ctx.set('WWW-Authenticate', 'Basic realm="partsearch"');
    throw new OAuthError(401, 'invalid_client', 'The client_id and client_secret are not an API key id and that key, or the key was revoked.');
  }
  const asked = req.scope === undefined ? [] : parseScope(req.scope);
  const lacking = asked.filter((c) => !auth.key.capabilities.includes(c));
  if (lacking.length) throw new OAuthError(400, 'invalid_scope', `The API key lacks ${lacking.join(', ')}.`);
  const scope: Capability[] = asked.length ? asked : auth.key.capabilities;
  const { token } = s.tokens.issue(auth.key, scope);
  return { access_token: token, token_type: 'Bearer', expires_in: s.tokens.ttlSeconds, scope: scope.join(' ') };
}

const tokenResponseSchema = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'scope'],
  properties: {
    access_token: { type: 'string', description: 'A signed JWT; send it as `Authorization: Bearer <token>` or in a `token` header.' },
    token_type: { const: 'Bearer' },
    expires_in: { type: 'integer', description: 'Seconds until the token expires (its `exp` claim).' },
    scope: { type: 'string', description: 'Capabilities granted, space-separated.' },
  },
};

const oauthErrorSchema = {
  type: 'object',
  required: ['error', 'error_description'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
};

export function oauthTokenRoutes(s: AppServices): RouteSpec[] {
  const clientAddress = clientAddresses(s.config.trustedProxies);
  return [
    {
      method: 'POST',
      path: '/connect/token',
      operationId: 'issueAccessToken',
      summary: 'OAuth2 client credentials: an access token for an API key',
      description:
        'client_id is the API key id, client_secret the key (form body or HTTP Basic). The token is a JWT with `exp` and the granted capabilities as `scope`; it is admitted as its key (throttle, revocation, ledger). Errors are OAuth error objects `{error, error_description}`.',
      tags: ['auth'],
      access: 'public',
      documentedBody: {
        type: 'object',
        required: ['grant_type'],
        properties: {
          grant_type: { const: 'client_credentials' },
          client_id: { type: 'string', description: 'The API key id (key_...).' },
          client_secret: { type: 'string', description: 'The API key (psk_...).' },
          scope: { type: 'string', description: 'Capabilities wanted, space-separated (default: all of the key).' },
        },
      },
      documentedBodyType: 'application/x-www-form-urlencoded',
      responses: {
        200: { description: 'The access token.', schema: tokenResponseSchema },
        400: { description: 'invalid_request, unsupported_grant_type or invalid_scope.', schema: oauthErrorSchema },
        401: { description: 'invalid_client: not an API key id and its key, or the key was revoked.', schema: oauthErrorSchema },
        429: {
          description: 'Too many token requests for this client id, or failed ones from this client address (Retry-After).',
          schema: oauthErrorSchema,
        },
      },
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Pragma', 'no-cache');
        try {
          return await issue(s, ctx, failureBucket(clientAddress(ctx)));
        } catch (e) {
          if (!(e instanceof OAuthError)) throw e;
          ctx.status = e.status;
          return { error: e.error, error_description: e.message };
        }
      },
    },
  ];
}
