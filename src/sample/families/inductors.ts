/** Power inductors (TDK VLS, Bourns SRN/SRR, Murata DFE, Würth WE-LQS) and chip ferrite beads (Murata BLM, TDK MPZ/MMZ). */
import type { Candidate, Family } from '../model.ts';
import { code3, inductorCode, pct, q, scaled, si, t } from '../units.ts';

interface InductorSize {
  manufacturer: string;
  series: string;
  /** Footprint as catalogues write it. */
  pkg: string;
  shielding: string;
  /** Rated current at 1uH (A); falls with sqrt(L). */
  k: number;
  /** DC resistance per uH (ohms). */
  dcrPerUh: number;
  maxUh: number;
  minUh?: number;
  price: number;
  mpn(uh: number): string;
}

/** Würth WE-LQS value code: 2.2uH -> "022", 10uH -> "100", 100uH -> "101". */
const wurthCode = (uh: number) => (uh < 10 ? String(Math.round(uh * 10)).padStart(3, '0') : code3(uh));
const h = (uh: number) => scaled(uh, -6);

const SIZES: readonly InductorSize[] = [
  { manufacturer: 'TDK', series: 'VLS-E', pkg: 'SMD,2x2mm', shielding: 'Semi-shielded', k: 1.6, dcrPerUh: 0.045, maxUh: 22, price: 0.09, mpn: (uh) => `VLS2012ET-${inductorCode(h(uh))}M` },
  { manufacturer: 'TDK', series: 'VLS-E', pkg: 'SMD,3x3mm', shielding: 'Semi-shielded', k: 2.5, dcrPerUh: 0.025, maxUh: 47, price: 0.1, mpn: (uh) => `VLS3015ET-${inductorCode(h(uh))}M` },
  { manufacturer: 'TDK', series: 'VLS-E', pkg: 'SMD,4x4mm', shielding: 'Semi-shielded', k: 2.8, dcrPerUh: 0.02, maxUh: 47, price: 0.12, mpn: (uh) => `VLS4012ET-${inductorCode(h(uh))}M` },
  { manufacturer: 'TDK', series: 'VLS-E', pkg: 'SMD,6x6mm', shielding: 'Semi-shielded', k: 6.5, dcrPerUh: 0.008, maxUh: 100, price: 0.18, mpn: (uh) => `VLS6045EX-${inductorCode(h(uh))}M` },
  { manufacturer: 'Bourns', series: 'SRN3015', pkg: 'SMD,3x3mm', shielding: 'Semi-shielded', k: 2.2, dcrPerUh: 0.03, maxUh: 47, price: 0.11, mpn: (uh) => `SRN3015-${inductorCode(h(uh))}M` },
  { manufacturer: 'Bourns', series: 'SRN4018', pkg: 'SMD,4x4mm', shielding: 'Semi-shielded', k: 3.5, dcrPerUh: 0.018, maxUh: 100, price: 0.13, mpn: (uh) => `SRN4018-${inductorCode(h(uh))}M` },
  { manufacturer: 'Bourns', series: 'SRN6045TA', pkg: 'SMD,6x6mm', shielding: 'Semi-shielded', k: 6.5, dcrPerUh: 0.008, maxUh: 100, price: 0.2, mpn: (uh) => `SRN6045TA-${inductorCode(h(uh))}M` },
  { manufacturer: 'Bourns', series: 'SRR1260', pkg: 'SMD,12x12mm', shielding: 'Shielded', k: 12, dcrPerUh: 0.003, maxUh: 470, minUh: 1, price: 0.45, mpn: (uh) => `SRR1260-${inductorCode(h(uh))}M` },
  { manufacturer: 'Murata', series: 'DFE201610E', pkg: '0806', shielding: 'Shielded', k: 2.6, dcrPerUh: 0.06, maxUh: 4.7, price: 0.14, mpn: (uh) => `DFE201610E-${inductorCode(h(uh))}M=P2` },
  { manufacturer: 'Murata', series: 'DFE252012F', pkg: '1008', shielding: 'Shielded', k: 3.2, dcrPerUh: 0.045, maxUh: 10, price: 0.16, mpn: (uh) => `DFE252012F-${inductorCode(h(uh))}M=P2` },
  { manufacturer: 'Würth Elektronik', series: 'WE-LQS', pkg: 'SMD,3x3mm', shielding: 'Semi-shielded', k: 2.3, dcrPerUh: 0.028, maxUh: 47, minUh: 1, price: 0.22, mpn: (uh) => `74404032${wurthCode(uh)}` },
  { manufacturer: 'Würth Elektronik', series: 'WE-LQS', pkg: 'SMD,4x4mm', shielding: 'Semi-shielded', k: 3.4, dcrPerUh: 0.019, maxUh: 100, minUh: 1, price: 0.26, mpn: (uh) => `74404042${wurthCode(uh)}` },
  { manufacturer: 'Würth Elektronik', series: 'WE-LQS', pkg: 'SMD,5x5mm', shielding: 'Semi-shielded', k: 5, dcrPerUh: 0.011, maxUh: 100, minUh: 1, price: 0.3, mpn: (uh) => `74404054${wurthCode(uh)}` },
];

const VALUES_UH = [0.47, 1, 1.5, 2.2, 3.3, 4.7, 6.8, 10, 15, 22, 33, 47, 68, 100, 220, 470];

const sig2 = (n: number) => parseFloat(n.toPrecision(2));

function powerInductor(s: InductorSize, uh: number): Candidate {
  const rated = sig2(s.k / Math.sqrt(uh));
  const isat = sig2(rated * 1.3);
  const dcr = sig2(Math.max(0.004, s.dcrPerUh * uh * (uh < 1 ? 1.5 : 1)));
  const tol = uh < 1 ? 30 : 20;
  const L = si(h(uh), 'H');
  return {
    mpn: s.mpn(uh),
    manufacturer: s.manufacturer,
    series: s.series,
    description: `${L} ±${tol}% ${si(rated, 'A')} ${si(dcr, 'Ω')} ${s.pkg} Power Inductors`,
    longDescription: `${s.shielding} wire-wound power inductor, ${L} ±${tol}%, rated ${si(rated, 'A')} (saturation ${si(isat, 'A')}), DCR ${si(dcr, 'Ω')}, ${s.pkg.replace('SMD,', '')} footprint. Typical uses: buck and boost converter output filters.`,
    package: s.pkg,
    specs: [
      q('Inductance', h(uh), 'H', L),
      pct('Tolerance', tol),
      q('Current Rating', rated, 'A'),
      q('Saturation Current (Isat)', isat, 'A'),
      q('DC Resistance (DCR)', dcr, 'Ω'),
      t('Shielding', s.shielding),
      t('Package', s.pkg),
    ],
    price: s.price * (1 + uh / 400),
    packaging: 'Tape & Reel (TR)',
    pins: 2,
    weight: [2.2, 4.7, 10].includes(uh) ? 3 : 1,
    datasheet: s.series,
  };
}

export const powerInductors: Family = {
  id: 'power-inductors',
  category: ['Inductors/Coils/Transformers', 'Power Inductors'],
  weight: 110,
  passive: true,
  candidates() {
    const out: Candidate[] = [];
    for (const s of SIZES) for (const uh of VALUES_UH) if (uh <= s.maxUh && uh >= (s.minUh ?? 0)) out.push(powerInductor(s, uh));
    return out;
  },
};

// ---------------------------------------------------------------- Ferrite beads

interface BeadSeries {
  manufacturer: string;
  series: string;
  size: string;
  /** Current rating (A) at 100 ohms; falls with sqrt(Z). */
  k: number;
  impedances: readonly number[];
  price: number;
  mpn(z: number): string;
}

const BEADS: readonly BeadSeries[] = [
  { manufacturer: 'Murata', series: 'BLM15AG', size: '0402', k: 0.7, impedances: [100, 220, 600, 1000], price: 0.006, mpn: (z) => `BLM15AG${code3(z)}SN1D` },
  { manufacturer: 'Murata', series: 'BLM15PX', size: '0402', k: 2.5, impedances: [30, 60, 120, 220, 330, 600], price: 0.01, mpn: (z) => `BLM15PX${code3(z)}SN1D` },
  { manufacturer: 'Murata', series: 'BLM18AG', size: '0603', k: 0.9, impedances: [120, 220, 470, 600, 1000], price: 0.007, mpn: (z) => `BLM18AG${code3(z)}SN1D` },
  { manufacturer: 'Murata', series: 'BLM18PG', size: '0603', k: 2.6, impedances: [30, 60, 120, 220, 330, 470], price: 0.012, mpn: (z) => `BLM18PG${code3(z)}SN1D` },
  { manufacturer: 'Murata', series: 'BLM18KG', size: '0603', k: 3.5, impedances: [26, 60, 120, 220, 330, 600], price: 0.015, mpn: (z) => `BLM18KG${code3(z)}SN1D` },
  { manufacturer: 'Murata', series: 'BLM21PG', size: '0805', k: 4, impedances: [60, 120, 220, 330, 600], price: 0.02, mpn: (z) => `BLM21PG${code3(z)}SN1D` },
  { manufacturer: 'Murata', series: 'BLM31PG', size: '1206', k: 5, impedances: [60, 120, 330, 600], price: 0.03, mpn: (z) => `BLM31PG${code3(z)}SN1L` },
  { manufacturer: 'TDK', series: 'MPZ1608', size: '0603', k: 3, impedances: [33, 60, 120, 220, 470, 600, 1000], price: 0.012, mpn: (z) => `MPZ1608S${code3(z)}ATA00` },
  { manufacturer: 'TDK', series: 'MMZ1608', size: '0603', k: 1, impedances: [120, 220, 470, 600, 1000, 2200], price: 0.008, mpn: (z) => `MMZ1608B${code3(z)}CTAH0` },
  { manufacturer: 'TDK', series: 'MMZ1005', size: '0402', k: 0.6, impedances: [120, 220, 600, 1000], price: 0.007, mpn: (z) => `MMZ1005B${code3(z)}CTD25` },
];

export const ferriteBeads: Family = {
  id: 'ferrite-beads',
  category: ['Inductors/Coils/Transformers', 'Ferrite Beads'],
  weight: 45,
  passive: true,
  candidates() {
    const out: Candidate[] = [];
    for (const b of BEADS) {
      for (const z of b.impedances) {
        const current = sig2(Math.min(6, b.k * Math.sqrt(100 / z)));
        const dcr = sig2(0.02 + (0.04 * z) / (b.k * 100));
        const Z = si(z, 'Ω');
        out.push({
          mpn: b.mpn(z),
          manufacturer: b.manufacturer,
          series: b.series,
          description: `${Z}@100MHz ${si(current, 'A')} ${si(dcr, 'Ω')} ${b.size} Ferrite Beads`,
          longDescription: `Chip ferrite bead, ${Z} at 100 MHz, ${si(current, 'A')} rated current, ${b.size}. Typical uses: supply rail filtering, USB and clock line EMI suppression.`,
          package: b.size,
          specs: [
            q('Impedance @ Frequency', z, 'Ω', `${Z}@100MHz`),
            q('Current Rating', current, 'A'),
            q('DC Resistance (DCR)', dcr, 'Ω'),
            t('Number of Lines', '1'),
            t('Package', b.size),
          ],
          price: b.price,
          packaging: 'Tape & Reel (TR)',
          pins: 2,
          weight: z === 600 || z === 220 || z === 120 ? 3 : 1,
          datasheet: b.series,
        });
      }
    }
    return out;
  },
};
