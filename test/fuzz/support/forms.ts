/**
 * The error body forms a response may take (SPEC.md Errors), written out here independently of the
 * application's own schemas so that the check is not the code checking itself:
 *   1. simple: {detail: string}
 *   2. envelope: {error: {type, message, request_id}}
 *   3. validation (422): {detail: [{loc, msg, type, input?, ctx?}]}
 *   GraphQL (on /graphql): {errors: [{message, locations?, path?, extensions?}], data?}
 * Each returns null when the body is in the form, else why not.
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (v: Record<string, unknown>, allowed: readonly string[]) => Object.keys(v).every((k) => allowed.includes(k));

function simpleForm(b: Record<string, unknown>): string | null {
  return onlyKeys(b, ['detail']) && typeof b.detail === 'string' ? null : 'not the simple form';
}

function envelopeForm(b: Record<string, unknown>): string | null {
  const e = b.error;
  if (!onlyKeys(b, ['error']) || !isObject(e)) return 'not the envelope form';
  if (!onlyKeys(e, ['type', 'message', 'request_id'])) return `envelope with other keys: ${Object.keys(e).join(', ')}`;
  for (const k of ['type', 'message', 'request_id']) if (typeof e[k] !== 'string') return `envelope error.${k} is not a string`;
  if (e.request_id === '') return 'envelope request_id is empty';
  return null;
}

function validationForm(b: Record<string, unknown>): string | null {
  if (!onlyKeys(b, ['detail']) || !Array.isArray(b.detail) || b.detail.length === 0) return 'not the validation form';
  for (const d of b.detail) {
    if (!isObject(d) || !onlyKeys(d, ['loc', 'msg', 'type', 'input', 'ctx'])) return 'a validation entry with other keys';
    if (!Array.isArray(d.loc) || !d.loc.every((x) => typeof x === 'string' || Number.isInteger(x)))
      return 'a validation entry whose loc is not strings and integers';
    if (typeof d.msg !== 'string' || typeof d.type !== 'string') return 'a validation entry without msg or type';
    if ('ctx' in d && !isObject(d.ctx)) return 'a validation entry whose ctx is not an object';
  }
  return null;
}

/** Why `body` (parsed JSON) is in none of SPEC.md's three REST forms, or null; 422 must be the validation form. */
export function restErrorProblem(status: number, body: unknown): string | null {
  if (!isObject(body)) return 'the error body is not a JSON object';
  if (status === 422) return validationForm(body) && `422 ${validationForm(body)}`;
  const problems = [simpleForm(body), envelopeForm(body), validationForm(body)];
  return problems.some((p) => p === null) ? null : `in none of the three forms (${problems[1]})`;
}

/** Why `body` is not a GraphQL response with errors in GraphQL's form, or null. */
export function graphqlProblem(body: unknown, mustHaveErrors: boolean): string | null {
  if (!isObject(body) || !onlyKeys(body, ['data', 'errors', 'extensions'])) return 'not a GraphQL response object';
  if (body.errors === undefined) return mustHaveErrors ? 'an error status without errors' : 'data' in body ? null : 'neither data nor errors';
  if (!Array.isArray(body.errors) || body.errors.length === 0) return 'errors is not a non-empty array';
  for (const e of body.errors) {
    if (!isObject(e) || typeof e.message !== 'string') return 'an error without a message';
    if (!onlyKeys(e, ['message', 'locations', 'path', 'extensions'])) return `an error with other keys: ${Object.keys(e).join(', ')}`;
    if ('extensions' in e && (!isObject(e.extensions) || typeof e.extensions.code !== 'string')) return 'an error whose extensions carry no code';
  }
  return null;
}

/** Codes that say the server failed (never the client's input). */
export const SERVER_FAILURE_CODES = new Set(['internal_error']);
