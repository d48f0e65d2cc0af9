/** Indicator LEDs: Kingbright APT/L-934/L-53 and Everlight 19-217/17-21/204-10/333 part numbering. */
import type { Candidate, Family } from '../model.ts';
import { opTemp, pinsOf, q, si, t } from '../units.ts';

interface Colour {
  name: string;
  nm: number;
  vf: number;
  /** Luminous intensity of an 0603 part (cd); other sizes scale from it. */
  cd: number;
}

const RED: Colour = { name: 'Red', nm: 625, vf: 2, cd: 0.035 };
const HYPER_RED: Colour = { name: 'Red', nm: 630, vf: 1.95, cd: 0.1 };
const GREEN: Colour = { name: 'Green', nm: 570, vf: 2.2, cd: 0.015 };
const TRUE_GREEN: Colour = { name: 'Green', nm: 525, vf: 3.3, cd: 0.3 };
const YELLOW: Colour = { name: 'Yellow', nm: 590, vf: 2, cd: 0.06 };
const ORANGE: Colour = { name: 'Orange', nm: 605, vf: 2, cd: 0.07 };
const BLUE: Colour = { name: 'Blue', nm: 465, vf: 3.3, cd: 0.12 };
const WHITE: Colour = { name: 'White', nm: 0, vf: 3.2, cd: 0.35 };

interface LedSize {
  pkg: string;
  factor: number;
  angle: number;
  lens: string;
  tht: boolean;
}

const SIZES: Record<string, LedSize> = {
  '0402': { pkg: '0402', factor: 0.6, angle: 120, lens: 'Water Clear', tht: false },
  '0603': { pkg: '0603', factor: 1, angle: 120, lens: 'Water Clear', tht: false },
  '0805': { pkg: '0805', factor: 1.3, angle: 120, lens: 'Water Clear', tht: false },
  '1206': { pkg: '1206', factor: 1.5, angle: 120, lens: 'Water Clear', tht: false },
  '3mm': { pkg: 'LED-THT-3mm', factor: 1.5, angle: 60, lens: 'Diffused', tht: true },
  '5mm': { pkg: 'LED-THT-5mm', factor: 2.5, angle: 60, lens: 'Diffused', tht: true },
};

type Row = readonly [mpn: string, manufacturer: string, series: string, size: string, colour: Colour, price: number];

const KB = 'Kingbright';
const EL = 'Everlight';

/** Kingbright SMD chip LEDs: series prefix by size, colour code suffix. */
const KINGBRIGHT_SMD: readonly (readonly [string, string, readonly (readonly [string, Colour])[]])[] = [
  ['APHHS1005', '0402', [['SURCK', HYPER_RED], ['CGCK', TRUE_GREEN], ['QBC/D', BLUE]]],
  ['APT1608', '0603', [['EC', RED], ['SURCK', HYPER_RED], ['SGC', GREEN], ['ZGCK', TRUE_GREEN], ['SYCK', YELLOW], ['SECK', ORANGE], ['QBC/D', BLUE], ['QWF/D', WHITE]]],
  ['APT2012', '0805', [['EC', RED], ['SURCK', HYPER_RED], ['SGC', GREEN], ['ZGC', TRUE_GREEN], ['SYCK', YELLOW], ['QBC/D', BLUE], ['QWF/D', WHITE]]],
  ['APT3216', '1206', [['EC', RED], ['SGC', GREEN], ['SYCK', YELLOW], ['QBC/F', BLUE], ['QWF/D', WHITE]]],
];

const KINGBRIGHT_THT: readonly (readonly [string, string, readonly (readonly [string, Colour])[]])[] = [
  ['L-934', '3mm', [['ID', RED], ['SRD', HYPER_RED], ['GD', GREEN], ['YD', YELLOW]]],
  ['L-53', '5mm', [['ID', RED], ['SRD', HYPER_RED], ['GD', GREEN], ['YD', YELLOW]]],
  ['WP7113', '5mm', [['ID', RED], ['SRD', HYPER_RED], ['GD', GREEN], ['YD', YELLOW], ['QBD', BLUE]]],
];

const EVERLIGHT: readonly Row[] = [
  ['19-217/R6C-AL1M2VY/3T', EL, '19-217', '0603', RED, 0.03],
  ['19-217/GHC-YR1S2/3T', EL, '19-217', '0603', TRUE_GREEN, 0.04],
  ['19-217/Y2C-CQ2R2L/3T', EL, '19-217', '0603', YELLOW, 0.03],
  ['19-217/BHC-ZL1M2RY/3T', EL, '19-217', '0603', BLUE, 0.04],
  ['19-217/T1D-CP1Q2B/3T', EL, '19-217', '0603', WHITE, 0.05],
  ['17-21SURC/S530-A2/TR8', EL, '17-21', '0805', HYPER_RED, 0.03],
  ['17-21SYGC/S530-E2/TR8', EL, '17-21', '0805', GREEN, 0.03],
  ['17-21UYC/S530-A2/TR8', EL, '17-21', '0805', YELLOW, 0.03],
  ['17-21UBC/C430/TR8', EL, '17-21', '0805', BLUE, 0.04],
  ['12-21SURC/S530-A2/TR8', EL, '12-21', '1206', HYPER_RED, 0.035],
  ['12-21SYGC/S530-E2/TR8', EL, '12-21', '1206', GREEN, 0.035],
  ['204-10SDRD/S530-A3-L', EL, '204-10', '3mm', RED, 0.03],
  ['204-10SYGD/S530-E2-L', EL, '204-10', '3mm', GREEN, 0.03],
  ['204-10UYD/S530-A3-L', EL, '204-10', '3mm', YELLOW, 0.03],
  ['333-2SURD/S530-A3', EL, '333-2', '5mm', HYPER_RED, 0.04],
  ['333-2SYGD/S530-E2', EL, '333-2', '5mm', GREEN, 0.04],
];

function rows(): Row[] {
  const out: Row[] = [];
  for (const [prefix, size, colours] of KINGBRIGHT_SMD) for (const [code, c] of colours) out.push([`${prefix}${code}`, KB, prefix, size, c, size === '0402' ? 0.06 : 0.04]);
  for (const [prefix, size, colours] of KINGBRIGHT_THT) for (const [code, c] of colours) out.push([`${prefix}${code}`, KB, prefix, size, c, 0.06]);
  return [...out, ...EVERLIGHT];
}

function led([mpn, manufacturer, series, sizeKey, c, price]: Row): Candidate {
  const size = SIZES[sizeKey]!;
  const cd = parseFloat((c.cd * size.factor).toPrecision(2));
  const wl = c.nm ? `${c.nm}nm ` : '';
  return {
    mpn,
    manufacturer,
    series,
    description: `${c.name} ${wl}${si(cd, 'cd')} ${si(c.vf, 'V')} 20mA ${size.angle}° ${size.pkg} LED Indication - Discrete`,
    longDescription: `${c.name} indicator LED${c.nm ? ` (${c.nm} nm)` : ''}, ${si(cd, 'cd')} at 20 mA, ${si(c.vf, 'V')} typical forward voltage, ${size.tht ? `${sizeKey} round through-hole` : `${size.pkg} SMD`} package, ${size.lens.toLowerCase()} lens. Typical uses: power and status indication.`,
    package: size.pkg,
    specs: [
      t('Emitted Color', c.name),
      ...(c.nm ? [q('Dominant Wavelength', c.nm * 1e-9, 'm', `${c.nm}nm`)] : [t('Color Temperature', '6500K')]),
      q('Luminous Intensity', cd, 'cd'),
      q('Forward Voltage (Vf)', c.vf, 'V'),
      q('Forward Current (If)', 0.02, 'A'),
      t('Viewing Angle', `${size.angle}°`),
      t('Lens Color', size.lens),
      opTemp(-40, 85),
      t('Package', size.pkg),
    ],
    price,
    packaging: size.tht ? 'Bulk' : 'Tape & Reel (TR)',
    pins: size.tht ? 2 : pinsOf(size.pkg),
    weight: sizeKey === '0603' ? 3 : sizeKey === '0805' ? 2 : 1,
    datasheet: series,
  };
}

export const indicatorLeds: Family = {
  id: 'leds',
  category: ['Optoelectronics', 'LED Indication - Discrete'],
  weight: 60,
  passive: false,
  candidates: () => rows().map(led),
};
