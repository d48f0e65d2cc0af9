/** The header arithmetic shared by the memory and Redis throttles (SPEC.md Limits, rate-limit headers). */
import type { ThrottleDecision } from './port.ts';

export function checkThrottleArgs(bucket: unknown, limit: unknown, windowMs: unknown, nowMs: unknown): void {
  if (typeof bucket !== 'string' || bucket === '') throw new TypeError('throttle: bucket must be a non-empty string');
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0)
    throw new RangeError(`throttle: limit must be an integer >= 0, got ${String(limit)}`);
  if (typeof windowMs !== 'number' || !Number.isSafeInteger(windowMs) || windowMs < 1)
    throw new RangeError(`throttle: windowMs must be an integer >= 1, got ${String(windowMs)}`);
  if (nowMs !== undefined && (typeof nowMs !== 'number' || !Number.isFinite(nowMs)))
    throw new RangeError(`throttle: nowMs must be a finite number, got ${String(nowMs)}`);
}

/**
 * `count` is the number of requests in the window after this one (this one included when allowed);
 * `oldestMs` the oldest of them (this request's time when the window was otherwise empty).
 */
export function throttleDecision(allowed: boolean, limit: number, count: number, oldestMs: number, nowMs: number, windowMs: number): ThrottleDecision {
  const leavesAt = oldestMs + windowMs;
  return {
    allowed,
    limit,
    remaining: allowed ? Math.max(0, limit - count) : 0,
    reset: Math.ceil(leavesAt / 1000),
    retryAfter: Math.max(1, Math.ceil((leavesAt - nowMs) / 1000)),
  };
}
