/**
 * The one error catalogue: domain code throws an ApiError with a code; the error middleware renders
 * it. Each code has one HTTP status and one body form (README "API notes"):
 *   - validation_error -> 422, validation form {detail: [{loc, msg, type, input?, ctx?}]}
 *   - every other code -> envelope form {error: {type, message, request_id}}
 */
export const ERROR_CODES = {
  validation_error: 422,
  graphql_parse_failed: 400,
  graphql_validation_failed: 400,
  query_too_complex: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  subscription_required: 403,
  insufficient_credit: 402,
  usage_limit_exceeded: 402,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  internal_error: 500,
  engine_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { detail?: ValidationDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_CODES[code];
  }
}

export const notFound = (what: string) => new ApiError('not_found', `${what} was not found.`);

export function validationError(detail: ValidationDetail[]): ApiError {
  return new ApiError('validation_error', detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '), { detail });
}

/** An ApiError's `extensions` as a GraphQL error (/graphql): its code, the request id, a validation error's detail. */
export function graphqlExtensions(e: ApiError, requestId: string): { code: ErrorCode; request_id: string; detail?: ValidationDetail[] } {
  return { code: e.code, request_id: requestId, ...(e.extra.detail ? { detail: e.extra.detail } : {}) };
}
