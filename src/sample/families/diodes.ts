/** Switching, Schottky and Zener diodes: real type names, second sources and orderable-code aliases. */
import type { Candidate, Family } from '../model.ts';
import { opTemp, pct, pinsOf, q, si, t } from '../units.ts';

const ON = 'onsemi';
const NXP = 'Nexperia';
const VSH = 'Vishay';
const DIO = 'Diodes Incorporated';

const packagingOf = (pkg: string) => (pkg.startsWith('DO-') ? 'Tape & Box (TB)' : 'Tape & Reel (TR)');

// ---------------------------------------------------------------- Switching diodes

type SwitchRow = readonly [mpn: string, manufacturer: string, config: string, vr: number, ifav: number, vf: number, trr: number, pkg: string, price: number, alias?: string];

const SWITCHING: readonly SwitchRow[] = [
  ['1N4148W', DIO, 'Independent', 75, 0.15, 1.25, 4e-9, 'SOD-123', 0.012, '1N4148W-7-F'],
  ['1N4148W', VSH, 'Independent', 75, 0.15, 1.25, 4e-9, 'SOD-123', 0.015, '1N4148W-E3-08'],
  ['1N4148W', NXP, 'Independent', 75, 0.15, 1.25, 4e-9, 'SOD-123', 0.012, '1N4148W,115'],
  ['1N4148WS', DIO, 'Independent', 75, 0.15, 1.25, 4e-9, 'SOD-323', 0.012, '1N4148WS-7-F'],
  ['1N4148WS', VSH, 'Independent', 75, 0.15, 1.25, 4e-9, 'SOD-323', 0.014, '1N4148WS-E3-08'],
  ['1N4148', ON, 'Independent', 100, 0.2, 1, 4e-9, 'DO-35', 0.02],
  ['1N4148', VSH, 'Independent', 100, 0.15, 1, 4e-9, 'DO-35', 0.02, '1N4148-TAP'],
  ['1N914', ON, 'Independent', 100, 0.2, 1, 4e-9, 'DO-35', 0.02],
  ['LL4148', VSH, 'Independent', 100, 0.15, 1, 4e-9, 'LL-34', 0.015, 'LL4148-GS08'],
  ['BAV99', NXP, 'Series Connection', 100, 0.215, 1.25, 4e-9, 'SOT-23', 0.015, 'BAV99,215'],
  ['BAV99LT1G', ON, 'Series Connection', 70, 0.215, 1.25, 6e-9, 'SOT-23', 0.015],
  ['BAV99', DIO, 'Series Connection', 75, 0.3, 1.25, 4e-9, 'SOT-23', 0.015, 'BAV99-7-F'],
  ['BAS16', NXP, 'Independent', 100, 0.215, 1.25, 4e-9, 'SOT-23', 0.012, 'BAS16,215'],
  ['BAS16LT1G', ON, 'Independent', 75, 0.2, 1.25, 6e-9, 'SOT-23', 0.012],
  ['BAV70', NXP, 'Common Cathode', 100, 0.215, 1.25, 4e-9, 'SOT-23', 0.015, 'BAV70,215'],
  ['BAV70LT1G', ON, 'Common Cathode', 70, 0.2, 1.25, 6e-9, 'SOT-23', 0.015],
  ['BAW56', NXP, 'Common Anode', 90, 0.215, 1.25, 4e-9, 'SOT-23', 0.015, 'BAW56,215'],
  ['BAW56LT1G', ON, 'Common Anode', 70, 0.2, 1.25, 6e-9, 'SOT-23', 0.015],
];

export const switchingDiodes: Family = {
  id: 'switching-diodes',
  category: ['Diodes', 'Switching Diodes'],
  weight: 22,
  passive: false,
  candidates: () =>
    SWITCHING.map(([mpn, manufacturer, config, vr, ifav, vf, trr, pkg, price, alias]) => ({
      mpn,
      manufacturer,
      description: `${config} ${si(vr, 'V')} ${si(ifav, 'A')} ${si(vf, 'V')}@${si(ifav, 'A')} ${si(trr, 's')} ${pkg} Switching Diodes`,
      longDescription: `${si(vr, 'V')} ${si(ifav, 'A')} fast switching diode${config === 'Independent' ? '' : ` pair (${config.toLowerCase()})`}, ${si(trr, 's')} reverse recovery, ${pkg}. Typical uses: signal clamping, logic OR-ing, flyback protection on small relays.`,
      ...(alias ? { aliases: [alias] } : {}),
      package: pkg,
      specs: [
        t('Diode Configuration', config),
        q('Reverse Voltage (Vr)', vr, 'V'),
        q('Average Rectified Current (Io)', ifav, 'A'),
        q('Forward Voltage (Vf@If)', vf, 'V', `${si(vf, 'V')}@${si(ifav, 'A')}`),
        q('Reverse Recovery Time (trr)', trr, 's'),
        opTemp(-55, 150, 'Operating Junction Temperature'),
        t('Package', pkg),
      ],
      price,
      packaging: packagingOf(pkg),
      pins: pinsOf(pkg),
      weight: mpn.startsWith('1N4148') ? 3 : 1,
      pinned: mpn === '1N4148W' && manufacturer === DIO,
      datasheet: mpn.replace(/LT1G$/, ''),
    }) satisfies Candidate),
};

// ---------------------------------------------------------------- Schottky diodes

type SchottkyRow = readonly [mpn: string, manufacturer: string, config: string, vr: number, ifav: number, vf: number, pkg: string, price: number, alias?: string];

const SCHOTTKY: readonly SchottkyRow[] = [
  ['BAT54', NXP, 'Independent', 30, 0.2, 0.8, 'SOT-23', 0.02, 'BAT54,215'],
  ['BAT54', DIO, 'Independent', 30, 0.2, 0.8, 'SOT-23', 0.02, 'BAT54-7-F'],
  ['BAT54', VSH, 'Independent', 30, 0.2, 0.8, 'SOT-23', 0.025, 'BAT54-E3-08'],
  ['BAT54S', NXP, 'Series Connection', 30, 0.2, 0.8, 'SOT-23', 0.02, 'BAT54S,215'],
  ['BAT54SLT1G', ON, 'Series Connection', 30, 0.2, 0.8, 'SOT-23', 0.02],
  ['BAT54S', DIO, 'Series Connection', 30, 0.2, 0.8, 'SOT-23', 0.02, 'BAT54S-7-F'],
  ['BAT54C', NXP, 'Common Cathode', 30, 0.2, 0.8, 'SOT-23', 0.02, 'BAT54C,215'],
  ['BAT54CLT1G', ON, 'Common Cathode', 30, 0.2, 0.8, 'SOT-23', 0.02],
  ['BAT54A', NXP, 'Common Anode', 30, 0.2, 0.8, 'SOT-23', 0.02, 'BAT54A,215'],
  ['BAT54WS', DIO, 'Independent', 30, 0.2, 0.8, 'SOD-323', 0.02, 'BAT54WS-7-F'],
  ['1N5819', VSH, 'Independent', 40, 1, 0.6, 'DO-41', 0.04, '1N5819-E3/54'],
  ['1N5819', DIO, 'Independent', 40, 1, 0.6, 'DO-41', 0.035, '1N5819-T'],
  ['1N5819RLG', ON, 'Independent', 40, 1, 0.6, 'DO-41', 0.05],
  ['SS14', VSH, 'Independent', 40, 1, 0.5, 'SMA(DO-214AC)', 0.03, 'SS14-E3/61T'],
  ['SS14', ON, 'Independent', 40, 1, 0.5, 'SMA(DO-214AC)', 0.03],
  ['SS34', VSH, 'Independent', 40, 3, 0.5, 'SMC(DO-214AB)', 0.06, 'SS34-E3/57T'],
  ['SS34', ON, 'Independent', 40, 3, 0.5, 'SMC(DO-214AB)', 0.06],
  ['B340A-13-F', DIO, 'Independent', 40, 3, 0.5, 'SMA(DO-214AC)', 0.07],
  ['B240A-13-F', DIO, 'Independent', 40, 2, 0.5, 'SMA(DO-214AC)', 0.05],
  ['B120-13-F', DIO, 'Independent', 20, 1, 0.5, 'SMA(DO-214AC)', 0.04],
  ['MBR0520LT1G', ON, 'Independent', 20, 0.5, 0.385, 'SOD-123', 0.04],
  ['MBRS140T3G', ON, 'Independent', 40, 1, 0.6, 'SMB(DO-214AA)', 0.07],
  ['MBRA140T3G', ON, 'Independent', 40, 1, 0.55, 'SMA(DO-214AC)', 0.06],
  ['MBRS340T3G', ON, 'Independent', 40, 3, 0.525, 'SMC(DO-214AB)', 0.12],
  ['PMEG3010EJ', NXP, 'Independent', 30, 1, 0.41, 'SOD-323F', 0.06, 'PMEG3010EJ,115'],
  ['PMEG4010CEJ', NXP, 'Independent', 40, 1, 0.49, 'SOD-323F', 0.06, 'PMEG4010CEJ,115'],
];

export const schottkyDiodes: Family = {
  id: 'schottky-diodes',
  category: ['Diodes', 'Schottky Diodes'],
  weight: 30,
  passive: false,
  candidates: () =>
    SCHOTTKY.map(([mpn, manufacturer, config, vr, ifav, vf, pkg, price, alias]) => ({
      mpn,
      manufacturer,
      description: `${config} ${si(vr, 'V')} ${si(ifav, 'A')} ${si(vf, 'V')}@${si(ifav, 'A')} ${pkg} Schottky Diodes`,
      longDescription: `${si(vr, 'V')} ${si(ifav, 'A')} Schottky barrier ${ifav >= 1 ? 'rectifier' : 'diode'}${config === 'Independent' ? '' : ` pair (${config.toLowerCase()})`}, ${si(vf, 'V')} forward voltage, ${pkg}. Typical uses: ${ifav >= 1 ? 'DC-DC catch diodes, reverse-polarity and OR-ing on power inputs' : 'signal clamps, RTC battery switch-over, fast logic protection'}.`,
      ...(alias ? { aliases: [alias] } : {}),
      package: pkg,
      specs: [
        t('Diode Configuration', config),
        q('Reverse Voltage (Vr)', vr, 'V'),
        q('Average Rectified Current (Io)', ifav, 'A'),
        q('Forward Voltage (Vf@If)', vf, 'V', `${si(vf, 'V')}@${si(ifav, 'A')}`),
        opTemp(-65, 125, 'Operating Junction Temperature'),
        t('Package', pkg),
      ],
      price,
      packaging: packagingOf(pkg),
      pins: pinsOf(pkg),
      weight: mpn.startsWith('BAT54') || mpn.startsWith('SS14') || mpn.startsWith('1N5819') ? 3 : 1,
      pinned: mpn === 'BAT54' && manufacturer === NXP,
      datasheet: mpn.replace(/(-13-F|LT1G|RLG|T3G)$/, ''),
    }) satisfies Candidate),
};

// ---------------------------------------------------------------- Zener diodes

const ZENER_V = [2.4, 2.7, 3, 3.3, 3.6, 3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2, 9.1, 10, 11, 12, 13, 15, 16, 18, 20, 22, 24, 27, 30, 33, 36, 39];

/** 1N52xx (MMSZ52xx) type numbers by nominal voltage. */
const MMSZ52: Record<number, number> = {
  2.4: 5221, 2.7: 5223, 3: 5225, 3.3: 5226, 3.6: 5227, 3.9: 5228, 4.3: 5229, 4.7: 5230, 5.1: 5231, 5.6: 5232, 6.2: 5234, 6.8: 5235,
  7.5: 5236, 8.2: 5237, 9.1: 5239, 10: 5240, 11: 5241, 12: 5242, 13: 5243, 15: 5245, 16: 5246, 18: 5248, 20: 5250, 22: 5251, 24: 5252, 27: 5254, 30: 5256, 33: 5257,
};

/** Typical Zener impedance (ohms) at the test current, by nominal voltage. */
const ZZT: readonly (readonly [number, number])[] = [[2.4, 100], [3.3, 95], [3.9, 90], [4.7, 80], [5.1, 60], [5.6, 40], [6.2, 10], [6.8, 15], [10, 20], [12, 25], [15, 30], [18, 45], [22, 55], [27, 80], [39, 90]];
const zzt = (v: number) => [...ZZT].reverse().find(([lo]) => v >= lo)![1];

/** "5V1", "10". */
const vcode = (v: number) => (v < 10 ? v.toFixed(1).replace('.', 'V') : String(v));

interface ZenerLine {
  manufacturer: string;
  series: string;
  pkg: string;
  pd: number;
  price: number;
  volts: readonly number[];
  mpn(v: number): string;
  alias?(v: number): string;
}

const ZENER_LINES: readonly ZenerLine[] = [
  { manufacturer: DIO, series: 'BZT52C', pkg: 'SOD-123', pd: 0.5, price: 0.015, volts: ZENER_V, mpn: (v) => `BZT52C${vcode(v)}`, alias: (v) => `BZT52C${vcode(v)}-7-F` },
  { manufacturer: VSH, series: 'BZT52C', pkg: 'SOD-123', pd: 0.5, price: 0.018, volts: ZENER_V, mpn: (v) => `BZT52C${vcode(v)}`, alias: (v) => `BZT52C${vcode(v)}-E3-08` },
  { manufacturer: ON, series: 'MMSZ52xxB', pkg: 'SOD-123', pd: 0.5, price: 0.02, volts: Object.keys(MMSZ52).map(Number), mpn: (v) => `MMSZ${MMSZ52[v]}BT1G` },
  { manufacturer: ON, series: 'BZX84C', pkg: 'SOT-23', pd: 0.25, price: 0.018, volts: ZENER_V, mpn: (v) => `BZX84C${vcode(v)}LT1G` },
  { manufacturer: NXP, series: 'BZX84-C', pkg: 'SOT-23', pd: 0.25, price: 0.015, volts: ZENER_V, mpn: (v) => `BZX84-C${vcode(v)}`, alias: (v) => `BZX84-C${vcode(v)},215` },
  { manufacturer: ON, series: 'MM3Z', pkg: 'SOD-323', pd: 0.3, price: 0.02, volts: ZENER_V, mpn: (v) => `MM3Z${vcode(v)}T1G` },
  { manufacturer: NXP, series: 'BZX384-C', pkg: 'SOD-323', pd: 0.3, price: 0.016, volts: ZENER_V, mpn: (v) => `BZX384-C${vcode(v)}`, alias: (v) => `BZX384-C${vcode(v)},115` },
  { manufacturer: VSH, series: '1N47xxA', pkg: 'DO-41', pd: 1, price: 0.03, volts: ZENER_V.filter((v) => v >= 3.3), mpn: (v) => `1N${4728 + ZENER_V.indexOf(v) - ZENER_V.indexOf(3.3)}A`, alias: (v) => `1N${4728 + ZENER_V.indexOf(v) - ZENER_V.indexOf(3.3)}A-TR` },
];

function zener(line: ZenerLine, v: number): Candidate {
  const lo = parseFloat((v * 0.94).toPrecision(2));
  const hi = parseFloat((v * 1.06).toPrecision(2));
  const iz = line.pd >= 1 ? 0.02 : 0.005;
  const mpn = line.mpn(v);
  return {
    mpn,
    manufacturer: line.manufacturer,
    series: line.series,
    description: `${si(v, 'V')} ${si(line.pd, 'W')} ±5% ${si(zzt(v), 'Ω')} ${line.pkg} Zener Diodes`,
    longDescription: `${si(v, 'V')} ±5% Zener diode, ${si(line.pd, 'W')}, ${line.pkg}. Typical uses: simple voltage references, gate and input clamps, overvoltage protection.`,
    ...(line.alias ? { aliases: [line.alias(v)] } : {}),
    package: line.pkg,
    specs: [
      q('Zener Voltage (Nom)', v, 'V'),
      t('Zener Voltage (Range)', `${si(lo, 'V')}~${si(hi, 'V')}`),
      pct('Tolerance', 5),
      q('Power Dissipation (Pd)', line.pd, 'W'),
      q('Zener Impedance (Zzt)', zzt(v), 'Ω'),
      q('Test Current (Izt)', iz, 'A'),
      t('Diode Configuration', 'Independent'),
      opTemp(-55, 150, 'Operating Junction Temperature'),
      t('Package', line.pkg),
    ],
    price: line.price,
    packaging: packagingOf(line.pkg),
    pins: pinsOf(line.pkg),
    weight: [3.3, 5.1, 12].includes(v) ? 3 : 1,
    pinned: mpn === 'BZT52C5V1' && line.manufacturer === DIO,
    datasheet: line.series,
  };
}

export const zenerDiodes: Family = {
  id: 'zener-diodes',
  category: ['Diodes', 'Zener Diodes'],
  weight: 70,
  passive: false,
  candidates: () => ZENER_LINES.flatMap((line) => line.volts.map((v) => zener(line, v))),
};
