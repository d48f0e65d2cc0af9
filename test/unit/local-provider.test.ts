/**
 * The local AI provider (no LLM): how it ranks candidates against stated constraints and answers deep
 * dive questions from a record's specs, and when it declines to answer.
 */
import { describe, expect, it } from 'vitest';
import { createLocalProvider } from '../../src/ai/local.ts';
import type { Deliverable } from '../../src/ai/port.ts';
import type { PartRecord, PartSpec } from '../../src/catalog/part.ts';
import type { SiUnit } from '../../src/catalog/units.ts';
import { partRecord } from '../support/parts.ts';

const spec = (name: string, value: string, num: number | null = null, unit: SiUnit | null = null): PartSpec => ({ name, value, num, min: num, max: num, unit });

const part = (id: number, mpn: string, specs: PartSpec[], over: Partial<PartRecord> = {}): PartRecord => partRecord(id, mpn, { specs, ...over });

const provider = createLocalProvider();
const signal = new AbortController().signal;

const LDO = part(
  1,
  'AMS1117-3.3',
  [
    spec('Output voltage', '3.3V', 3.3, 'V'),
    spec('Output current', '1A', 1, 'A'),
    spec('Standby current', '5mA', 0.005, 'A'),
    spec('Dropout voltage', '1.3V@(800mA)', 1.3, 'V'),
    { name: 'Operating temperature', value: '-40℃~+125℃', num: null, min: -40, max: 125, unit: '℃' },
    spec('Output type', 'Fixed'),
  ],
  { package: 'SOT-223' },
);
const FET = part(2, 'AO3400A', [spec('Drain Source Voltage (Vdss)', '30V', 30, 'V'), spec('Continuous Drain Current (Id)', '5.8A', 5.8, 'A')], {
  package: 'SOT-23',
});

async function ask(p: PartRecord, ...ds: [string, Deliverable['response_format']?][]) {
  const deliverables = ds.map(([question, response_format], i) => ({
    key: String(i),
    question,
    response_format: response_format ?? { type: 'markdown' as const },
  }));
  return (await provider.answer({ part: p, deliverables, context: null, maxTokens: 0, signal })).answers;
}

describe('local provider: deep dive', () => {
  it('answers from the spec the question names, in the requested unit, citing it', async () => {
    const [io, iq, type, pkg] = await ask(
      LDO,
      ['What is the maximum output current?', { type: 'number', unit: 'mA' }],
      // Another maker's name for the quiescent current, through the search vocabulary.
      ['What is the quiescent current?', { type: 'number', unit: 'uA' }],
      ['Is the output fixed or adjustable?', { type: 'enum', enum_values: ['Fixed', 'Adjustable'] }],
      ['Which package?', { type: 'enum', enum_values: ['SOT-23', 'SOT-223'] }],
    );
    expect(io).toMatchObject({ status: 'answered', value: 1000, sources: [{ document: null, quote: 'Output current: 1A' }] });
    expect(iq).toMatchObject({ status: 'answered', value: 5000, sources: [{ quote: 'Standby current: 5mA' }] });
    expect(type).toMatchObject({ status: 'answered', value: 'Fixed' });
    // SOT-23 is no whole word of SOT-223.
    expect(pkg).toMatchObject({ status: 'answered', value: 'SOT-223' });
  });

  it('declines rather than answer from a spec that merely shares a word', async () => {
    const answers = await ask(
      FET,
      ['What is the gate threshold voltage?', { type: 'number', unit: 'V' }],
      ['Total gate charge provided in the datasheet?'],
      ['What is the dropout voltage?', { type: 'number', unit: 'mV' }],
    );
    expect(answers.map((a) => a.status)).toEqual(['not_available', 'not_available', 'not_available']);
    expect(answers.every((a) => a.value === null && a.sources.length === 0)).toBe(true);
    const [dropout, temp] = await ask(LDO, ['dropout voltage', { type: 'number', unit: 'V' }], ['operating temperature', { type: 'number' }]);
    expect(dropout).toMatchObject({ status: 'answered', value: 1.3 });
    // A range is no single number: said, not guessed.
    expect(temp).toMatchObject({ status: 'not_available', explanation: expect.stringContaining('-40℃~+125℃') });
    const [vdss] = await ask(FET, ['Vdss?', { type: 'number', unit: 'mV' }]);
    expect(vdss).toMatchObject({ status: 'answered', value: 30_000 });
  });

  it('answers an enum question no spec name answers from the value a spec or the description holds, citing it', async () => {
    const channel = { type: 'enum' as const, enum_values: ['N-channel', 'P-channel'] };
    const output = { type: 'enum' as const, enum_values: ['Fixed', 'Adjustable'] };
    const nfet = part(4, 'AO3400A', [spec('Drain to source voltage', '30V', 30, 'V'), spec('Type', 'N-Channel')]);
    const pfet = part(5, 'AO3401A', [spec('Number', '1 Piece P-Channel')]);
    const [n, p] = [(await ask(nfet, ['Is it N-channel or P-channel?', channel]))[0], (await ask(pfet, ['N- or P-channel MOSFET?', channel]))[0]];
    expect(n).toMatchObject({ status: 'answered', value: 'N-channel', sources: [{ document: null, quote: 'Type: N-Channel' }] });
    expect(p).toMatchObject({ status: 'answered', value: 'P-channel', sources: [{ quote: 'Number: 1 Piece P-Channel' }] });
    const buck = part(6, 'MP2359', [spec('Output current', '1.2A', 1.2, 'A')], { description: '1.2A 24V step-down converter, adjustable output, SOT-23-6' });
    const [adj] = await ask(buck, ['Is the output voltage fixed or adjustable?', output]);
    expect(adj).toMatchObject({
      status: 'answered',
      value: 'Adjustable',
      explanation: expect.stringContaining('description'),
      sources: [{ document: null, quote: expect.stringContaining('adjustable output') }],
    });
    // Both options in the text, or none: not guessed.
    const both = part(7, 'LM1117', [], { description: 'LDO regulator, fixed or adjustable output versions' });
    const none = part(8, 'X2', [spec('Type', 'Enhancement')]);
    expect((await ask(both, ['Fixed or adjustable?', output]))[0]).toMatchObject({ status: 'not_available' });
    expect((await ask(none, ['N-channel or P-channel?', channel]))[0]).toMatchObject({ status: 'not_available' });
  });

  it('quotes the document sentence that shares most words when no spec answers a text question', async () => {
    const withDoc = part(3, 'X1', [], {
      documents: [
        {
          name: 'X1 datasheet',
          type: 'datasheet',
          url: 'https://example.com/x1.pdf',
          text: 'Intro. The device enters shutdown when EN is low. Thermal shutdown occurs at 165 C.',
        },
      ],
    });
    const [a] = await ask(withDoc, ['What happens when EN is low?', { type: 'text' }]);
    expect(a).toMatchObject({ status: 'answered', value: 'The device enters shutdown when EN is low.', sources: [{ document: 0 }] });
  });
});

describe('local provider: rank', () => {
  it('puts parts meeting the stated constraints first, says which, and spends no tokens', async () => {
    const r10k = part(10, 'R10K', [spec('Resistance', '10kΩ', 10_000, 'Ω'), spec('Tolerance', '±1%')], { package: '0603', stock: 100, min_price_usd: 0.001 });
    const r4k7 = part(11, 'R4K7', [spec('Resistance', '4.7kΩ', 4_700, 'Ω'), spec('Tolerance', '±1%')], { package: '0603', stock: 100, min_price_usd: 0.001 });
    // Retrieval put the 4.7k first; the constraints decide.
    const r = await provider.rank({ requirements: '10k 0603 resistor 1%', candidates: [r4k7, r10k], limit: 2, maxTokens: 0, signal });
    expect(r.picks.map((p) => p.id)).toEqual([10, 11]);
    expect(r.picks[0]!.fit_rationale).toMatch(/^Meets 3 of 3 stated constraints \(10k, ±1%, 0603\)|^Meets 3 of 3 stated constraints/);
    expect(r.picks[1]!.fit_rationale).toMatch(/not shown to meet 10k/);
    expect(r.summary).toMatch(/Top pick: R10K/);
    expect(r.usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(provider.free).toBe(true);
  });
});
