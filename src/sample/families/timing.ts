/** Quartz crystals (Abracon ABM/ABS, Epson TSX/FA/FC), clock oscillators (Abracon ASE/ASFL1, Epson SG) and 555 timers. */
import type { Candidate, Family } from '../model.ts';
import { opTemp, pinsOf, q, si, t, vRange } from '../units.ts';

const MHZ = [8, 10, 12, 16, 20, 24, 25, 26, 27, 32, 40, 48];

interface CrystalLine {
  manufacturer: string;
  series: string;
  pkg: string;
  minMHz: number;
  loads: readonly { pf: number; tol: number; stab: number; code: string }[];
  price: number;
  mpn(mhz: number, code: string): string;
}

const CRYSTALS: readonly CrystalLine[] = [
  {
    manufacturer: 'Abracon', series: 'ABM8', pkg: 'SMD3225-4P', minMHz: 10, price: 0.32,
    loads: [{ pf: 18, tol: 20, stab: 20, code: 'B2' }, { pf: 10, tol: 10, stab: 10, code: '10-1-U' }],
    mpn: (f, code) => `ABM8-${f.toFixed(3)}MHZ-${code}-T`,
  },
  {
    manufacturer: 'Abracon', series: 'ABM3', pkg: 'SMD5032-2P', minMHz: 8, price: 0.38,
    loads: [{ pf: 18, tol: 20, stab: 50, code: 'D2Y' }],
    mpn: (f, code) => `ABM3-${f.toFixed(3)}MHZ-${code}-T`,
  },
  {
    manufacturer: 'Epson', series: 'TSX-3225', pkg: 'SMD3225-4P', minMHz: 12, price: 0.28,
    loads: [{ pf: 9, tol: 10, stab: 15, code: '09Z' }, { pf: 18, tol: 10, stab: 15, code: '18X' }],
    mpn: (f, code) => `TSX-3225 ${f.toFixed(4)}MF${code}-AC3`,
  },
  {
    manufacturer: 'Epson', series: 'FA-128', pkg: 'SMD2016-4P', minMHz: 16, price: 0.35,
    loads: [{ pf: 10, tol: 10, stab: 15, code: '10Z' }],
    mpn: (f, code) => `FA-128 ${f.toFixed(4)}MF${code}-AJ3`,
  },
];

function crystal(line: CrystalLine, mhz: number, load: CrystalLine['loads'][number]): Candidate {
  const hz = mhz * 1e6;
  const esr = mhz < 12 ? 80 : mhz < 24 ? 60 : 40;
  const freq = si(hz, 'Hz');
  return {
    mpn: line.mpn(mhz, load.code),
    manufacturer: line.manufacturer,
    series: line.series,
    description: `${freq} ${load.pf}pF ±${load.tol}ppm ±${load.stab}ppm ${line.pkg} Crystals`,
    longDescription: `${freq} fundamental-mode quartz crystal, ${load.pf}pF load, ±${load.tol}ppm at 25℃, ${line.pkg} package. Typical uses: MCU and USB/Ethernet PHY reference clocks.`,
    package: line.pkg,
    specs: [
      q('Frequency', hz, 'Hz'),
      q('Load Capacitance', load.pf * 1e-12, 'F'),
      q('Frequency Tolerance', load.tol, 'ppm', `±${load.tol}ppm`),
      q('Frequency Stability', load.stab, 'ppm', `±${load.stab}ppm`),
      q('Equivalent Series Resistance (ESR)', esr, 'Ω'),
      opTemp(-40, 85),
      t('Package', line.pkg),
    ],
    price: line.price * (mhz >= 40 ? 1.2 : 1),
    packaging: 'Tape & Reel (TR)',
    pins: pinsOf(line.pkg),
    weight: [8, 12, 16, 25].includes(mhz) ? 3 : 1,
    pinned: line.series === 'ABM8' && mhz === 16 && load.code === 'B2',
    datasheet: line.series,
  };
}

/** 32.768kHz tuning-fork crystals for RTCs. */
const WATCH_CRYSTALS = [
  { manufacturer: 'Abracon', series: 'ABS07', mpn: 'ABS07-32.768KHZ-T', pkg: 'SMD3215-2P', pf: 12.5 },
  { manufacturer: 'Abracon', series: 'ABS07', mpn: 'ABS07-32.768KHZ-7-T', pkg: 'SMD3215-2P', pf: 7 },
  { manufacturer: 'Abracon', series: 'ABS06', mpn: 'ABS06-32.768KHZ-T', pkg: 'SMD2012-2P', pf: 12.5 },
  { manufacturer: 'Epson', series: 'FC-135', mpn: 'FC-135 32.7680KA-AC3', pkg: 'SMD3215-2P', pf: 12.5 },
  { manufacturer: 'Epson', series: 'FC-135', mpn: 'FC-135 32.7680KA-A3', pkg: 'SMD3215-2P', pf: 12.5, status: 'nrnd' },
  { manufacturer: 'Epson', series: 'FC-12M', mpn: 'FC-12M 32.7680KA-A3', pkg: 'SMD2012-2P', pf: 9 },
];

export const crystals: Family = {
  id: 'crystals',
  category: ['Crystals, Oscillators, Resonators', 'Crystals'],
  weight: 55,
  passive: false,
  candidates() {
    const out: Candidate[] = [];
    for (const line of CRYSTALS) for (const mhz of MHZ) if (mhz >= line.minMHz) for (const load of line.loads) out.push(crystal(line, mhz, load));
    for (const w of WATCH_CRYSTALS) {
      out.push({
        mpn: w.mpn,
        manufacturer: w.manufacturer,
        series: w.series,
        description: `32.768kHz ${w.pf}pF ±20ppm ${w.pkg} Crystals`,
        longDescription: `32.768 kHz tuning-fork crystal, ${w.pf}pF load, ±20ppm. Typical uses: real-time clocks and low-power MCU sleep timers.`,
        package: w.pkg,
        specs: [
          q('Frequency', 32768, 'Hz'),
          q('Load Capacitance', w.pf * 1e-12, 'F'),
          q('Frequency Tolerance', 20, 'ppm', '±20ppm'),
          q('Equivalent Series Resistance (ESR)', 70000, 'Ω'),
          opTemp(-40, 85),
          t('Package', w.pkg),
        ],
        price: 0.3,
        packaging: 'Tape & Reel (TR)',
        pins: 2,
        weight: 3,
        ...(w.status ? { status: w.status } : {}),
        datasheet: w.series,
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- Oscillators

const OSCILLATORS = [
  { manufacturer: 'Abracon', series: 'ASE', pkg: 'SMD3225-4P', supply: [3.3, 3.3], current: 0.007, price: 0.9, mpn: (f: number) => `ASE-${f.toFixed(3)}MHZ-LC-T` },
  { manufacturer: 'Abracon', series: 'ASFL1', pkg: 'SMD5032-4P', supply: [3.3, 3.3], current: 0.012, price: 0.85, mpn: (f: number) => `ASFL1-${f.toFixed(3)}MHZ-EC-T` },
  { manufacturer: 'Abracon', series: 'ASDMB', pkg: 'SMD2520-4P', supply: [1.8, 3.3], current: 0.0045, price: 1.1, mpn: (f: number) => `ASDMB-${f.toFixed(3)}MHZ-LC-T` },
  { manufacturer: 'Epson', series: 'SG-210STF', pkg: 'SMD2520-4P', supply: [1.6, 3.6], current: 0.0035, price: 0.75, mpn: (f: number) => `SG-210STF ${f.toFixed(4)}ML` },
  { manufacturer: 'Epson', series: 'SG-3225CAN', pkg: 'SMD3225-4P', supply: [1.6, 3.6], current: 0.0028, price: 0.7, mpn: (f: number) => `SG-3225CAN ${f.toFixed(4)}M-TJGA3` },
] as const;

export const oscillators: Family = {
  id: 'oscillators',
  category: ['Crystals, Oscillators, Resonators', 'Crystal Oscillators'],
  weight: 25,
  passive: false,
  candidates() {
    const out: Candidate[] = [];
    for (const o of OSCILLATORS) {
      for (const mhz of [...MHZ, 50]) {
        const hz = mhz * 1e6;
        const supply = o.supply[0] === o.supply[1] ? si(o.supply[0], 'V') : vRange(o.supply[0], o.supply[1]);
        out.push({
          mpn: o.mpn(mhz),
          manufacturer: o.manufacturer,
          series: o.series,
          description: `${si(hz, 'Hz')} ${supply} CMOS ±50ppm ${o.pkg} Crystal Oscillators`,
          longDescription: `${si(hz, 'Hz')} CMOS clock oscillator, ${supply} supply, ±50ppm overall stability, ${o.pkg}. Typical uses: FPGA, Ethernet and USB reference clocks where a crystal and load capacitors would be marginal.`,
          package: o.pkg,
          specs: [
            q('Frequency', hz, 'Hz'),
            o.supply[0] === o.supply[1] ? q('Supply Voltage', o.supply[0], 'V') : t('Supply Voltage', supply),
            t('Output Type', 'CMOS'),
            q('Frequency Stability', 50, 'ppm', '±50ppm'),
            q('Current - Supply', o.current, 'A'),
            opTemp(-40, 85),
            t('Package', o.pkg),
          ],
          price: o.price,
          packaging: 'Tape & Reel (TR)',
          pins: 4,
          weight: [12, 24, 25, 50].includes(mhz) ? 2 : 1,
          datasheet: o.series,
        });
      }
    }
    return out;
  },
};

// ---------------------------------------------------------------- 555 timers

const TIMERS: readonly (readonly [string, string, string, string, string, number, string?])[] = [
  // mpn, manufacturer, series, package, packaging, price, status
  ['NE555DR', 'Texas Instruments', 'NE555', 'SOIC-8', 'Tape & Reel (TR)', 0.12],
  ['NE555D', 'Texas Instruments', 'NE555', 'SOIC-8', 'Tube', 0.16],
  ['NE555P', 'Texas Instruments', 'NE555', 'DIP-8', 'Tube', 0.25],
  ['NE555PWR', 'Texas Instruments', 'NE555', 'TSSOP-8', 'Tape & Reel (TR)', 0.18],
  ['NE556DR', 'Texas Instruments', 'NE556', 'SOIC-14', 'Tape & Reel (TR)', 0.3],
  ['TLC555CDR', 'Texas Instruments', 'TLC555', 'SOIC-8', 'Tape & Reel (TR)', 0.35],
  ['TLC555IDR', 'Texas Instruments', 'TLC555', 'SOIC-8', 'Tape & Reel (TR)', 0.4],
  ['LMC555CMX/NOPB', 'Texas Instruments', 'LMC555', 'SOIC-8', 'Tape & Reel (TR)', 0.55],
  ['LM555CMX/NOPB', 'Texas Instruments', 'LM555', 'SOIC-8', 'Tape & Reel (TR)', 0.3, 'nrnd'],
  ['NE555D', 'STMicroelectronics', 'NE555', 'SOIC-8', 'Tube', 0.15],
  ['NE555DT', 'STMicroelectronics', 'NE555', 'SOIC-8', 'Tape & Reel (TR)', 0.12],
  ['NE555N', 'STMicroelectronics', 'NE555', 'DIP-8', 'Tube', 0.22],
  ['TS555IDT', 'STMicroelectronics', 'TS555', 'SOIC-8', 'Tape & Reel (TR)', 0.38],
  ['TS555CDT', 'STMicroelectronics', 'TS555', 'SOIC-8', 'Tape & Reel (TR)', 0.33, 'ltb'],
];

export const timers: Family = {
  id: '555-timers',
  category: ['Clock and Timing', '555 Timers'],
  weight: 12,
  passive: false,
  candidates() {
    return TIMERS.map(([mpn, manufacturer, series, pkg, packaging, price, status]) => {
      const cmos = /^(TLC|LMC|TS)/.test(series);
      const dual = series === 'NE556';
      const supply = cmos ? (series === 'LMC555' ? [1.5, 15] : series === 'TS555' ? [2, 16] : [2, 15]) : [4.5, 16];
      const fmax = cmos ? 2.1e6 : 500e3;
      const industrial = /\dI/.test(mpn);
      const iq = cmos ? (series === 'LMC555' ? 100e-6 : 170e-6) : 3e-3;
      return {
        mpn,
        manufacturer,
        series,
        description: `${dual ? 'Dual ' : ''}${cmos ? 'CMOS ' : ''}Timer ${vRange(supply[0]!, supply[1]!)} ${si(fmax, 'Hz')} ${pkg} 555 Timers`,
        longDescription: `${dual ? 'Dual ' : 'Single '}${cmos ? 'low-power CMOS ' : 'bipolar '}555 timer, ${vRange(supply[0]!, supply[1]!)} supply, astable or monostable operation, ${pkg}. Typical uses: pulse generation, delays, LED flashers, PWM.`,
        package: pkg,
        specs: [
          t('Number of Circuits', dual ? '2' : '1'),
          t('Supply Voltage', vRange(supply[0]!, supply[1]!)),
          q('Frequency', fmax, 'Hz'),
          q('Quiescent Current', iq, 'A'),
          industrial ? opTemp(-40, 85) : opTemp(0, 70),
          t('Package', pkg),
        ],
        price,
        packaging,
        pins: pinsOf(pkg),
        weight: mpn.startsWith('NE555') ? 4 : 1,
        pinned: mpn === 'NE555DR' || mpn === 'NE555D' || mpn === 'NE555P',
        ...(status ? { status } : {}),
        datasheet: series,
      } satisfies Candidate;
    });
  },
};
