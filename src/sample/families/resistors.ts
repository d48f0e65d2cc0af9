/** Thick film chip resistors: YAGEO RC, UNI-ROYAL, Vishay CRCW and Bourns CR part numbering. */
import type { Candidate, Family } from '../model.ts';
import { E12, E24, opTemp, pct, q, rkmCode, series, si, t } from '../units.ts';

interface Size {
  size: string;
  metric: string;
  power: number;
  maxVoltage: number;
  price: number;
  weight: number;
}

const SIZES: readonly Size[] = [
  { size: '0402', metric: '1005', power: 0.0625, maxVoltage: 50, price: 0.0011, weight: 2 },
  { size: '0603', metric: '1608', power: 0.1, maxVoltage: 75, price: 0.0014, weight: 3 },
  { size: '0805', metric: '2012', power: 0.125, maxVoltage: 150, price: 0.0021, weight: 1.5 },
  { size: '1206', metric: '3216', power: 0.25, maxVoltage: 200, price: 0.0033, weight: 1 },
];

type Tol = 1 | 5;

interface Scheme {
  manufacturer: string;
  series: string;
  seriesOf?: (size: Size, tol: Tol) => string;
  sizes: readonly string[];
  weight: number;
  priceFactor: number;
  mpn(size: Size, ohms: number, tol: Tol): string | undefined;
}

/** UNI-ROYAL value code: 1% "1002" (3 digits + multiplier, "J" = x0.1), 5% "0103". */
function uniRoyalCode(ohms: number, tol: Tol): string {
  if (ohms === 0) return '0000';
  if (tol === 1) {
    if (ohms < 10) return rkmCode(ohms, 3).padEnd(4, '0');
    if (ohms < 100) return `${Math.round(ohms * 10)}J`;
    const exp = Math.floor(Math.log10(ohms) + 1e-9) - 2;
    return `${Math.round(ohms / 10 ** exp)}${exp}`;
  }
  if (ohms < 10) return `0${rkmCode(ohms)}`.padEnd(4, '0');
  const exp = Math.floor(Math.log10(ohms) + 1e-9) - 1;
  return `0${Math.round(ohms / 10 ** exp)}${exp}`;
}

/** Bourns CR code: 1% "1002"/"49R9", 5% "103"/"4R7". */
function bournsCode(ohms: number, tol: Tol): string {
  const digits = tol === 1 ? 3 : 2;
  if (ohms < 10 ** (digits - 1)) return rkmCode(ohms, digits).replace('K', 'R');
  const exp = Math.floor(Math.log10(ohms) + 1e-9) - (digits - 1);
  return `${Math.round(ohms / 10 ** exp)}${exp}`;
}

const UNI_ROYAL_SIZE: Record<string, string> = { '0402': 'WG', '0603': 'WA', '0805': 'W8', '1206': 'W4' };

const SCHEMES: readonly Scheme[] = [
  {
    manufacturer: 'YAGEO',
    series: 'RC',
    sizes: ['0402', '0603', '0805', '1206'],
    weight: 3,
    priceFactor: 1,
    // RC0603FR-0710KL: size, tolerance, paper tape, 7" reel, value, lead-free.
    mpn: (s, r, tol) => (r === 0 && tol === 1 ? undefined : `RC${s.size}${tol === 1 ? 'F' : 'J'}R-07${rkmCode(r)}L`),
  },
  {
    manufacturer: 'UNI-ROYAL',
    series: 'UNI-ROYAL-chip',
    seriesOf: (s, tol) => `${UNI_ROYAL_SIZE[s.size]}${tol === 1 ? 'F' : 'J'}`,
    sizes: ['0402', '0603', '0805', '1206'],
    weight: 3,
    priceFactor: 0.8,
    // 0603WAF1002T5E: size, power code, tolerance, value code, packaging.
    mpn: (s, r, tol) =>
      `${s.size}${UNI_ROYAL_SIZE[s.size]}${tol === 1 ? 'F' : 'J'}${uniRoyalCode(r, tol)}${s.size === '0402' ? 'TCE' : 'T5E'}`,
  },
  {
    manufacturer: 'Vishay',
    series: 'CRCW',
    sizes: ['0402', '0603', '0805', '1206'],
    weight: 1,
    priceFactor: 3,
    // CRCW060310K0FKEA: size, 4-character value, tolerance, TCR, packaging.
    mpn: (s, r, tol) => (r === 0 ? undefined : `CRCW${s.size}${rkmCode(r, 3)}${tol === 1 ? 'FKEA' : 'JNEA'}`),
  },
  {
    manufacturer: 'Bourns',
    series: 'CR',
    sizes: ['0603', '0805', '1206'],
    weight: 0.7,
    priceFactor: 2,
    // CR0603-FX-1002ELF
    mpn: (s, r, tol) => (r === 0 ? undefined : `CR${s.size}-${tol === 1 ? 'FX' : 'JW'}-${bournsCode(r, tol)}ELF`),
  },
];

const VALUES = [0, ...series(E24, 0, 5), 1e6];
const E12_SET = new Set(series(E12, 0, 6));

function popularity(ohms: number): number {
  if ([0, 10, 100, 1e3, 10e3, 100e3].includes(ohms)) return 8;
  if ([4.7e3, 22, 330, 1e6, 47e3, 5.1e3, 2.2e3, 470].includes(ohms)) return 5;
  return E12_SET.has(ohms) ? 2 : 1;
}

function resistor(scheme: Scheme, size: Size, ohms: number, tol: Tol, mpn: string): Candidate {
  const value = si(ohms, 'Ω');
  const tcr = ohms === 0 ? undefined : tol === 1 && ohms >= 10 ? '±100ppm/℃' : '±200ppm/℃';
  const specs = [
    q('Resistance', ohms, 'Ω', value),
    ...(ohms === 0 ? [] : [pct('Tolerance', tol)]),
    q('Power(Watts)', size.power, 'W'),
    ...(tcr ? [t('Temperature Coefficient', tcr)] : []),
    q('Overload Voltage (Max)', size.maxVoltage, 'V'),
    t('Type', 'Thick Film Resistor'),
    opTemp(-55, 155),
    t('Package', size.size),
  ];
  const description =
    ohms === 0
      ? `0Ω Jumper ${si(size.power, 'W')} ${size.size} Thick Film Resistor`
      : `${value} ±${tol}% ${si(size.power, 'W')} ${size.size} Thick Film Resistor`;
  return {
    mpn,
    manufacturer: scheme.manufacturer,
    series: scheme.seriesOf?.(size, tol) ?? scheme.series,
    description,
    longDescription:
      ohms === 0
        ? `Zero-ohm jumper, ${size.size} (${size.metric} metric) thick film chip. Typical uses: optional links, board configuration straps, current measurement points.`
        : `Thick film chip resistor, ${value} ±${tol}%, ${size.size} (${size.metric} metric), ${si(size.power, 'W')}, ${tcr}. Typical uses: pull-ups, voltage dividers, LED current limiting.`,
    package: size.size,
    specs,
    price: size.price * scheme.priceFactor * (tol === 1 ? 1.2 : 1),
    packaging: 'Tape & Reel (TR)',
    pins: 2,
    weight: scheme.weight * size.weight * popularity(ohms) * (tol === 1 ? 2 : 1),
    pinned: mpn === 'RC0603FR-0710KL' || mpn === '0603WAF1002T5E',
    datasheet: `${scheme.series}-series`,
  };
}

export const chipResistors: Family = {
  id: 'chip-resistors',
  category: ['Resistors', 'Chip Resistor - Surface Mount'],
  weight: 860,
  passive: true,
  candidates() {
    const out: Candidate[] = [];
    for (const scheme of SCHEMES) {
      for (const size of SIZES) {
        if (!scheme.sizes.includes(size.size)) continue;
        for (const tol of [1, 5] as const) {
          for (const ohms of VALUES) {
            const mpn = scheme.mpn(size, ohms, tol);
            if (mpn) out.push(resistor(scheme, size, ohms, tol, mpn));
          }
        }
      }
    }
    return out;
  },
};
