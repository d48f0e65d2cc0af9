import { describe, it, expect } from 'vitest';
import {
  parseSpecValue, parseQuantity, parseWholeQuantity, normaliseUnit, formatSi, SI_PREFIX,
  type SiUnit, type ParsedSpec,
} from '../../src/catalog/units.ts';

/** Relative float comparison (toBeCloseTo is useless for 1e-12-sized values). */
function near(actual: number | null, expected: number | null): boolean {
  if (actual === null || expected === null) return actual === expected;
  if (expected === 0) return Math.abs(actual) < 1e-300;
  return Math.abs(actual - expected) <= 1e-12 * Math.abs(expected);
}

function expectNear(actual: number | null, expected: number | null, label: string): void {
  expect(near(actual, expected), `${label}: got ${actual}, want ${expected}`).toBe(true);
}

/** Single value: [input, value, unit, tolerance?, hint?] */
type SingleRow = [string, number, SiUnit | null, boolean?, SiUnit?];
/** Range: [input, min, max, unit, hint?] */
type RangeRow = [string, number, number, SiUnit | null, SiUnit?];

function checkSingle([input, value, unit, tol = false, hint]: SingleRow): void {
  const r = parseSpecValue(input, hint) as ParsedSpec;
  expect(r, input).not.toBeNull();
  expect(r.display).toBe(input);
  expectNear(r.value, value, `${input} value`);
  expectNear(r.min, value, `${input} min`);
  expectNear(r.max, value, `${input} max`);
  expect(r.unit, input).toBe(unit);
  expect(r.tolerance, input).toBe(tol);
}

function checkRange([input, min, max, unit, hint]: RangeRow): void {
  const r = parseSpecValue(input, hint) as ParsedSpec;
  expect(r, input).not.toBeNull();
  expect(r.display).toBe(input);
  expect(r.value, input).toBeNull();
  expectNear(r.min, min, `${input} min`);
  expectNear(r.max, max, `${input} max`);
  expect(r.unit, input).toBe(unit);
  expect(r.tolerance, input).toBe(false);
}

describe('parseSpecValue — required rules', () => {
  const rows: SingleRow[] = [
    ['10k', 10000, null],
    ['10k', 10000, 'Ω', false, 'Ω'],
    ['4k7', 4700, null],
    ['1R0', 1, 'Ω'],
    ['0R', 0, 'Ω'],
    ['4R7', 4.7, 'Ω'],
    ['R047', 0.047, 'Ω'],
    ['100n', 1e-7, null],
    ['0.1uF', 1e-7, 'F'],
    ['4.7µF', 4.7e-6, 'F'],          // U+00B5 micro sign
    ['4.7μF', 4.7e-6, 'F'],          // U+03BC Greek mu
    ['4u7', 4.7e-6, null],
    ['2.2 uH', 2.2e-6, 'H'],
    ['1p5', 1.5e-12, null],
    ['2M2', 2.2e6, null],
    ['±1%', 1, '%', true],
    ['16V', 16, 'V'],
    ['500mA', 0.5, 'A'],
    ['32.768kHz', 32768, 'Hz'],
    ['1.5W', 1.5, 'W'],
    ['1/4W', 0.25, 'W'],
    ['1/10W', 0.1, 'W'],
    ['10kΩ', 10000, 'Ω'],
    ['100mΩ', 0.1, 'Ω'],
    ['10MΩ', 1e7, 'Ω'],
    ['1 MHz', 1e6, 'Hz'],
    ['8MHz', 8e6, 'Hz'],
    ['25ppm/℃', 25, 'ppm'],
    ['3.3V', 3.3, 'V'],
    ['-5V', -5, 'V'],
    ['1e-6', 1e-6, null],
    ['16k', 16000, null],             // never 3.16k
    ['470k HV', 470000, null],        // trailing words ignored
    ['10K', 10000, null],             // upper-case K is kilo
    ['1M', 1e6, null],                // M is mega
    ['1m', 1e-3, null],               // bare m is milli
    ['5mA', 5e-3, 'A'],               // m before a unit letter is milli
    ['1.6mm', 1.6e-3, 'm'],           // mm is millimetres
    ['0.5LSB, 1LSB', 0.5, null],      // list: first number
    ['1', 1, null],
    ['12', 12, null],
  ];
  it.each(rows)('%s', (...row) => checkSingle(row as SingleRow));

  const ranges: RangeRow[] = [
    ['-40℃~+85℃', -40, 85, '℃'],
    ['2.7V~3.6V', 2.7, 3.6, 'V'],
    ['-55°C to +125°C', -55, 125, '℃'],
    ['1.8V-5.5V', 1.8, 5.5, 'V'],
    ['2.7 ~ 3.6 V', 2.7, 3.6, 'V'],   // unit only once
    ['-40~85℃', -40, 85, '℃'],        // leading minus is a sign
  ];
  it.each(ranges)('range %s', (...row) => checkRange(row as RangeRow));

  it.each(['N/A', '-', '', '电阻', '贴片电阻器', 'Yes', 'Tape & Reel (TR)'])('no number: %j -> null', (s) => {
    expect(parseSpecValue(s)).toBeNull();
  });

  it('returns exact doubles where the decimal is exact', () => {
    expect(parseSpecValue('4.7µF')?.value).toBe(4.7e-6);
    expect(parseSpecValue('4u7')?.value).toBe(4.7e-6);
    expect(parseSpecValue('0.1uF')?.value).toBe(1e-7);
    expect(parseSpecValue('2.2 uH')?.value).toBe(2.2e-6);
    expect(parseSpecValue('1p5')?.value).toBe(1.5e-12);
    expect(parseSpecValue('32.768kHz')?.value).toBe(32768);
  });

  it('never modifies the display string', () => {
    for (const s of ['  10k ', '４.７ｕＦ', '-40℃～+85℃', '±1%', 'N/A']) {
      const r = parseSpecValue(s);
      if (r) expect(r.display).toBe(s);
    }
  });
});

describe('parseSpecValue — catalogue strings', () => {
  const rows: SingleRow[] = [
    ['100nF 50V X7R ±10% 0402', 1e-7, 'F'],
    ['10uF', 1e-5, 'F'],
    ['22pF', 2.2e-11, 'F'],
    ['1nF', 1e-9, 'F'],
    ['470uF', 4.7e-4, 'F'],
    ['0.47uF', 4.7e-7, 'F'],
    ['1,000pF', 1e-9, 'F'],            // thousands separator
    ['10µH', 1e-5, 'H'],
    ['3.3uH', 3.3e-6, 'H'],
    ['100mH', 0.1, 'H'],
    ['10uh', 1e-5, 'H'],               // sloppy lower-case henry after a prefix
    ['1kΩ', 1000, 'Ω'],
    ['49.9kΩ', 49900, 'Ω'],
    ['0Ω', 0, 'Ω'],
    ['10 Ohms', 10, 'Ω'],
    ['2.2KOhm', 2200, 'Ω'],
    ['1mohm', 1e-3, 'Ω'],
    ['1Mohm', 1e6, 'Ω'],
    ['10Ω', 10, 'Ω'],                  // U+2126 OHM SIGN
    ['10R', 10, 'Ω'],
    ['R10', 0.1, 'Ω'],
    ['0R1', 0.1, 'Ω'],
    ['6K8', 6800, null],
    ['1K0', 1000, null],
    ['4k7Ω', 4700, 'Ω'],
    ['4.7k 1% 0603', 4700, null],
    ['10k NTC', 10000, 'Ω', false, 'Ω'],
    ['50V', 50, 'V'],
    ['6.3V', 6.3, 'V'],
    ['100VDC', 100, 'V'],
    ['12 VDC', 12, 'V'],
    ['250VAC', 250, 'V'],
    ['DC12V', 12, 'V'],
    ['约5V', 5, 'V'],
    ['+5V', 5, 'V'],
    ['−5V', -5, 'V'],                  // U+2212 minus
    ['1.8V, 3.3V', 1.8, 'V'],
    ['2.5V/3.3V', 2.5, 'V'],
    ['3.3V -5V', 3.3, 'V'],            // space before '-' only: not a range
    ['100nF-50V', 1e-7, 'F'],          // different units: not a range
    ['±5%', 5, '%', true],
    ['±0.1%', 0.1, '%', true],
    ['+/-20%', 20, '%', true],
    ['± 10%', 10, '%', true],
    ['±20ppm', 20, 'ppm', true],
    ['±50ppm/℃', 50, 'ppm', true],
    ['±0.5℃', 0.5, '℃', true],
    ['±15kV ESD', 15000, 'V', true],
    ['10%RH', 10, '%'],
    ['0.25W', 0.25, 'W'],
    ['1/8W', 0.125, 'W'],
    ['1/16W', 0.0625, 'W'],
    ['500mW', 0.5, 'W'],
    ['2A', 2, 'A'],
    ['1.5 A', 1.5, 'A'],
    ['20uA', 2e-5, 'A'],
    ['10nA', 1e-8, 'A'],
    ['1A@25℃', 1, 'A'],
    ['16MHz', 16e6, 'Hz'],
    ['32.768 kHz', 32768, 'Hz'],
    ['2.4GHz', 2.4e9, 'Hz'],
    ['2G4', 2.4e9, null],
    ['100kHz', 1e5, 'Hz'],
    ['1Hz', 1, 'Hz'],
    ['8Mbit', 8e6, 'bit'],
    ['64Mb', 64e6, 'bit'],
    ['256KB', 256000, 'B'],
    ['12 bits', 12, 'bit'],
    ['16bit', 16, 'bit'],
    ['5ns', 5e-9, 's'],
    ['10ms', 0.01, 's'],
    ['1.5 sec', 1.5, 's'],
    ['-3dB', -3, 'dB'],
    ['60 dB', 60, 'dB'],
    ['625nm', 6.25e-7, 'm'],
    ['2000h @ 105℃', 2000, null],      // hours, not henries
    ['3000 Hours', 3000, null],
    ['1e3', 1000, null],
    ['2.2E-6F', 2.2e-6, 'F'],
    ['.5V', 0.5, 'V'],
    ['-0V', 0, 'V'],
    ['１２Ｖ', 12, 'V'],                  // full-width forms
    ['185°F', 85, '℃'],                // Fahrenheit converted
  ];
  it.each(rows)('%s', (...row) => checkSingle(row as SingleRow));

  const ranges: RangeRow[] = [
    ['-40°C ~ +125°C', -40, 125, '℃'],
    ['-40℃～+105℃', -40, 105, '℃'],      // full-width tilde
    ['0~70℃', 0, 70, '℃'],
    ['-40 to 85 °C', -40, 85, '℃'],
    ['–40℃–85℃', -40, 85, '℃'],           // en dashes
    ['-40C~85C', -40, 85, '℃'],           // lone C, degree context from both ends
    ['-40~85', -40, 85, '℃', '℃'],
    ['-40C~85C', -40, 85, '℃', '℃'],
    ['1.71V~3.6V', 1.71, 3.6, 'V'],
    ['4.5V ~ 5.5V', 4.5, 5.5, 'V'],
    ['1.8 - 5.5V', 1.8, 5.5, 'V'],
    ['3V~36V', 3, 36, 'V'],
    ['100-240VAC', 100, 240, 'V'],
    ['-5V~-3V', -5, -3, 'V'],
    ['-40--10℃', -40, -10, '℃'],
    ['1~10MHz', 1e6, 1e7, 'Hz'],          // bare first number takes the second's prefix
    ['500~1kHz', 500, 1000, 'Hz'],        // ...unless that would invert the range
    ['10k~100kΩ', 1e4, 1e5, 'Ω'],
    ['85℃~-40℃', -40, 85, '℃'],           // reversed bounds are ordered
    ['0.5LSB~1LSB', 0.5, 1, null],
    ['5 to 10V', 5, 10, 'V'],
  ];
  it.each(ranges)('range %s', (...row) => checkRange(row as RangeRow));

  it.each(['X7R', 'C0G', 'NP0', 'SOT-23', 'SOT-23-5', 'AEC-Q200', 'DC-DC'])(
    'designators without a quantity: %s -> null', (s) => {
      expect(parseSpecValue(s)).toBeNull();
    });
});

describe('hintUnit', () => {
  it('applies only when the string has no unit', () => {
    expect(parseSpecValue('100n', 'F')?.unit).toBe('F');
    expect(parseSpecValue('4R7', 'F')?.unit).toBe('Ω');
    expect(parseSpecValue('±1%', 'Ω')?.unit).toBe('%');
    expect(parseSpecValue('16V', 'A')?.unit).toBe('V');
    expect(parseSpecValue('10k', null)?.unit).toBeNull();
  });
  it('gives a lone C degree context', () => {
    expect(parseSpecValue('85C')?.unit).toBeNull();
    expect(parseSpecValue('85C', '℃')?.unit).toBe('℃');
    expect(parseQuantity('85C', '℃')).toEqual({ value: 85, unit: '℃' });
  });
});

describe('parseQuantity', () => {
  const rows: [string, number, SiUnit | null, SiUnit?][] = [
    ['4k7', 4700, null],
    ['4k7', 4700, 'Ω', 'Ω'],
    ['100nF', 1e-7, 'F'],
    ['16V', 16, 'V'],
    ['R047', 0.047, 'Ω'],
    ['-5V', -5, 'V'],
    ['±1%', 1, '%'],
    ['2.7V~3.6V', 2.7, 'V'],           // first quantity of a range
  ];
  it.each(rows)('%s', (token, value, unit, hint) => {
    const q = parseQuantity(token, hint);
    expect(q).not.toBeNull();
    expectNear(q!.value, value, token);
    expect(q!.unit).toBe(unit);
  });
  it.each(['', 'k', '±', 'N/A', 'ohm', '1e400'])('no number: %j', (s) => {
    expect(parseQuantity(s)).toBeNull();
  });
});

describe('parseWholeQuantity', () => {
  const rows: [string, number, SiUnit | null, SiUnit?][] = [
    ['0.1uF', 1e-7, 'F'],
    [' 150µH ', 1.5e-4, 'H'],
    ['10 nF', 1e-8, 'F'],
    ['4k7', 4700, 'Ω', 'Ω'],
    ['±1%', 1, '%'],
    ['1/4W', 0.25, 'W'],
    ['1,000pF', 1e-9, 'F'],
  ];
  it.each(rows)('%s', (text, value, unit, hint) => {
    const q = parseWholeQuantity(text, hint);
    expect(q).not.toBeNull();
    expectNear(q!.value, value, text);
    expect(q!.unit).toBe(unit);
  });
  // Something before or after the quantity: not one quantity (parseQuantity reads 3V3 as 3 V).
  it.each(['', '3V3', '3.3V, 5V', '5V max', '5Vmax', '250V@DC', '2x10k', '20V/V', '100nF@1kHz', 'abc 5V'])('not one quantity: %j', (s) => {
    expect(parseWholeQuantity(s)).toBeNull();
  });
});

describe('normaliseUnit', () => {
  const rows: [string, SiUnit | null][] = [
    ['ohm', 'Ω'], ['ohms', 'Ω'], ['Ohm', 'Ω'], ['Ω', 'Ω'], ['Ω', 'Ω'], ['R', 'Ω'],
    ['F', 'F'], ['farad', 'F'], ['H', 'H'], ['henry', 'H'],
    ['v', 'V'], ['V', 'V'], ['volt', 'V'], ['Volts', 'V'], ['VDC', 'V'],
    ['a', 'A'], ['amp', 'A'], ['A', 'A'],
    ['W', 'W'], ['watt', 'W'], ['hz', 'Hz'], ['Hz', 'Hz'], ['HZ', 'Hz'],
    ['%', '%'], ['°C', '℃'], ['℃', '℃'], ['° C', '℃'], ['ºC', '℃'],
    ['s', 's'], ['sec', 's'], ['m', 'm'], ['metre', 'm'],
    ['ppm', 'ppm'], ['ppm/℃', 'ppm'], ['ppm/°C', 'ppm'], ['dB', 'dB'],
    ['B', 'B'], ['bytes', 'B'], ['bit', 'bit'], ['bits', 'bit'], [' V ', 'V'],
    // not unit words
    ['uF', null], ['kΩ', null], ['C', null], ['h', null], ['M', null], ['', null], ['LSB', null], ['V/us', null],
  ];
  it.each(rows)('%j -> %j', (u, want) => {
    expect(normaliseUnit(u)).toBe(want);
  });
});

describe('formatSi', () => {
  const rows: [number, SiUnit | null, string][] = [
    [1e-7, 'F', '100nF'],
    [4700, 'Ω', '4.7kΩ'],
    [4.7e-6, 'F', '4.7µF'],
    [0.047, 'Ω', '47mΩ'],
    [1, 'Ω', '1Ω'],
    [0, 'Ω', '0Ω'],
    [32768, 'Hz', '32.768kHz'],
    [2.2e6, null, '2.2M'],
    [1.5e-12, 'F', '1.5pF'],
    [2.4e9, 'Hz', '2.4GHz'],
    [-5, 'V', '-5V'],
    [0.5, 'A', '500mA'],
    [1000, 'V', '1kV'],
    [999.9999999999999, 'V', '1kV'],
    [0.1 + 0.2, 'V', '300mV'],
    [1.6e-3, 'm', '1.6mm'],
    [1, '%', '1%'],
    [25, 'ppm', '25ppm'],
    [-40, '℃', '-40℃'],
    [1e-15, 'F', '0.001pF'],
  ];
  it.each(rows)('%s %s -> %s', (v, u, want) => {
    expect(formatSi(v, u)).toBe(want);
  });
  it('round-trips through parseQuantity', () => {
    for (const s of ['100nF', '4.7kΩ', '4.7µF', '32.768kHz', '2.2MΩ', '1.5pF', '500mA', '10MHz']) {
      const q = parseQuantity(s)!;
      expect(formatSi(q.value, q.unit)).toBe(s);
    }
  });
  it('does not throw on non-finite input', () => {
    expect(() => formatSi(Number.NaN, 'V')).not.toThrow();
    expect(() => formatSi(Infinity, null)).not.toThrow();
  });
});

describe('SI_PREFIX', () => {
  it('has the expected multipliers', () => {
    expect(SI_PREFIX).toEqual({
      p: 1e-12, n: 1e-9, u: 1e-6, 'µ': 1e-6, 'μ': 1e-6, m: 1e-3, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12,
    });
    expect(Object.isFrozen(SI_PREFIX)).toBe(true);
  });
});

describe('robustness', () => {
  const odd = [
    '😀', '😀10k😀', '9'.repeat(10_000), '~~~', '±', 'k', '1e400', '-1e400', '1e-400', '.', '..', '-.', '+/-',
    '1/0W', '1e99999999999999999999999', 'R', 'RR', '0R0R0R', '4k7k7', '--5', '~5', '5~', '5~~6', '1..5',
    '\u0000', '\uD800', '1\uD8002', '°', '°C', '℃5', 'ΩΩΩ', 'µ', '1µ', '1 to', 'to 5', ',,,', '1,', ',1',
    '1,000,000,000,000', '   ', '\n10k\n', 'null', 'undefined', 'NaN', 'Infinity', '0x10', '1_000', '-'.repeat(5000),
    '1-'.repeat(3000), '1e', 'e5', '1E+', '½W', '4.7 k Ω', 'DC', 'AC220V', 'ℵ',
  ];
  it.each(odd.map((s) => [s.length > 30 ? `${s.slice(0, 30)}…(${s.length})` : s, s]))('does not throw: %j', (_label, s) => {
    expect(() => parseSpecValue(s)).not.toThrow();
    expect(() => parseQuantity(s)).not.toThrow();
    expect(() => normaliseUnit(s)).not.toThrow();
    const r = parseSpecValue(s);
    if (r) expect(r.display).toBe(s);
  });

  it('rejects non-finite numbers', () => {
    expect(parseSpecValue('1e400')).toBeNull();
    expect(parseSpecValue('9'.repeat(10_000))).toBeNull();
    expect(parseSpecValue('1e-400')?.value).toBe(0);
  });

  it('never throws and keeps invariants on random strings', () => {
    // Deterministic LCG so failures are reproducible.
    let seed = 0x2545f491;
    const rnd = (n: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n; };
    const alphabet = [
      '0', '1', '4', '7', '9', '.', ',', '-', '+', '±', '~', '～', '/', ' ', 'e', 'E', 'R', 'r', 'k', 'K', 'M', 'm',
      'u', 'µ', 'μ', 'n', 'p', 'G', 'T', 'Ω', 'F', 'H', 'h', 'V', 'A', 'W', 'Hz', '%', '℃', '°', 'C', 'to', 'ppm',
      'dB', 'B', 'b', 'ohm', '电', '😀', '－', '１',
    ];
    for (let i = 0; i < 5000; i++) {
      let s = '';
      const len = rnd(12);
      for (let j = 0; j < len; j++) s += alphabet[rnd(alphabet.length)];
      const r = parseSpecValue(s);
      if (r === null) continue;
      expect(r.display).toBe(s);
      expect(r.min !== null && r.max !== null && Number.isFinite(r.min) && Number.isFinite(r.max), s).toBe(true);
      expect(r.min! <= r.max!, s).toBe(true);
      if (r.value !== null) {
        expect(Number.isFinite(r.value), s).toBe(true);
        expect(r.min).toBe(r.value);
      } else {
        expect(r.tolerance, s).toBe(false);
      }
      expect(typeof formatSi(r.min!, r.unit)).toBe('string');
    }
  });
});
