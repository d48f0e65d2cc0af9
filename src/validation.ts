/**
 * The ajv instances for JSON Schemas outside a request (dump records and side files, vocabulary files,
 * relevance suites): `ajv` reports every error, `fastAjv` stops at the first. Requests are validated
 * by the HTTP layer's own two (http/validation.ts: query strings coerced, bodies as sent).
 */
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export const ajv = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true, allowUnionTypes: true }));

/**
 * For hot paths (a dump's records): stops at the first error. Callers re-validate a failing value
 * with the `ajv` instance to report every reason.
 */
export const fastAjv = addFormats(new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: true, allowUnionTypes: true }));

/** "field: message" lines for a report. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const at = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(record)';
    if (e.keyword === 'required') return `${at === '(record)' ? '' : `${at}.`}${(e.params as { missingProperty: string }).missingProperty}: is required`;
    if (e.keyword === 'type') return `${at}: must be ${(e.params as { type: string | string[] }).type}`;
    return `${at}: ${e.message ?? e.keyword}`;
  });
}
