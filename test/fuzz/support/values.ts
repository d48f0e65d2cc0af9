/**
 * Values for the fuzz suites: JSON Schema -> fast-check arbitrary (mostly valid, so that requests reach
 * the code behind validation), and the hostile values mixed in at every node (wrong types, edge numbers,
 * strings that break parsers, query syntaxes, encodings and prototypes).
 */
import fc, { type Arbitrary } from 'fast-check';

export type Schema = Record<string, unknown>;

/** Strings that have broken parsers, query languages, encoders or object models somewhere. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  '\t\r\n',
  '%',
  '%00',
  '%zz',
  '%C0%AF',
  '../../etc/passwd',
  '..%2F..%2F',
  '"',
  "'",
  '\\',
  '\\u0000',
  '*',
  '?',
  '~',
  '^',
  '()',
  '[',
  ']',
  '{',
  '}',
  ':',
  '/',
  '//',
  'AND',
  'OR NOT',
  '"unterminated',
  'a:b OR c:[* TO *]',
  '+-&&||!(){}[]^"~*?:\\/',
  '.*',
  '(a+)+$',
  '\uD800',
  '\uDFFF',
  '\u202E',
  '\uFEFF',
  '\u200B',
  'e\u0301\u0301\u0301',
  '𝄞',
  '👩‍👩‍👧‍👦',
  'ＬＭ３５８',
  'İ',
  'ß',
  'ﬁ',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  '9'.repeat(400),
  'x'.repeat(5_000),
  'SELECT * FROM parts; --',
  "' OR '1'='1",
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '$where',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'lst_',
  'lst_x',
  'job_',
  'psk_',
  'key_',
];

const EDGE_NUMBERS: readonly number[] = [0, -0, -1, 1, 0.5, -0.5, 2 ** 31, -(2 ** 31), 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, 5e-324, 1e21, 123456789.123];

/** Nested `n` levels (arrays or objects), for limits on depth. */
const nested = (n: number, objects: boolean): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = objects ? { a: v } : [v];
  return v;
};

/** A hostile string: from the list, or random text of any code points (lone surrogates included). */
export const hostileString: Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
);

/** Any value where a schema expects another: other types, edge numbers, nesting, objects with prototype keys. */
export const hostileValue: Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(...EDGE_NUMBERS, true, false, null, [], {}, [[]], [null], { '': '' }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}}')) },
  { weight: 1, arbitrary: fc.constantFrom(nested(70, false), nested(70, true), nested(20, true)) },
);

export interface SchemaContext {
  /** The document `$ref`s point into (an OpenAPI document). */
  root: Schema;
  /** Strings worth sending (catalogue words, slugs, ids of this run). */
  words: Arbitrary<string>;
  /** Weight of a valid value against one hostile value at each node; 0: valid values only (as far as generators go). */
  validWeight: number;
}

function resolve(schema: Schema, root: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    let at: unknown = root;
    for (const part of (s.$ref as string).replace(/^#\//, '').split('/')) at = (at as Record<string, unknown>)?.[part];
    s = (at ?? {}) as Schema;
  }
  return s;
}

/** A value of `schema`, mostly valid; at each node sometimes a hostile one instead. */
export function fromSchema(schema: Schema | undefined, ctx: SchemaContext, depth = 0): Arbitrary<unknown> {
  const valid = validFromSchema(resolve(schema ?? {}, ctx.root), ctx, depth);
  return ctx.validWeight === 0 ? valid : fc.oneof({ weight: ctx.validWeight, arbitrary: valid }, { weight: 1, arbitrary: hostileValue });
}

function validFromSchema(s: Schema, ctx: SchemaContext, depth: number): Arbitrary<unknown> {
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(branches) && branches.length) return fc.oneof(...branches.map((b) => fromSchema(b, ctx, depth + 1)));
  if (Array.isArray(s.allOf) && s.allOf.length) return fromSchema(s.allOf[0] as Schema, ctx, depth + 1);
  const types = [s.type ?? (s.properties ? 'object' : s.items ? 'array' : undefined)].flat().filter((t): t is string => typeof t === 'string');
  if (types.length === 0) return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((t) => ofType(t, s, ctx, depth)));
}

function ofType(type: string, s: Schema, ctx: SchemaContext, depth: number): Arbitrary<unknown> {
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = num('minimum') ?? (num('exclusiveMinimum') ?? -1_000_001) + 1;
      const max = num('maximum') ?? (num('exclusiveMaximum') ?? 1_000_001) - 1;
      const lo = Math.max(min, -1e9);
      const hi = Math.min(max, 1e9);
      // The bounds and their neighbours, which validation must take or refuse exactly.
      return fc.oneof({ weight: 3, arbitrary: fc.integer({ min: lo, max: Math.max(lo, hi) }) }, fc.constantFrom(min, max, min - 1, max + 1));
    }
    case 'number': {
      const min = num('minimum') ?? num('exclusiveMinimum') ?? -1e6;
      const max = num('maximum') ?? num('exclusiveMaximum') ?? 1e6;
      return fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true });
    }
    case 'string':
      return stringOf(s, ctx);
    case 'array': {
      if (depth > 5) return fc.constant([]);
      const minLength = num('minItems') ?? 0;
      const maxLength = Math.min(num('maxItems') ?? minLength + 4, minLength + 4);
      const items = Array.isArray(s.items)
        ? fc.oneof(...(s.items as Schema[]).map((i) => fromSchema(i, ctx, depth + 1)))
        : fromSchema(s.items as Schema, ctx, depth + 1);
      return fc.array(items, { minLength, maxLength });
    }
    case 'object': {
      if (depth > 5) return fc.constant({});
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = new Set((s.required as string[] | undefined) ?? []);
      const names = Object.keys(props);
      const extra = s.additionalProperties;
      const known =
        names.length > 0
          ? fc.record(Object.fromEntries(names.map((n) => [n, fromSchema(props[n], ctx, depth + 1)])), {
              requiredKeys: names.filter((n) => required.has(n)),
            })
          : fc.constant({});
      // Free-form objects (no properties, or more allowed) get a few keys of their own.
      const more =
        extra === false || (names.length > 0 && extra === undefined)
          ? fc.constant({})
          : fc.dictionary(
              fc.oneof(ctx.words, hostileString),
              extra && typeof extra === 'object' ? fromSchema(extra as Schema, ctx, depth + 1) : fc.jsonValue({ maxDepth: 2 }),
              {
                maxKeys: 3,
              },
            );
      if (ctx.validWeight === 0) return fc.tuple(known, more).map(([k, m]) => ({ ...(m as Record<string, unknown>), ...(k as Record<string, unknown>) }));
      // Sometimes a key the schema does not have, or a required one missing.
      return fc
        .tuple(
          known,
          more,
          fc.option(fc.tuple(fc.oneof(ctx.words, hostileString), hostileValue), { freq: 12 }),
          fc.option(fc.constantFrom(...names, '_'), { freq: 12 }),
        )
        .map(([k, m, stray, drop]) => {
          const out: Record<string, unknown> = { ...(m as Record<string, unknown>), ...(k as Record<string, unknown>) };
          if (stray) out[stray[0]] = stray[1];
          if (drop !== null) delete out[drop];
          return out;
        });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringOf(s: Schema, ctx: SchemaContext): Arbitrary<string> {
  if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = Math.min(typeof s.maxLength === 'number' ? s.maxLength : 40, minLength + 40);
  const options: { weight: number; arbitrary: Arbitrary<string> }[] = [
    { weight: 5, arbitrary: ctx.words },
    { weight: 3, arbitrary: fc.string({ minLength, maxLength: Math.max(minLength, maxLength) }) },
  ];
  if (ctx.validWeight !== 0) options.push({ weight: 1, arbitrary: hostileString });
  if (typeof s.pattern === 'string') {
    try {
      options.push({ weight: 4, arbitrary: fc.stringMatching(new RegExp(s.pattern as string)) });
    } catch {
      // A pattern JavaScript cannot compile is left to the other generators.
    }
  }
  return fc.oneof(...options);
}
