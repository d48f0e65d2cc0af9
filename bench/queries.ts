/** The natural-language queries the search benches time agentic search with (bench/search.ts, bench/agentic-ab.ts). */
export const AGENTIC_QUERIES: readonly string[] = [
  '10k 0603 1% resistor',
  '100nF 50V X7R 0603',
  '3.3V LDO SOT-23-5',
  'dual op amp',
  'n-channel mosfet sot-23',
  '16MHz crystal',
  'usb to uart bridge',
  'schottky diode 40V',
  'red led 0603',
  '4u7 16V',
];
