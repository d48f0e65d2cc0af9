/**
 * Request validation: one JSON Schema per request part (query, path params, body), compiled once,
 * also feeding the OpenAPI document. ajv errors become the 422 `detail` array, `loc` naming the
 * part and field: ["query", "limit"], ["body", "filters", "specs", "Resistance", "lte"].
 *
 * Query strings are coerced (`"5"` -> 5, a single value -> one-item array where an array is
 * declared); bodies are not.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { validationError, type ValidationDetail } from '../errors.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const options = { allErrors: true, strict: false, useDefaults: true, allowUnionTypes: true } as const;
const queryAjv = addFormats(new Ajv({ ...options, coerceTypes: 'array' }));
const bodyAjv = addFormats(new Ajv({ ...options, coerceTypes: false }));

export type JsonSchema = Record<string, unknown>;
export type RequestPart = 'query' | 'path' | 'body';

const MESSAGES: Record<string, (e: ErrorObject) => string> = {
  required: () => 'Field required',
  type: (e) => `Input should be of type ${[e.params.type].flat().join(' or ')}`,
  minimum: (e) => `Input should be greater than or equal to ${e.params.limit}`,
  maximum: (e) => `Input should be less than or equal to ${e.params.limit}`,
  exclusiveMinimum: (e) => `Input should be greater than ${e.params.limit}`,
  exclusiveMaximum: (e) => `Input should be less than ${e.params.limit}`,
  minLength: (e) => `String should have at least ${e.params.limit} character${e.params.limit === 1 ? '' : 's'}`,
  maxLength: (e) => `String should have at most ${e.params.limit} characters`,
  minItems: (e) => `List should have at least ${e.params.limit} item${e.params.limit === 1 ? '' : 's'}`,
  maxItems: (e) => `List should have at most ${e.params.limit} items`,
  enum: (e) => `Input should be ${(e.params.allowedValues as unknown[]).map((v) => `'${String(v)}'`).join(', ')}`,
  const: (e) => `Input should be '${String(e.params.allowedValue)}'`,
  additionalProperties: () => 'Extra inputs are not permitted',
  pattern: (e) => `String should match pattern '${e.params.pattern}'`,
  format: (e) => `Input should be a valid ${e.params.format}`,
  minProperties: (e) => `Object should have at least ${e.params.limit} propert${e.params.limit === 1 ? 'y' : 'ies'}`,
};

const TYPES: Record<string, string> = {
  required: 'missing',
  additionalProperties: 'extra_forbidden',
  enum: 'enum',
  const: 'literal_error',
  minimum: 'greater_than_equal',
  maximum: 'less_than_equal',
  exclusiveMinimum: 'greater_than',
  exclusiveMaximum: 'less_than',
  minLength: 'string_too_short',
  maxLength: 'string_too_long',
  minItems: 'too_short',
  maxItems: 'too_long',
  pattern: 'string_pattern_mismatch',
};

function typeOf(e: ErrorObject): string {
  if (e.keyword === 'type') {
    const t = [e.params.type].flat()[0];
    return t === 'integer' ? 'int_parsing' : t === 'number' ? 'float_parsing' : t === 'boolean' ? 'bool_parsing' : `${t}_type`;
  }
  return TYPES[e.keyword] ?? e.keyword;
}

/**
 * An ajv instance path as a `loc`: a segment indexing an array is a number, any other (an object key,
 * even "12" or a key of 400 digits, which Number() reads as Infinity) stays the string it is.
 */
function pointerToLoc(pointer: string, data: unknown): (string | number)[] {
  if (!pointer) return [];
  const loc: (string | number)[] = [];
  let cur: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const step = Array.isArray(cur) && /^\d+$/.test(key) ? Number(key) : key;
    loc.push(step);
    cur = cur !== null && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[step] : undefined;
  }
  return loc;
}

function valueAt(data: unknown, loc: (string | number)[]): unknown {
  let cur: unknown = data;
  for (const k of loc) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  return cur;
}

/** Longest string, array and serialised value echoed back as a 422 entry's `input`. */
export const INPUT_ECHO_CHARS = 1_000;
const INPUT_ECHO_ITEMS = 100;

/** A rejected numeric query string, held in place of the value so that ajv reports its type (and the input is echoed as sent). */
class RejectedText {
  constructor(readonly text: string) {}
}

/**
 * The rejected value as echoed back: a long string cut to INPUT_ECHO_CHARS (ending in "…"), a long
 * array to its first INPUT_ECHO_ITEMS, and any other value whose JSON is longer than INPUT_ECHO_CHARS
 * left out, so that a 2 MB field does not come back as a 2 MB error.
 */
function clipInput(v: unknown): unknown {
  if (v instanceof RejectedText) v = v.text;
  if (typeof v === 'string') return v.length > INPUT_ECHO_CHARS ? `${v.slice(0, INPUT_ECHO_CHARS)}…` : v;
  if (Array.isArray(v) && v.length > INPUT_ECHO_ITEMS) v = v.slice(0, INPUT_ECHO_ITEMS);
  if (v !== null && typeof v === 'object' && JSON.stringify(v).length > INPUT_ECHO_CHARS) return undefined;
  return v;
}

/** ajv errors -> the spec's 422 detail entries. */
export function toDetail(part: RequestPart, errors: readonly ErrorObject[], data: unknown): ValidationDetail[] {
  const seen = new Set<string>();
  const out: ValidationDetail[] = [];
  /** Per entry of `out`: only a type mismatch. */
  const typeOnly: boolean[] = [];
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const loc = pointerToLoc(e.instancePath, data);
    if (e.keyword === 'required') loc.push(e.params.missingProperty as string);
    if (e.keyword === 'additionalProperties') loc.push(e.params.additionalProperty as string);
    const entry: ValidationDetail = { loc: [part, ...loc], msg: (MESSAGES[e.keyword] ?? (() => e.message ?? 'Invalid input'))(e), type: typeOf(e) };
    // A missing field has no input of its own.
    const input = e.keyword === 'required' ? undefined : clipInput(valueAt(data, loc));
    if (input !== undefined) entry.input = input;
    if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems'].includes(e.keyword)) {
      entry.ctx = { limit: e.params.limit };
    } else if (e.keyword === 'enum') entry.ctx = { expected: e.params.allowedValues };
    const key = `${entry.loc.join('.')}|${entry.type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(entry);
    typeOnly.push(e.keyword === 'type');
  }
  // A value rejected by every branch of a union ("lst_..." or an array of them) fails each on its own
  // terms: the branch of its own type says what is wrong (at the value or inside it), the others only
  // that the type differs. Such a type mismatch is left out when another error is at or under its loc.
  const within = (inner: ValidationDetail['loc'], outer: ValidationDetail['loc']) => inner.length >= outer.length && outer.every((x, i) => x === inner[i]);
  return out.filter((d, i) => !typeOnly[i] || !out.some((o, j) => !typeOnly[j] && within(o.loc, d.loc)));
}

export interface Validator {
  (data: unknown): unknown;
}

/** Query-string spellings of a boolean beyond "true" / "false" (as Pydantic reads them), lower case. */
const BOOLEAN_WORDS: ReadonlyMap<string, string> = new Map([
  ['1', 'true'],
  ['yes', 'true'],
  ['on', 'true'],
  ['y', 'true'],
  ['t', 'true'],
  ['true', 'true'],
  ['0', 'false'],
  ['no', 'false'],
  ['off', 'false'],
  ['n', 'false'],
  ['f', 'false'],
  ['false', 'false'],
]);

/** Query-string spellings of numbers: plain decimal only ("0x10", "1e1", "" and "Infinity" are not numbers here). */
const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A validating function for one request part: returns the (coerced, defaulted) data or throws 422. */
export function compileValidator(part: RequestPart, schema: JsonSchema): Validator {
  const ajv = part === 'body' ? bodyAjv : queryAjv;
  const fn: ValidateFunction = ajv.compile(schema);
  const props = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const ofType = (t: string) => (part === 'query' ? Object.keys(props).filter((k) => props[k]!.type === t) : []);
  // Boolean query parameters also take 1/0, yes/no, on/off in any case (ajv coerces only "true"/"false").
  const booleans = ofType('boolean');
  // ajv would read any string JavaScript's Number() reads ("0x10" as 16, " 10", "1e1" as an integer).
  const numerics = [...ofType('integer').map((k) => [k, INTEGER_TEXT] as const), ...ofType('number').map((k) => [k, NUMBER_TEXT] as const)];
  // A parameter may also come as `name[]=a&name[]=b` (how axios and PHP-style clients repeat one): read as
  // `name`, so a scalar one given once that way is taken, and twice is refused like `name=a&name=b`.
  const bracketable = part === 'query' ? Object.keys(props) : [];
  return (data: unknown) => {
    const q = data as Record<string, unknown>;
    for (const k of bracketable) {
      const bracketed = q[`${k}[]`];
      if (bracketed === undefined) continue;
      q[k] = [...(q[k] === undefined ? [] : [q[k]].flat()), ...[bracketed].flat()];
      delete q[`${k}[]`];
    }
    for (const k of booleans) {
      if (typeof q[k] === 'string') q[k] = BOOLEAN_WORDS.get((q[k] as string).toLowerCase()) ?? q[k];
    }
    for (const [k, text] of numerics) {
      if (typeof q[k] === 'string' && !text.test(q[k] as string)) q[k] = new RejectedText(q[k] as string);
    }
    if (!fn(data)) {
      throw validationError(toDetail(part, fn.errors ?? [], data));
    }
    return data;
  };
}
