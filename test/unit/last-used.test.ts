import { describe, expect, it } from 'vitest';
import { LAST_USED_GRANULARITY_MS, needsLastUsedUpdate } from '../../src/accounts/validate.ts';

describe('needsLastUsedUpdate (last_used_at refreshed at most once a minute)', () => {
  const t0 = Date.parse('2026-11-26T10:00:00.000Z');
  it('asks for a write when the key was never used or the stamp is unreadable', () => {
    expect(needsLastUsedUpdate(null, t0)).toBe(true);
    expect(needsLastUsedUpdate('not a date', t0)).toBe(true);
  });
  it('answers from the stamp itself, however the calls to different stamps interleave', () => {
    const a = '2026-11-26T10:00:00.000Z';
    const b = '2026-11-26T09:58:00.000Z';
    for (let i = 0; i < 3; i++) {
      expect(needsLastUsedUpdate(a, t0 + LAST_USED_GRANULARITY_MS - 1)).toBe(false);
      expect(needsLastUsedUpdate(b, t0)).toBe(true);
      expect(needsLastUsedUpdate(a, t0 + LAST_USED_GRANULARITY_MS)).toBe(true);
      expect(needsLastUsedUpdate(b, t0 - 60_001)).toBe(false);
    }
  });
});
