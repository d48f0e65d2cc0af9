import { describe, expect, it } from 'vitest';
import { satisfies, satisfiesLoosely } from '../../src/search/spec-match.ts';
import { understandQuery } from '../../src/search/understand.ts';

const spec = (name: string, value: string, num: number | null, unit: string | null) => ({ name, value, num, min: num, max: num, unit });

describe('satisfiesLoosely (ranking) beside satisfies (the measure)', () => {
  const u = understandQuery('5A 5V usb connector');
  const current = u.specs.find((c) => c.unit === 'A')!;
  it('accepts a quantity held under a spec name the vocabulary does not know, by its unit', () => {
    const usb = [spec('Load current (power pins)', '5A', 5, 'A'), spec('Allowable voltage', '5V', 5, 'V')];
    expect(current).toBeDefined();
    expect(satisfies(usb, current)).toBe(false);
    expect(satisfiesLoosely(usb, current)).toBe(true);
    expect(satisfiesLoosely([spec('Load current (power pins)', '1A', 1, 'A')], current)).toBe(false);
  });

  it('keeps the named reading when the part has a spec of those attributes, and text values by attribute only', () => {
    expect(current.attributes[0]).toBe('current_rating');
    const named = [spec('Rated current', '1A', 1, 'A'), spec('Something else', '5A', 5, 'A')];
    expect(satisfiesLoosely(named, current)).toBe(false);
    const x7r = understandQuery('100nF X7R').values[0]!;
    expect(x7r).toBeDefined();
    expect(satisfiesLoosely([spec('Material', 'X7R', null, null)], x7r)).toBe(satisfies([spec('Material', 'X7R', null, null)], x7r));
  });
});
