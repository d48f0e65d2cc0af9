/**
 * Query understanding speed: mean time per query over a set of typical natural-language queries
 * (goal: well under 0.2 ms). `npx tsx bench/understand.ts`
 */
import { understandQuery } from '../src/search/understand.ts';

const QUERIES = [
  '10k 0603 1% resistor',
  '100nF 50V X7R',
  '3.3V LDO SOT-23-5',
  '4u7 16V',
  '2.2uH inductor 1A',
  '16MHz crystal',
  '30V 5A N-channel MOSFET SOT-23',
  'dual op amp rail to rail',
  'usb to uart bridge',
  'red led 0603',
  'schottky diode 40V 1A',
  'low dropout regulator 5V to 3.3V 500mA',
  'STM32F103C8T6',
  'esd protection usb',
  '470k HV',
  'buck converter 12V to 5V 2A',
];
for (let i = 0; i < 2000; i++) understandQuery(QUERIES[i % QUERIES.length]!);
const n = 50_000;
const t0 = performance.now();
for (let i = 0; i < n; i++) understandQuery(QUERIES[i % QUERIES.length]!);
const ms = (performance.now() - t0) / n;
console.log(`understandQuery: ${(ms * 1000).toFixed(1)} µs per query over ${n} queries (goal < 200 µs)`);
