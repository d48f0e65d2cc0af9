/**
 * Property-based fuzzing of every operation the API describes in its own /openapi.json (a new route is
 * covered as soon as it is declared): parameters and bodies generated from the operation's JSON Schemas,
 * mostly valid so that requests reach the code behind validation, with hostile values mixed in at every
 * node, and hostile credentials, media types, encodings, methods and paths around them.
 *
 * Properties of every answer: never a 5xx, nothing logged at error level; an error body is JSON in one of
 * SPEC.md's three REST forms (the validation form on 422), or the form its operation declares for that
 * status (POST /connect/token: OAuth's, RFC 6749 §5.2), GraphQL's form on /graphql; a success body
 * matches the operation's declared schema; every answer carries X-Request-Id.
 *
 * Seeded: the seed is printed on failure (fast-check's report) and FUZZ_SEED=<seed> replays the run;
 * FUZZ_SCALE multiplies the number of requests.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import fc, { type Arbitrary } from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlProblem, restErrorProblem } from './support/forms.ts';
import { FUZZ_KINDS, fuzzRuns, fuzzSeed, send, startFuzzTarget, type FuzzTarget } from './support/target.ts';
import { fromSchema, hostileString, hostileValue, type Schema, type SchemaContext } from './support/values.ts';

/** Requests per run on SQLite (with GraphQL's, the CI budget of 5,000); fewer on OpenSearch and with Redis (when OPENSEARCH_URL / REDIS_URL are set). */
const RUNS = { sqlite: 3_500, opensearch: 400, redis: 400 };

interface Operation {
  method: string;
  path: string;
  op: {
    operationId: string;
    parameters?: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema }[];
    requestBody?: { content: Record<string, { schema: Schema }> };
    responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  };
}

/** One generated request, readable as it is printed in a failure report. */
interface FuzzRequest {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const OTHER_METHODS = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND'];

/** A path segment as clients send it: encoded, or with the characters that change a path's meaning left in. */
const segment = (v: unknown): Arbitrary<string> => {
  // A lone surrogate cannot be encoded as UTF-8: it goes as the bytes of one (ED A0 80), which are no UTF-8 either.
  const text = (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')).replace(/\p{Surrogate}/gu, '%ED%A0%80');
  const encoded = encodeURIComponent(text).replace(/%25ED%25A0%2580/g, '%ED%A0%80');
  return fc.constantFrom(
    encoded,
    text.replace(/[#?\s]/g, (c) => encodeURIComponent(c)),
  );
};

function requestsFor(o: Operation, ctx: SchemaContext, t: FuzzTarget): Arbitrary<FuzzRequest> {
  // Whole requests are valid as generated or mutated at any node: a valid one reaches the code behind validation.
  return fc.oneof({ weight: 3, arbitrary: requestsOf(o, { ...ctx, validWeight: 0 }, t) }, { weight: 2, arbitrary: requestsOf(o, ctx, t) });
}

function requestsOf(o: Operation, ctx: SchemaContext, t: FuzzTarget): Arbitrary<FuzzRequest> {
  const params = o.op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const query = params.filter((p) => p.in === 'query');
  const headerParams = params.filter((p) => p.in === 'header');
  const generated = fc.tuple(...pathParams.map((p) => fromSchema(p.schema, ctx).chain(segment)));
  // Half the time, parameters that name real things (a part's maker and MPN together, a job of this run).
  const real = t.pathValues.map((r) => pathParams.map((p) => (r[p.name] !== undefined ? encodeURIComponent(r[p.name]!) : undefined)));
  const pathArb = fc
    .tuple(generated, fc.oneof(real, fc.constant([] as (string | undefined)[])))
    .map(([values, known]) => pathParams.reduce((path, p, i) => path.replace(`{${p.name}}`, known[i] ?? values[i]!), o.path));
  const queryArb = fc
    .tuple(
      ...query.map((p) =>
        fc.option(
          fromSchema(p.schema, ctx).map((v) => [p.name, v] as const),
          { freq: p.required ? 20 : 2 },
        ),
      ),
      fc.option(fc.tuple(fc.oneof(ctx.words, hostileString), fc.oneof(ctx.words, hostileString)), { freq: 8 }),
      fc.boolean(),
    )
    .map((entries) => {
      const bracketed = entries.pop() as boolean;
      const search = new URLSearchParams();
      for (const e of entries as ([string, unknown] | null)[]) {
        if (!e) continue;
        const [name, value] = e;
        const values = Array.isArray(value) ? value : [value];
        for (const v of values) search.append(Array.isArray(value) && bracketed ? `${name}[]` : name, typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
      }
      const text = search.toString();
      return text ? `?${text}` : '';
    });
  const auth = fc.oneof(
    { weight: 40, arbitrary: fc.constant({ Authorization: `Bearer ${t.secret}` }) },
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 2, arbitrary: fc.constant({ Authorization: `Bearer ${t.poorSecret}` }) },
    { weight: 2, arbitrary: fc.constant({ Authorization: `Bearer ${t.scopelessSecret}` }) },
    { weight: 1, arbitrary: fc.constant({ Authorization: `bearer   ${t.secret}  ` }) },
    { weight: 1, arbitrary: fc.constant({ token: t.secret }) },
    { weight: 2, arbitrary: fc.base64String({ minLength: 4, maxLength: 60 }).map((k) => ({ Authorization: `Bearer psk_${k}` })) },
    { weight: 2, arbitrary: hostileString.map((h) => ({ Authorization: `Bearer ${h}`.replace(/[^\t\x20-\x7e\x80-\xff]/g, '') })) },
    { weight: 1, arbitrary: fc.constant({ Authorization: 'Basic Zm9vOmJhcg==' }) },
  );
  const headerArb = fc.tuple(
    auth,
    fc.tuple(...headerParams.map((p) => fc.option(fromSchema(p.schema, ctx), { freq: 2 }))),
    fc.option(fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml', ''), { freq: 6 }),
    fc.option(fc.oneof(fc.constantFrom('trace-0000-fuzz'), hostileString), { freq: 10 }),
  );
  const bodyArb = bodyFor(o, ctx);
  const methodArb = fc.oneof({ weight: 24, arbitrary: fc.constant(o.method) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) });
  return fc.tuple(methodArb, pathArb, queryArb, headerArb, bodyArb).map(([method, path, search, [a, hs, accept, requestId], body]) => {
    const headers: Record<string, string> = { ...a };
    headerParams.forEach((p, i) => {
      if (hs[i] !== null) headers[p.name] = headerSafe(typeof hs[i] === 'string' ? (hs[i] as string) : (JSON.stringify(hs[i]) ?? ''));
    });
    if (accept !== null) headers.Accept = accept;
    if (requestId !== null) headers['X-Request-Id'] = headerSafe(requestId);
    if (body) Object.assign(headers, body.headers);
    return {
      operation: o.op.operationId,
      method,
      path: `${path}${search}`,
      headers,
      ...(body && method !== 'GET' && method !== 'HEAD' ? { body: body.text } : {}),
    };
  });
}

/** Header values fetch will send (no control characters or code points beyond Latin-1). */
const headerSafe = (v: string) => v.replace(/[^\t\x20-\x7e\x80-\xff]/g, '').trim();

/** The body of an operation: its schema's value as JSON (or a form), or a body of another kind or type. */
function bodyFor(o: Operation, ctx: SchemaContext): Arbitrary<{ text: string; headers: Record<string, string> } | null> {
  const content = o.op.requestBody?.content;
  if (!content) return fc.option(fc.constant({ text: '{"unexpected": true}', headers: { 'Content-Type': 'application/json' } }), { freq: 20 });
  const [type, media] = Object.entries(content)[0]!;
  const value = fromSchema(media.schema, ctx);
  const declared =
    type === 'application/x-www-form-urlencoded'
      ? value.map((v) => ({
          text: new URLSearchParams(
            Object.entries(typeof v === 'object' && v !== null ? v : { v }).map(([k, x]): [string, string] => [
              k,
              typeof x === 'string' ? x : (JSON.stringify(x) ?? ''),
            ]),
          ).toString(),
          headers: { 'Content-Type': type },
        }))
      : value.map((v) => ({ text: JSON.stringify(v) ?? 'null', headers: { 'Content-Type': type } }));
  const otherType = fc
    .tuple(
      value,
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/merge-patch+json',
        'application/json; charset=latin1',
        'application/json; charset=bogus',
        'application/json; charset=utf-16',
        'multipart/form-data; boundary=x',
        'application/xml',
      ),
    )
    .map(([v, t]) => ({ text: JSON.stringify(v) ?? 'null', headers: { 'Content-Type': t } }));
  const notJson = fc
    .oneof(hostileString, fc.constantFrom('{', '{"a":', '[1,]', '{"a" 1}', 'nul', '\u0000', '{}}', '"\\ud800"', ' '))
    .map((text) => ({ text, headers: { 'Content-Type': 'application/json' } }));
  const encoded = value.map((v) => ({ text: JSON.stringify(v) ?? 'null', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } }));
  const scalar = hostileValue.map((v) => ({ text: JSON.stringify(v) ?? 'null', headers: { 'Content-Type': 'application/json' } }));
  if (ctx.validWeight === 0) return declared;
  return fc.oneof(
    { weight: 30, arbitrary: declared },
    { weight: 2, arbitrary: otherType },
    { weight: 2, arbitrary: notJson },
    { weight: 1, arbitrary: encoded },
    { weight: 2, arbitrary: scalar },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

/** The paths an OpenAPI path template stands for (a parameter may span segments: a category slug does). */
const pathPattern = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, '[^?#]+')}/?$`, 'i');

/** Paths no operation declares. */
const strayRequests = (ctx: SchemaContext): Arbitrary<FuzzRequest> =>
  fc
    .tuple(
      fc.constantFrom('/v1/', '/v1/parts/', '/v1/jobs/', '/', '/V1/USAGE', '/v1//usage', '/v1/usage/', '/v1/./usage', '/v1/%2e%2e/health'),
      fc.oneof(ctx.words, hostileString).chain(segment),
      fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'DELETE'),
    )
    .map(([base, s, method]) => ({ operation: '(stray)', method, path: `${base}${s}`, headers: {} }));

describe.each(FUZZ_KINDS)('REST fuzz on %s', (kind) => {
  let t: FuzzTarget;
  let doc: { paths: Record<string, Record<string, Operation['op']>> } & Schema;
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  const validators = new Map<Schema, ValidateFunction>();
  beforeAll(async () => {
    t = await startFuzzTarget(kind);
    doc = (await (await fetch(`${t.api.url}/openapi.json`)).json()) as typeof doc;
    ajv.addSchema({ components: doc.components }, 'openapi');
  });
  afterAll(async () => t?.close());

  /** The declared schema of an operation's answer with this status, or undefined. */
  const declared = (o: Operation | undefined, status: number): Schema | undefined => {
    const r = o?.op.responses[String(status)];
    return r?.content?.['application/json']?.schema;
  };
  const conforms = (schema: Schema, body: unknown): string | null => {
    let v = validators.get(schema);
    if (!v) {
      // $refs point into the document's components.
      v = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/')) as Schema);
      validators.set(schema, v);
    }
    return v(body) ? null : `the body does not match the declared schema: ${ajv.errorsText(v.errors)}`;
  };

  /** Why an answer breaks the properties (see the header), or null. */
  function problemOf(req: FuzzRequest, o: Operation | undefined, a: { status: number; headers: Headers; text: string }): string | null {
    if (a.status >= 500) return `answered ${a.status}: ${a.text.slice(0, 300)}`;
    if (!a.headers.get('x-request-id')) return 'no X-Request-Id';
    if (
      req.method === 'HEAD' ||
      a.status === 204 ||
      a.status === 304 ||
      (a.status < 300 && (a.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    )
      return null;
    if (req.method === 'OPTIONS' && a.status === 200) return null;
    if (a.status >= 300 && a.status < 400) return a.headers.get('location') ? null : `a ${a.status} without Location`;
    // A success in another media type than JSON (the GraphQL explorer's page) must be one the operation declares.
    const type = (a.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (a.status < 300 && type !== 'application/json') {
      const declaredTypes = Object.keys(o?.op.responses[String(a.status)]?.content ?? {});
      return declaredTypes.includes(type) ? null : `answered ${a.status} as ${type || 'no media type'}, which ${req.operation} does not declare`;
    }
    let body: unknown;
    try {
      body = JSON.parse(a.text);
    } catch {
      return `answered ${a.status} with a body that is not JSON: ${a.text.slice(0, 200)}`;
    }
    const path = req.path.split('?')[0]!.toLowerCase().replace(/\/+$/, '');
    if (path === '/graphql') return graphqlProblem(body, a.status >= 400);
    const schema = declared(o, a.status);
    if (a.status >= 400) {
      // An operation's own form for a status (OAuth's on /connect/token) is declared in its responses.
      const own = schema && !JSON.stringify(schema).includes('#/components/schemas/');
      return own ? conforms(schema, body) : restErrorProblem(a.status, body);
    }
    // A success of the operation generated (not of another route the URL came to mean once normalised: /v1/jobs/. is /v1/jobs/).
    if (!o || o.method !== req.method || !pathPattern(o.path).test(new URL(req.path, 'http://x').pathname)) return null;
    return schema ? conforms(schema, body) : null;
  }

  it('answers every generated request without a 5xx, with error bodies in the spec forms', async () => {
    const ops: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
    expect(ops.length).toBeGreaterThan(20);
    const ctx: SchemaContext = { root: doc, words: t.words, validWeight: 12 };
    const byId = new Map(ops.map((o) => [o.op.operationId, o]));
    const requests = fc.oneof({ weight: 30, arbitrary: fc.oneof(...ops.map((o) => requestsFor(o, ctx, t))) }, { weight: 1, arbitrary: strayRequests(ctx) });
    const statuses = new Map<number, number>();
    const succeeded = new Map<string, number>();
    const seed = fuzzSeed();
    const runs = fuzzRuns(RUNS[kind]);
    const started = Date.now();
    t.takeLogged();
    await fc.assert(
      fc.asyncProperty(requests, async (req) => {
        const a = await send(`${t.api.url}${req.path}`, { method: req.method, headers: req.headers, ...(req.body !== undefined ? { body: req.body } : {}) });
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        if (a.status < 300) succeeded.set(req.operation, (succeeded.get(req.operation) ?? 0) + 1);
        const problem = problemOf(req, byId.get(req.operation), a);
        const logged = t.takeLogged().filter((l) => l.level === 'error');
        if (problem || logged.length) throw new Error(`${problem ?? 'logged an error'}\n${JSON.stringify(logged).slice(0, 1_000)}`);
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    const summary = [...statuses].sort(([x], [y]) => x - y).map(([s, n]) => `${s}: ${n}`);
    console.log(
      `REST fuzz on ${kind}: ${runs} requests over ${ops.length} operations in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${seed}; ${summary.join(', ')}`,
    );
    console.log(`answered 2xx by operation: ${[...succeeded].map(([op, n]) => `${op} ${n}`).join(', ')}`);
    // The generated requests reach past validation: many succeed.
    expect([...statuses].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0)).toBeGreaterThan(runs * 0.2);
  });
});
