/** MLCC (Murata GRM, Samsung CL, YAGEO CC, TDK C, KEMET C), tantalum (KEMET T491, Vishay 293D) and SMD aluminum electrolytics. */
import type { Candidate, Family } from '../model.ts';
import { hash32 } from '../rng.ts';
import { E6, E12, capCode, opTemp, pct, q, scaled, series, si, t } from '../units.ts';

// ---------------------------------------------------------------- MLCC

type Dielectric = 'C0G' | 'X7R' | 'X5R';
type McSize = '0402' | '0603' | '0805' | '1206';

/** Largest capacitance x voltage product a case offers per dielectric (F*V). */
const CV_LIMIT: Record<McSize, Record<Dielectric, number>> = {
  '0402': { C0G: 1e-7, X7R: 1.6e-6, X5R: 3e-5 },
  '0603': { C0G: 1e-7, X7R: 1.6e-5, X5R: 1.4e-4 },
  '0805': { C0G: 1e-7, X7R: 8e-5, X5R: 3e-4 },
  '1206': { C0G: 1e-7, X7R: 2.5e-4, X5R: 6.3e-4 },
};

const VOLTAGES: Record<Dielectric, readonly number[]> = {
  C0G: [50, 100],
  X7R: [16, 25, 50, 100],
  X5R: [6.3, 10, 16, 25, 50],
};

const VALUES: Record<Dielectric, readonly number[]> = {
  C0G: [...series(E12, -11, -10), 1e-9],
  X7R: [...series(E6, -9, -7), 1e-6, 2.2e-6, 4.7e-6, 10e-6],
  X5R: [1e-6, 2.2e-6, 4.7e-6, 10e-6, 22e-6, 47e-6],
};

const SIZE_PRICE: Record<McSize, number> = { '0402': 0.0011, '0603': 0.0018, '0805': 0.0035, '1206': 0.009 };
const SIZE_WEIGHT: Record<McSize, number> = { '0402': 2.5, '0603': 3, '0805': 1.5, '1206': 0.8 };

function plausible(size: McSize, d: Dielectric, farads: number, volts: number): boolean {
  if (farads * volts > CV_LIMIT[size][d] * 1.0001) return false;
  if (d === 'X7R' && farads <= 10e-9 && volts < 50) return false;
  if (d === 'X7R' && farads <= 100e-9 && volts < 16) return false;
  if (d === 'X5R' && farads <= 2.2e-6 && volts < 10 && size !== '0402') return false;
  if (d === 'C0G' && volts === 100 && size === '0402') return false;
  return true;
}

function tolerance(d: Dielectric, farads: number): 5 | 10 | 20 {
  if (d === 'C0G') return 5;
  return farads >= 22e-6 ? 20 : 10;
}

const TOL_LETTER = { 5: 'J', 10: 'K', 20: 'M' } as const;
const V_MURATA: Record<number, string> = { 6.3: '0J', 10: '1A', 16: '1C', 25: '1E', 50: '1H', 100: '2A' };

interface McScheme {
  manufacturer: string;
  series: string;
  weight: number;
  priceFactor: number;
  mpn(size: McSize, d: Dielectric, farads: number, volts: number, tol: 5 | 10 | 20): string;
}

/** Thick (high C*V) parts use taller cases and plastic tape. */
const isBig = (farads: number, volts: number) => farads * volts >= 2e-5;
/** Embossed (plastic) tape only for thick 0805/1206 parts; 0402/0603 ship on paper tape. */
const embossed = (size: McSize, farads: number, volts: number) => (size === '0805' || size === '1206') && isBig(farads, volts);

/** Murata's two-digit "individual specification" codes; a few well-known parts keep their real code. */
const MURATA_CODES = ['01', '88', '93', '12', '73', '47', '57', '69', '87'];
const MURATA_KNOWN: Record<string, string> = {
  '0603 X7R 1e-7 50': '93',
  '0402 X7R 1e-7 16': '88',
  '0805 X5R 0.00001 25': '73',
  '0603 X5R 0.00001 10': '69',
};

const MLCC_SCHEMES: readonly McScheme[] = [
  {
    manufacturer: 'Murata',
    series: 'GRM',
    weight: 3,
    priceFactor: 1.3,
    // GRM188R71H104KA93D: size, thickness, dielectric, voltage, value, tolerance, specific code, packaging.
    mpn(size, d, f, v, tol) {
      const big = isBig(f, v);
      const sz = { '0402': '15', '0603': '18', '0805': '21', '1206': '31' }[size];
      const th = { '0402': '5', '0603': '8', '0805': big ? 'B' : '9', '1206': big ? 'R' : 'M' }[size];
      const diel = { C0G: '5C', X7R: 'R7', X5R: 'R6' }[d];
      const spec = d === 'C0G' ? '01' : (MURATA_KNOWN[`${size} ${d} ${f} ${v}`] ?? MURATA_CODES[hash32(`${size}${d}${f}${v}`) % MURATA_CODES.length]);
      return `GRM${sz}${th}${diel}${V_MURATA[v]}${capCode(f)}${TOL_LETTER[tol]}A${spec}${embossed(size, f, v) ? 'L' : 'D'}`;
    },
  },
  {
    manufacturer: 'Samsung Electro-Mechanics',
    series: 'CL',
    weight: 3,
    priceFactor: 1,
    // CL10B104KB8NNNC: size, dielectric, value, tolerance, voltage, thickness, NNN, reel.
    mpn(size, d, f, v, tol) {
      const big = isBig(f, v);
      const sz = { '0402': '05', '0603': '10', '0805': '21', '1206': '31' }[size];
      const th = { '0402': '5', '0603': '8', '0805': big ? 'F' : 'C', '1206': big ? 'H' : 'F' }[size];
      const diel = { C0G: 'C', X7R: 'B', X5R: 'A' }[d];
      const volt = { 6.3: 'Q', 10: 'P', 16: 'O', 25: 'A', 50: 'B', 100: 'C' }[v as 6.3];
      return `CL${sz}${diel}${capCode(f)}${TOL_LETTER[tol]}${volt}${th}NNN${embossed(size, f, v) ? 'E' : 'C'}`;
    },
  },
  {
    manufacturer: 'YAGEO',
    series: 'CC',
    weight: 2.5,
    priceFactor: 0.9,
    // CC0603KRX7R9BB104: size, tolerance, reel, dielectric, voltage, BB/BN, value.
    mpn(size, d, f, v, tol) {
      const volt = { 6.3: '5', 10: '6', 16: '7', 25: '8', 50: '9', 100: '0' }[v as 6.3];
      const diel = d === 'C0G' ? 'NPO' : d;
      return `CC${size}${TOL_LETTER[tol]}R${diel}${volt}${d === 'C0G' ? 'BN' : 'BB'}${capCode(f)}`;
    },
  },
  {
    manufacturer: 'TDK',
    series: 'C',
    weight: 1.5,
    priceFactor: 1.4,
    // C1608X7R1H104K080AA: metric size, dielectric, voltage, value, tolerance, thickness, packaging.
    mpn(size, d, f, v, tol) {
      const big = isBig(f, v);
      const metric = { '0402': '1005', '0603': '1608', '0805': '2012', '1206': '3216' }[size];
      const th = { '0402': '050', '0603': '080', '0805': big ? '125' : '085', '1206': big ? '160' : '115' }[size];
      return `C${metric}${d}${V_MURATA[v]}${capCode(f)}${TOL_LETTER[tol]}${th}A${big ? 'C' : 'A'}`;
    },
  },
  {
    manufacturer: 'KEMET',
    series: 'C0G/X7R/X5R SMD',
    weight: 1,
    priceFactor: 1.6,
    // C0603C104K5RACTU: size, C, value, tolerance, voltage, dielectric, AC, TU.
    mpn(size, d, f, v, tol) {
      const volt = { 6.3: '9', 10: '8', 16: '4', 25: '3', 50: '5', 100: '1' }[v as 6.3];
      const diel = { C0G: 'G', X7R: 'R', X5R: 'P' }[d];
      return `C${size}C${capCode(f)}${TOL_LETTER[tol]}${volt}${diel}ACTU`;
    },
  },
];

function capPopularity(f: number): number {
  const key = f.toExponential(2);
  const map: Record<string, number> = {
    '1.00e-7': 10, '1.00e-5': 6, '1.00e-6': 6, '4.70e-6': 3, '1.00e-8': 4, '2.20e-11': 3,
    '1.00e-10': 3, '1.00e-9': 3, '2.20e-5': 2, '4.70e-7': 2, '2.20e-6': 2,
  };
  return map[key] ?? 1;
}

function mlcc(scheme: McScheme, size: McSize, d: Dielectric, f: number, v: number): Candidate {
  const tol = tolerance(d, f);
  const mpn = scheme.mpn(size, d, f, v, tol);
  const cap = si(f, 'F');
  const temp = d === 'X5R' ? opTemp(-55, 85) : opTemp(-55, 125);
  const fill = (f * v) / CV_LIMIT[size][d];
  return {
    mpn,
    manufacturer: scheme.manufacturer,
    series: scheme.series,
    description: `${cap} ±${tol}% ${si(v, 'V')} ${d} ${size} Multilayer Ceramic Capacitors MLCC - SMD/SMT`,
    longDescription:
      d === 'C0G'
        ? `${cap} ${si(v, 'V')} C0G (NP0) ceramic chip capacitor, ${size}. Stable over temperature and voltage; typical uses: crystal load capacitors, RF matching, timing.`
        : `${cap} ${si(v, 'V')} ${d} multilayer ceramic chip capacitor, ${size}, ±${tol}%. Typical uses: supply decoupling and bypass${f >= 1e-6 ? ', regulator input/output capacitors' : ''}. Expect DC-bias capacitance loss near rated voltage.`,
    package: size,
    specs: [
      q('Capacitance', f, 'F', cap),
      pct('Tolerance', tol),
      q('Voltage Rated', v, 'V'),
      t('Temperature Coefficient', d),
      temp,
      t('Package', size),
    ],
    price: SIZE_PRICE[size] * scheme.priceFactor * (1 + 6 * fill * fill),
    packaging: 'Tape & Reel (TR)',
    pins: 2,
    weight: scheme.weight * SIZE_WEIGHT[size] * capPopularity(f) * (v === 50 || v === 16 || v === 25 ? 1.5 : 1),
    pinned: mpn === 'GRM188R71H104KA93D' || mpn === 'CL10B104KB8NNNC',
    datasheet: `${scheme.series}-${d}`,
  };
}

export const mlccCapacitors: Family = {
  id: 'mlcc',
  category: ['Capacitors', 'Multilayer Ceramic Capacitors MLCC - SMD/SMT'],
  weight: 620,
  passive: true,
  candidates() {
    const out: Candidate[] = [];
    for (const scheme of MLCC_SCHEMES) {
      for (const size of ['0402', '0603', '0805', '1206'] as const) {
        for (const d of ['C0G', 'X7R', 'X5R'] as const) {
          for (const f of VALUES[d]) {
            for (const v of VOLTAGES[d]) if (plausible(size, d, f, v)) out.push(mlcc(scheme, size, d, f, v));
          }
        }
      }
    }
    return out;
  },
};

// ---------------------------------------------------------------- Tantalum

const TANT_CASES = [
  { code: 'A', pkg: 'CASE-A-3216-18(mm)', minCV: 3, maxCV: 160, esr: 3, price: 0.05 },
  { code: 'B', pkg: 'CASE-B-3528-21(mm)', minCV: 40, maxCV: 500, esr: 2, price: 0.08 },
  { code: 'C', pkg: 'CASE-C-6032-28(mm)', minCV: 150, maxCV: 1100, esr: 1.2, price: 0.16 },
  { code: 'D', pkg: 'CASE-D-7343-31(mm)', minCV: 500, maxCV: 3500, esr: 0.8, price: 0.3 },
] as const;

const TANT_UF = [1, 2.2, 4.7, 10, 22, 47, 100, 220, 330];
const TANT_V = [6.3, 10, 16, 20, 25, 35];

export const tantalumCapacitors: Family = {
  id: 'tantalum',
  category: ['Capacitors', 'Tantalum Capacitors'],
  weight: 60,
  passive: true,
  candidates() {
    const out: Candidate[] = [];
    for (const uf of TANT_UF) {
      for (const v of TANT_V) {
        const cv = uf * v;
        const cs = TANT_CASES.find((c) => cv >= c.minCV && cv <= c.maxCV);
        if (!cs) continue;
        const f = scaled(uf, -6);
        const v3 = String(Math.floor(v)).padStart(3, '0');
        const esr = Math.max(0.1, parseFloat((cs.esr * Math.sqrt(10 / uf)).toPrecision(2)));
        for (const tol of [10, 20] as const) {
          const makers = [
            { manufacturer: 'KEMET', series: 'T491', mpn: `T491${cs.code}${capCode(f)}${tol === 10 ? 'K' : 'M'}${v3}AT` },
            { manufacturer: 'Vishay', series: '293D', mpn: `293D${capCode(f)}${tol === 10 ? 'X9' : 'X0'}${v3}${cs.code}2TE3` },
          ];
          for (const mk of makers) {
            out.push({
              mpn: mk.mpn,
              manufacturer: mk.manufacturer,
              series: mk.series,
              description: `${si(f, 'F')} ±${tol}% ${si(v, 'V')} ${si(esr, 'Ω')}@100kHz ${cs.pkg} Tantalum Capacitors`,
              longDescription: `Solid tantalum chip capacitor ${si(f, 'F')} ${si(v, 'V')}, molded case ${cs.code} (EIA ${cs.pkg.slice(7, 14)}). Derate to 50% of rated voltage in low-impedance circuits.`,
              package: cs.pkg,
              specs: [
                q('Capacitance', f, 'F'),
                pct('Tolerance', tol),
                q('Voltage Rated', v, 'V'),
                q('Equivalent Series Resistance (ESR)', esr, 'Ω'),
                opTemp(-55, 125),
                t('Package', cs.pkg),
              ],
              price: cs.price * (mk.manufacturer === 'Vishay' ? 1.2 : 1),
              packaging: 'Tape & Reel (TR)',
              pins: 2,
              weight: (uf === 10 || uf === 22 || uf === 100 ? 3 : 1) * (tol === 10 ? 2 : 1),
              datasheet: mk.series,
            });
          }
        }
      }
    }
    return out;
  },
};

// ---------------------------------------------------------------- Aluminum electrolytic (SMD)

const ALU_CASES = [
  { d: 4, l: 5.4, maxCV: 160, nichicon: 'CR1GS', price: 0.03 },
  { d: 5, l: 5.4, maxCV: 400, nichicon: 'CS1GS', price: 0.04 },
  { d: 6.3, l: 5.4, maxCV: 1600, nichicon: 'CL1GS', price: 0.05 },
  { d: 6.3, l: 7.7, maxCV: 3300, nichicon: 'CL6GS', price: 0.07 },
  { d: 8, l: 10.2, maxCV: 8000, nichicon: 'CJ6GS', price: 0.12 },
  { d: 10, l: 10.2, maxCV: 16500, nichicon: 'CN6GS', price: 0.18 },
] as const;

const ALU_UF = [1, 2.2, 4.7, 10, 22, 33, 47, 100, 220, 330, 470, 1000];
const ALU_V = [6.3, 10, 16, 25, 35, 50];
const NICHICON_V: Record<number, string> = { 6.3: '0J', 10: '1A', 16: '1C', 25: '1E', 35: '1V', 50: '1H' };

/** Nichicon capacitance code in uF: 100 -> "101", 4.7 -> "4R7". */
function ufCode(uf: number): string {
  return capCode(scaled(uf, -12));
}

export const aluminumCapacitors: Family = {
  id: 'aluminum-smd',
  category: ['Capacitors', 'Aluminum Electrolytic Capacitors - SMD'],
  weight: 75,
  passive: true,
  candidates() {
    const out: Candidate[] = [];
    ALU_V.forEach((v, vi) => {
      ALU_UF.forEach((uf, ci) => {
        const cs = ALU_CASES.find((c) => uf * v <= c.maxCV);
        if (!cs || uf * v < 8) return;
        const f = scaled(uf, -6);
        const pkg = `SMD,D${cs.d}xL${cs.l}mm`;
        const ripple = Math.round(20 * cs.d * Math.sqrt(cs.l) * (1 + uf / 1000)) / 1000;
        const specs = [
          q('Capacitance', f, 'F'),
          pct('Tolerance', 20),
          q('Voltage Rated', v, 'V'),
          q('Ripple Current', ripple, 'A'),
          t('Lifetime', '2000hrs@105℃'),
          opTemp(-55, 105),
          q('Diameter', cs.d / 1000, 'm', `${cs.d}mm`),
          q('Height', cs.l / 1000, 'm', `${cs.l}mm`),
          t('Package', pkg),
        ];
        const base = {
          description: `${si(f, 'F')} ±20% ${si(v, 'V')} 2000hrs@105℃ ${pkg} Aluminum Electrolytic Capacitors - SMD`,
          longDescription: `Surface-mount aluminum electrolytic capacitor ${si(f, 'F')} ${si(v, 'V')}, ${cs.d}x${cs.l}mm can, 105℃ 2000 h. Typical uses: bulk input capacitance, audio coupling.`,
          package: pkg,
          specs,
          packaging: 'Tape & Reel (TR)',
          pins: 2,
          weight: uf === 100 || uf === 10 || uf === 47 ? 3 : 1,
        };
        out.push({
          ...base,
          mpn: `UWT${NICHICON_V[v]}${ufCode(uf)}M${cs.nichicon}`,
          manufacturer: 'Nichicon',
          series: 'UWT',
          price: cs.price,
          datasheet: 'UWT',
        });
        out.push({
          ...base,
          mpn: `8650${80 + vi}${ALU_CASES.indexOf(cs) + 1}${String(ci).padStart(2, '0')}0${12 + vi}`,
          manufacturer: 'Würth Elektronik',
          series: 'WCAP-ASLI',
          price: cs.price * 1.4,
          datasheet: 'WCAP-ASLI',
        });
      });
    });
    return out;
  },
};
