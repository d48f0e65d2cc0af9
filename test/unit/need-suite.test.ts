/**
 * The need-style suite's judge (src/relevance/need-suite.ts) and its rules file
 * (test/relevance/need-rules.json): how a part's spec meets a stated constraint, how a part is graded,
 * and that the committed file is well formed, large enough and split in two.
 */
import { describe, expect, it } from 'vitest';
import {
  buildNeedSuite,
  familyOf,
  needGrade,
  NeedRulesError,
  readNeedRules,
  validateNeedRules,
  valueMeets,
  type NeedConstraint,
  type NeedPart,
} from '../../src/relevance/need-suite.ts';

// [constraint, spec value, meets]
const VALUES: [NeedConstraint, string, boolean][] = [
  [{ covers: '12V' }, '4.5V~28V', true],
  [{ covers: '12V' }, '4.5V~5.5V', false],
  [{ covers: '12V' }, '12V', true],
  [{ covers: '12V' }, '12A', false], // another unit
  [{ equals: '5.1V' }, '5.1V', true],
  [{ equals: '5.1V' }, '5.6V', false],
  [{ equals: '32.768kHz', tolerance: 0.001 }, '32.768kHz', true],
  [{ equals: '32.768kHz', tolerance: 0.001 }, '32kHz', false],
  [{ equals: '10mΩ' }, '10mΩ', true],
  [{ equals: '16' }, '16-Bit', true],
  [{ equals: '16' }, '12 Bits', false],
  [{ atLeast: '5kV' }, '5kV', true],
  [{ atLeast: '5kV' }, '3.75kV', false],
  [{ atLeast: '2A' }, '3A', true],
  [{ atLeast: '10A' }, '16A@250VAC', true],
  [{ atMost: '2.5V' }, '1.5V @ -', true],
  [{ atMost: '2.5V' }, '1V~3V', false],
  [{ matches: 'buck|step.?down' }, 'Step-down type', true],
  [{ matches: 'buck|step.?down' }, 'Boost', false],
  [{ covers: '5V' }, 'Adjustable', false],
];

const part = (o: Partial<NeedPart>): NeedPart => ({
  slug: 'acme/x',
  active: true,
  category: { slug: 'c', name: 'DC-DC Converters' },
  package: null,
  specs: [],
  description: '',
  longDescription: null,
  ...o,
});

const RULES = {
  suite: 'need',
  families: { 'dc-dc': { leaf: 'dc-dc converter' }, ldo: { leaf: '\\bldo\\b' }, fuse: { leaf: 'fuses?$', notLeaf: 'resettable' } },
  queries: [
    {
      id: 'n-1',
      split: 'tune' as const,
      kind: 'spec' as const,
      query: 'steps 12V down to 5V',
      want: ['dc-dc'],
      also: ['ldo'],
      constraints: [{ spec: 'input voltage', covers: '12V' }],
    },
  ],
};

describe('need-style suite: the judge', () => {
  it.each(VALUES)('%o on "%s": %s', (c, value, meets) => {
    expect(valueMeets(c, value)).toBe(meets);
  });

  it('finds a part\'s family by its leaf category name, the first pattern that matches and whose "notLeaf" does not', () => {
    expect(familyOf(RULES, 'DC-DC Converters')).toBe('dc-dc');
    expect(familyOf(RULES, 'Linear Voltage Regulators (LDO)')).toBe('ldo');
    expect(familyOf(RULES, 'Resettable Fuses')).toBeNull();
    expect(familyOf(RULES, 'Fuses')).toBe('fuse');
  });

  const q = RULES.queries[0]!;
  const input12 = [{ name: 'Input voltage', value: '4.5V~28V', num: null, unit: null }];
  it.each([
    ['a wanted family meeting every constraint', 'dc-dc', part({ specs: input12 }), 3],
    ['an acceptable family meeting every constraint', 'ldo', part({ specs: input12 }), 2],
    ['a wanted family missing a constraint', 'dc-dc', part({ specs: [{ name: 'Input voltage', value: '3V~5.5V', num: null, unit: null }] }), 1],
    ['a wanted family without the spec', 'dc-dc', part({}), 1],
    ['another family', 'fuse', part({ specs: input12 }), 0],
    ['no family', null, part({ specs: input12 }), 0],
  ] as const)('grades %s %i', (_name, family, p, grade) => {
    expect(needGrade(q, family, p)).toBe(grade);
  });

  it('text constraints read the description, the long description and the leaf name', () => {
    const c = { text: 'uart|serial' };
    const rules = { ...RULES, queries: [{ ...q, constraints: [c] }] };
    const built = buildNeedSuite(rules, [
      part({ slug: 'a/usb-uart', description: 'USB to UART bridge' }),
      part({ slug: 'a/usb-hub', description: 'USB 2.0 hub controller' }),
      part({ slug: 'a/old', description: 'USB to UART bridge', active: false }),
    ]);
    expect(built.tune[0]!.judgments).toEqual({ 'a/usb-uart': 3, 'a/usb-hub': 1 });
    expect(built.tune[0]!.suite).toBe('need-tune');
    expect(built.test).toEqual([]);
  });

  it('refuses a malformed rules file, naming the place', () => {
    const bad = (patch: object) => () => validateNeedRules({ ...RULES, queries: [{ ...q, ...patch }] });
    expect(bad({ want: ['capacitor'] })).toThrow(new NeedRulesError('query n-1: unknown family "capacitor"'));
    expect(bad({ split: 'train' })).toThrow('query n-1: "split" must be tune or test');
    expect(bad({ constraints: [{ spec: 'x', covers: 'twelve volts' }] })).toThrow('query n-1 covers: cannot read the quantity "twelve volts"');
    expect(bad({ constraints: [{ spec: 'x', covers: '1V', atLeast: '2V' }] })).toThrow('a constraint needs "spec" and one of');
    expect(bad({ constraints: [{ spec: '(', covers: '1V' }] })).toThrow('query n-1 spec: bad pattern');
  });
});

describe('need-style suite: the committed rules', () => {
  const rules = readNeedRules();
  it('holds at least 60 queries over at least 25 families, in a tuning half and a test half of both kinds', () => {
    expect(rules.queries.length).toBeGreaterThanOrEqual(60);
    expect(new Set(rules.queries.flatMap((x) => x.want)).size).toBeGreaterThanOrEqual(25);
    for (const split of ['tune', 'test'])
      for (const kind of ['function', 'spec'])
        expect(rules.queries.filter((x) => x.split === split && x.kind === kind).length, `${split} ${kind}`).toBeGreaterThanOrEqual(8);
    const halves = rules.queries.filter((x) => x.split === 'test').length / rules.queries.length;
    expect(halves).toBeGreaterThan(0.4);
    expect(halves).toBeLessThan(0.6);
  });
});
