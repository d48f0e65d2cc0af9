/**
 * Property-based fuzzing of POST /graphql from the schema the endpoint itself describes (introspection),
 * so that it follows any change of schema: operations over random root fields with aliases, arguments of
 * their declared types (sometimes of other types, sometimes through variables), selections of random
 * fields to a random depth, inline fragments on abstract types, directives, and now and then a document
 * cut or spliced into something malformed.
 *
 * Properties of every answer: never a 5xx, nothing logged at error level, a JSON body in GraphQL's form
 * (errors with a message and a catalogue code), and no error whose code says the server failed
 * (internal_error: a resolver threw).
 *
 * Seeded: the seed is printed on failure (fast-check's report; the document is in the error) and
 * FUZZ_SEED=<seed> replays the run; FUZZ_SCALE multiplies the number of requests.
 */
import fc, { type GeneratorValue } from 'fast-check';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlProblem, SERVER_FAILURE_CODES } from './support/forms.ts';
import { FUZZ_KINDS, fuzzRuns, fuzzSeed, send, startFuzzTarget, type FuzzTarget } from './support/target.ts';
import { hostileString, hostileValue } from './support/values.ts';

/** Operations per run on SQLite (with REST's, the CI budget of 5,000); fewer on OpenSearch and with Redis (when OPENSEARCH_URL / REDIS_URL are set). */
const RUNS = { sqlite: 1_500, opensearch: 200, redis: 200 };

/** What one generated operation needs besides the text: its variables, declared as it was written. */
interface Built {
  schema: GraphQLSchema;
  /** Whether this operation may hold invalid parts (two in five do); the others are valid as generated. */
  hostile: boolean;
  variables: Record<string, unknown>;
  declarations: string[];
}

/** Generates one operation of `schema` with `g` (see the header). */
function operation(schema: GraphQLSchema, words: fc.Arbitrary<string>, g: GeneratorValue): { query: string; variables: Record<string, unknown> } {
  const b: Built = { schema, hostile: g(fc.nat, 4) < 2, variables: {}, declarations: [] };
  const roots = [schema.getQueryType(), schema.getMutationType()].filter((t): t is GraphQLObjectType => !!t);
  const root = g(() => fc.constantFrom(...roots));
  const fields: GraphQLField<unknown, unknown>[] = Object.values(root.getFields());
  const chosen = g(() => fc.shuffledSubarray(fields, { minLength: 1, maxLength: Math.min(3, fields.length) }));
  const selections = chosen.map((f, i) => `${i > 0 || g(fc.boolean) ? `a${i}: ` : ''}${fieldText(f, 0, g, words, b)}`);
  const keyword = root === schema.getMutationType() ? 'mutation' : 'query';
  let query = `${keyword} Fuzz${b.declarations.length ? `(${b.declarations.join(', ')})` : ''} { ${selections.join(' ')} }`;
  // Now and then a malformed document: cut short, or with a character spliced in.
  const damage = b.hostile ? g(fc.nat, 16) : -1;
  if (damage === 0) query = query.slice(0, g(fc.nat, query.length));
  if (damage === 1) {
    const at = g(fc.nat, query.length);
    query = `${query.slice(0, at)}${g(fc.constantFrom, '{', '}', '(', ')', '"', '$', '@', '...', '#', '\\', '\u0000', ':')}${query.slice(at)}`;
  }
  return { query, variables: b.variables };
}

function fieldText(f: GraphQLField<unknown, unknown>, depth: number, g: GeneratorValue, words: fc.Arbitrary<string>, b: Built): string {
  const args = f.args.filter((a) => isNonNullType(a.type) || g(fc.boolean));
  const argText = args.length ? `(${args.map((a) => `${a.name}: ${argumentText(a, g, words, b)}`).join(', ')})` : '';
  const directive = g(fc.nat, 30) === 0 ? ` @${g(fc.constantFrom, 'include', 'skip')}(if: ${g(fc.boolean)})` : '';
  return `${f.name}${argText}${directive}${selectionText(f.type, depth + 1, g, words, b)}`;
}

function selectionText(type: GraphQLOutputType, depth: number, g: GeneratorValue, words: fc.Arbitrary<string>, b: Built): string {
  const named = getNamedType(type) as GraphQLNamedType;
  if (isLeafType(named)) return '';
  if (isAbstractType(named)) {
    const possible = g(() => fc.shuffledSubarray([...b.schema.getPossibleTypes(named)], { maxLength: 2 }));
    return ` { __typename ${possible.map((p) => `... on ${p.name}${selectionText(p, depth, g, words, b)}`).join(' ')} }`;
  }
  if (!isObjectType(named)) return ' { __typename }';
  const fields = Object.values(named.getFields());
  // Deeper than 3: leaves only.
  const pool = depth >= 3 ? fields.filter((f) => isLeafType(getNamedType(f.type))) : fields;
  if (pool.length === 0) return ' { __typename }';
  const chosen = g(() => fc.shuffledSubarray(pool, { minLength: 1, maxLength: Math.min(4, pool.length) }));
  // Sometimes a field the type does not have.
  const stray = b.hostile && g(fc.nat, 10) === 0 ? ' noSuchField' : '';
  return ` { ${chosen.map((f) => fieldText(f, depth, g, words, b)).join(' ')}${stray} }`;
}

/** An argument: a literal of its type, a variable of its type, or (rarely) something else. */
function argumentText(a: GraphQLArgument, g: GeneratorValue, words: fc.Arbitrary<string>, b: Built): string {
  const how = g(fc.nat, 9);
  if (how < 2) {
    const name = `v${b.declarations.length}`;
    b.declarations.push(`$${name}: ${String(a.type)}`);
    b.variables[name] = b.hostile && how === 0 ? g(() => hostileValue) : jsonOf(a.type, 0, g, words, b);
    return `$${name}`;
  }
  if (b.hostile && how === 2) return literalOfJson(g(() => hostileValue));
  return literalOf(a.type, 0, g, words, b);
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A GraphQL literal of a JSON value (object keys that are no names are left out). */
function literalOfJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '0';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(literalOfJson).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .filter(([k]) => NAME.test(k))
    .map(([k, x]) => `${k}: ${literalOfJson(x)}`)
    .join(', ')}}`;
}

function literalOf(type: GraphQLInputType, depth: number, g: GeneratorValue, words: fc.Arbitrary<string>, b: Built): string {
  if (isNonNullType(type)) return literalOf(type.ofType, depth, g, words, b);
  if (isListType(type)) {
    const n = g(fc.nat, 3);
    // A single value where a list is declared is coerced to a list of one.
    if (n === 3) return literalOf(type.ofType, depth + 1, g, words, b);
    return `[${Array.from({ length: n }, () => literalOf(type.ofType, depth + 1, g, words, b)).join(', ')}]`;
  }
  if (isEnumType(type)) return b.hostile && g(fc.nat, 8) === 0 ? 'NOT_A_VALUE' : g(() => fc.constantFrom(...type.getValues().map((v) => v.name)));
  if (isInputObjectType(type)) {
    if (depth > 4) return '{}';
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) || g(fc.nat, 2) === 0);
    return `{${fields.map((f) => `${f.name}: ${literalOf(f.type, depth + 1, g, words, b)}`).join(', ')}}`;
  }
  return literalOfJson(scalarValue(isScalarType(type) ? type.name : 'String', g, words, b));
}

/** A variable's JSON value of `type`. */
function jsonOf(type: GraphQLInputType, depth: number, g: GeneratorValue, words: fc.Arbitrary<string>, b: Built): unknown {
  if (isNonNullType(type)) return jsonOf(type.ofType, depth, g, words, b);
  if (isListType(type)) return Array.from({ length: g(fc.nat, 3) }, () => jsonOf(type.ofType, depth + 1, g, words, b));
  if (isEnumType(type)) return g(() => fc.constantFrom(...type.getValues().map((v) => v.name)));
  if (isInputObjectType(type)) {
    if (depth > 4) return {};
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) || g(fc.nat, 2) === 0);
    return Object.fromEntries(fields.map((f) => [f.name, jsonOf(f.type, depth + 1, g, words, b)]));
  }
  return scalarValue(isScalarType(type) ? type.name : 'String', g, words, b);
}

function scalarValue(name: string, g: GeneratorValue, words: fc.Arbitrary<string>, b: Built): unknown {
  switch (name) {
    case 'Int':
      return b.hostile
        ? g(() => fc.oneof(fc.integer({ min: -5, max: 60 }), fc.constantFrom(0, -1, 2 ** 31 - 1, 2 ** 31, 1e15)))
        : g(fc.integer, { min: 0, max: 20 });
    case 'Float':
      return g(fc.double, { min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true });
    case 'Boolean':
      return g(fc.boolean);
    case 'ID':
      return g(() => fc.oneof(words, fc.nat().map(String)));
    case 'String':
      return b.hostile ? g(() => fc.oneof({ weight: 6, arbitrary: words }, { weight: 1, arbitrary: hostileString })) : g(() => words);
    default:
      // Custom scalars (JSON, dates...): any JSON.
      return g(() => fc.oneof(words, fc.jsonValue({ maxDepth: 2 })));
  }
}

describe.each(FUZZ_KINDS)('GraphQL fuzz on %s', (kind) => {
  let t: FuzzTarget;
  let schema: GraphQLSchema;
  beforeAll(async () => {
    t = await startFuzzTarget(kind);
    const res = await t.api.post('/graphql', { query: getIntrospectionQuery() }, t.secret);
    schema = buildClientSchema(((await res.json()) as { data: IntrospectionQuery }).data);
  });
  afterAll(async () => t?.close());

  it('answers every generated operation without a 5xx or a server failure, in GraphQL form', async () => {
    const seed = fuzzSeed();
    const runs = fuzzRuns(RUNS[kind]);
    const statuses = new Map<string, number>();
    const started = Date.now();
    t.takeLogged();
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        const op = operation(schema, t.words, g);
        const a = await send(`${t.api.url}/graphql`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${t.secret}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ query: op.query, variables: op.variables, operationName: 'Fuzz' }),
        });
        let body: unknown;
        let problem: string | null = a.status >= 500 ? `answered ${a.status}` : null;
        try {
          body = JSON.parse(a.text);
        } catch {
          problem ??= 'a body that is not JSON';
        }
        problem ??= graphqlProblem(body, a.status >= 400);
        const errors = ((body as { errors?: { extensions?: { code?: string } }[] })?.errors ?? []).map((e) => e.extensions?.code ?? '');
        if (!problem && errors.some((c) => SERVER_FAILURE_CODES.has(c))) problem = `an error coded ${errors.join(', ')}`;
        const key = `${a.status}${errors.length ? ` ${[...new Set(errors)].sort().join('+')}` : ''}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        const logged = t.takeLogged().filter((l) => l.level === 'error');
        if (problem || logged.length) {
          throw new Error(
            `${problem ?? 'logged an error'}\n${op.query}\nvariables: ${JSON.stringify(op.variables)}\nanswer: ${a.text.slice(0, 500)}\n${JSON.stringify(logged).slice(0, 1_000)}`,
          );
        }
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    const summary = [...statuses].sort(([x], [y]) => x.localeCompare(y)).map(([s, n]) => `${s}: ${n}`);
    console.log(`GraphQL fuzz on ${kind}: ${runs} operations in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${seed}; ${summary.join(', ')}`);
    // Most operations are valid and execute.
    expect(statuses.get('200') ?? 0).toBeGreaterThan(runs * 0.2);
  });
});
