/** MOSFETs and bipolar transistors: real small-signal and power parts, with second sources and orderable-code aliases. */
import type { Candidate, Family } from '../model.ts';
import { opTemp, pinsOf, q, si, t } from '../units.ts';

const AOS = 'Alpha & Omega Semiconductor';
const ON = 'onsemi';
const NXP = 'Nexperia';
const IFX = 'Infineon';
const VSH = 'Vishay';
const DIO = 'Diodes Incorporated';
const ST = 'STMicroelectronics';

type MosRow = readonly [
  mpn: string,
  manufacturer: string,
  channel: 'N' | 'P',
  vds: number,
  id: number,
  rdsOn: number,
  vgs: number,
  vth: number,
  pd: number,
  pkg: string,
  price: number,
  alias?: string,
];

const MOSFETS: readonly MosRow[] = [
  ['AO3400A', AOS, 'N', 30, 5.8, 0.024, 10, 1.05, 1.4, 'SOT-23', 0.03],
  ['AO3401A', AOS, 'P', 30, 4, 0.05, 10, 0.9, 1.4, 'SOT-23', 0.035],
  ['AO3402', AOS, 'N', 30, 4, 0.052, 10, 1.1, 1.4, 'SOT-23', 0.035],
  ['AO3407A', AOS, 'P', 30, 4.3, 0.048, 10, 1.9, 1.4, 'SOT-23', 0.04],
  ['AO3415A', AOS, 'P', 20, 4, 0.043, 4.5, 0.7, 1.4, 'SOT-23', 0.04],
  ['AO3416', AOS, 'N', 20, 6.5, 0.022, 4.5, 0.7, 1.4, 'SOT-23', 0.045],
  ['AO4406A', AOS, 'N', 30, 13, 0.0115, 10, 1.8, 3.1, 'SOIC-8', 0.18],
  ['AO4407A', AOS, 'P', 30, 12, 0.011, 10, 1.9, 3.1, 'SOIC-8', 0.2],
  ['AOD4184A', AOS, 'N', 40, 50, 0.007, 10, 1.9, 50, 'TO-252-2(DPAK)', 0.32],
  ['2N7002LT1G', ON, 'N', 60, 0.115, 7.5, 10, 2.1, 0.3, 'SOT-23', 0.02],
  ['2N7002', ON, 'N', 60, 0.115, 7.5, 10, 2.1, 0.2, 'SOT-23', 0.02],
  ['BSS138LT1G', ON, 'N', 50, 0.2, 3.5, 10, 1.3, 0.225, 'SOT-23', 0.03],
  ['NTR4003NT1G', ON, 'N', 30, 0.56, 1.5, 4.5, 1.2, 0.69, 'SOT-23', 0.05],
  ['FDN340P', ON, 'P', 20, 2, 0.07, 4.5, 0.8, 0.5, 'SOT-23', 0.12],
  ['NDS331N', ON, 'N', 20, 1.3, 0.21, 4.5, 0.8, 0.5, 'SOT-23', 0.09],
  ['FDS6679AZ', ON, 'P', 30, 13, 0.009, 10, 1.8, 2.5, 'SOIC-8', 0.45],
  ['2N7002', NXP, 'N', 60, 0.3, 5, 10, 2.1, 0.83, 'SOT-23', 0.02, '2N7002,215'],
  ['BSS138BK', NXP, 'N', 60, 0.36, 1.6, 10, 1.1, 0.35, 'SOT-23', 0.03, 'BSS138BK,215'],
  ['BSS84', NXP, 'P', 50, 0.13, 10, 10, 1.6, 0.25, 'SOT-23', 0.03, 'BSS84,215'],
  ['PMV65XP', NXP, 'P', 20, 3.9, 0.076, 4.5, 0.65, 0.48, 'SOT-23', 0.07, 'PMV65XP,215'],
  ['PMV16XN', NXP, 'N', 20, 6.8, 0.016, 4.5, 0.7, 0.51, 'SOT-23', 0.08, 'PMV16XN,215'],
  ['IRLML6344TRPBF', IFX, 'N', 30, 5, 0.029, 4.5, 1.1, 1.3, 'SOT-23', 0.06],
  ['IRLML2502TRPBF', IFX, 'N', 20, 4.2, 0.045, 4.5, 0.6, 1.25, 'SOT-23', 0.07],
  ['IRLML6402TRPBF', IFX, 'P', 20, 3.7, 0.065, 4.5, 0.55, 1.3, 'SOT-23', 0.07],
  ['IRF540NPBF', IFX, 'N', 100, 33, 0.044, 10, 4, 130, 'TO-220AB', 0.35],
  ['IRLZ44NPBF', IFX, 'N', 55, 47, 0.022, 5, 2, 110, 'TO-220AB', 0.45],
  ['BSS138NH6327XTSA2', IFX, 'N', 60, 0.23, 3.5, 10, 1.3, 0.36, 'SOT-23', 0.04],
  ['SI2302CDS-T1-GE3', VSH, 'N', 20, 2.9, 0.057, 4.5, 0.65, 0.86, 'SOT-23', 0.06],
  ['SI2301CDS-T1-GE3', VSH, 'P', 20, 3.1, 0.112, 4.5, 0.7, 0.86, 'SOT-23', 0.06],
  ['SI2319CDS-T1-GE3', VSH, 'P', 40, 3, 0.065, 10, 1.5, 1.25, 'SOT-23', 0.1],
  ['IRF540PBF', VSH, 'N', 100, 28, 0.077, 10, 4, 150, 'TO-220AB', 0.6],
  ['SI4435DDY-T1-GE3', VSH, 'P', 30, 11.4, 0.02, 10, 1.5, 2.5, 'SOIC-8', 0.3],
  ['DMG2302U-7', DIO, 'N', 20, 3, 0.09, 4.5, 0.7, 0.8, 'SOT-23', 0.04],
  ['DMG3415U-7', DIO, 'P', 20, 4, 0.0425, 4.5, 0.6, 0.9, 'SOT-23', 0.05],
  ['DMN3404L-7', DIO, 'N', 30, 5.8, 0.028, 10, 1.5, 1.4, 'SOT-23', 0.05],
  ['DMP3098L-7', DIO, 'P', 30, 3.8, 0.065, 10, 1.5, 1.2, 'SOT-23', 0.05],
  ['2N7002', DIO, 'N', 60, 0.17, 7.5, 10, 2.1, 0.37, 'SOT-23', 0.02, '2N7002-7-F'],
  ['STN3NF06L', ST, 'N', 60, 4, 0.07, 10, 1.7, 3.3, 'SOT-223', 0.22],
  ['STP55NF06L', ST, 'N', 60, 55, 0.014, 10, 1.7, 95, 'TO-220AB', 0.65],
  ['STD30NF06LT4', ST, 'N', 60, 35, 0.022, 10, 1.7, 70, 'TO-252-2(DPAK)', 0.4],
];

function mosfet([mpn, manufacturer, ch, vds, id, rds, vgs, vth, pd, pkg, price, alias]: MosRow): Candidate {
  const type = `${ch}-Channel`;
  const rdsText = `${si(rds, 'Ω')}@${si(vgs, 'V')}`;
  const power = pkg.startsWith('TO-');
  return {
    mpn,
    manufacturer,
    description: `${type} ${si(vds, 'V')} ${si(id, 'A')} ${rdsText} ${si(pd, 'W')} ${pkg} MOSFETs`,
    longDescription: `${type} enhancement-mode MOSFET, ${si(vds, 'V')} ${si(id, 'A')}, RDS(on) ${rdsText}, ${vth < 1.5 ? 'logic-level gate' : 'standard gate'}, ${pkg}. Typical uses: ${power ? 'motor drives, DC-DC power stages, load switches' : ch === 'P' ? 'high-side load switches, reverse-polarity protection' : 'low-side switching, level shifting, LED and relay drivers'}.`,
    ...(alias ? { aliases: [alias] } : {}),
    package: pkg,
    specs: [
      t('Type', type),
      q('Drain Source Voltage (Vdss)', vds, 'V'),
      q('Continuous Drain Current (Id)', id, 'A'),
      q('Drain Source On Resistance (RDS(on)@Vgs,Id)', rds, 'Ω', rdsText),
      q('Gate Threshold Voltage (Vgs(th)@Id)', vth, 'V'),
      q('Power Dissipation (Pd)', pd, 'W'),
      opTemp(-55, power ? 175 : 150),
      t('Package', pkg),
    ],
    price,
    packaging: power ? 'Tube' : 'Tape & Reel (TR)',
    pins: pinsOf(pkg),
    weight: ['AO3400A', 'AO3401A', '2N7002', 'IRLML6344TRPBF', 'DMN3404L-7'].includes(mpn) ? 3 : 1,
    pinned: mpn === 'AO3400A' || mpn === '2N7002LT1G',
    datasheet: mpn.replace(/[-,].*$/, ''),
  };
}

export const mosfets: Family = {
  id: 'mosfets',
  category: ['Transistors', 'MOSFETs'],
  // Some distributors file the same parts under a differently named root (near-duplicate categories).
  altCategory: { path: ['Triode/MOS Tube/Transistor', 'MOSFETs'], share: 0.25 },
  weight: 45,
  passive: false,
  candidates: () => MOSFETS.map(mosfet),
};

// ---------------------------------------------------------------- Bipolar transistors

type BjtRow = readonly [
  mpn: string,
  manufacturer: string,
  type: 'NPN' | 'PNP',
  vceo: number,
  ic: number,
  hfe: string,
  ft: number,
  pd: number,
  pkg: string,
  price: number,
  alias?: string,
];

const BJTS: readonly BjtRow[] = [
  ['MMBT3904LT1G', ON, 'NPN', 40, 0.2, '100~300', 300e6, 0.3, 'SOT-23', 0.015],
  ['MMBT3906LT1G', ON, 'PNP', 40, 0.2, '100~300', 250e6, 0.3, 'SOT-23', 0.015],
  ['MMBT2222ALT1G', ON, 'NPN', 40, 0.6, '100~300', 300e6, 0.3, 'SOT-23', 0.02],
  ['MMBT4401LT1G', ON, 'NPN', 40, 0.6, '100~300', 250e6, 0.3, 'SOT-23', 0.02],
  ['MMBT4403LT1G', ON, 'PNP', 40, 0.6, '100~300', 200e6, 0.3, 'SOT-23', 0.02],
  ['BC847BLT1G', ON, 'NPN', 45, 0.1, '200~450', 100e6, 0.3, 'SOT-23', 0.015],
  ['BC857BLT1G', ON, 'PNP', 45, 0.1, '220~475', 100e6, 0.3, 'SOT-23', 0.015],
  ['2N3904BU', ON, 'NPN', 40, 0.2, '100~300', 300e6, 0.625, 'TO-92', 0.04],
  ['2N3906BU', ON, 'PNP', 40, 0.2, '100~300', 250e6, 0.625, 'TO-92', 0.04],
  ['P2N2222AG', ON, 'NPN', 40, 0.6, '100~300', 300e6, 0.625, 'TO-92', 0.05],
  ['BCP56T1G', ON, 'NPN', 80, 1, '40~250', 130e6, 1.5, 'SOT-223', 0.08],
  ['MMBT3904', NXP, 'NPN', 40, 0.2, '100~300', 300e6, 0.25, 'SOT-23', 0.015, 'MMBT3904,215'],
  ['MMBT3906', NXP, 'PNP', 40, 0.2, '100~300', 250e6, 0.25, 'SOT-23', 0.015, 'MMBT3906,215'],
  ['BC847B', NXP, 'NPN', 45, 0.1, '200~450', 100e6, 0.25, 'SOT-23', 0.012, 'BC847B,215'],
  ['BC857B', NXP, 'PNP', 45, 0.1, '220~475', 100e6, 0.25, 'SOT-23', 0.012, 'BC857B,215'],
  ['BC817-40', NXP, 'NPN', 45, 0.5, '250~600', 100e6, 0.25, 'SOT-23', 0.02, 'BC817-40,215'],
  ['BC807-40', NXP, 'PNP', 45, 0.5, '250~600', 80e6, 0.25, 'SOT-23', 0.02, 'BC807-40,215'],
  ['MMBT3904', DIO, 'NPN', 40, 0.2, '100~300', 300e6, 0.31, 'SOT-23', 0.015, 'MMBT3904-7-F'],
  ['MMBT3906', DIO, 'PNP', 40, 0.2, '100~300', 250e6, 0.31, 'SOT-23', 0.015, 'MMBT3906-7-F'],
  ['MMBT2222A', DIO, 'NPN', 40, 0.6, '100~300', 300e6, 0.31, 'SOT-23', 0.02, 'MMBT2222A-7-F'],
  ['MMBT4401', DIO, 'NPN', 40, 0.6, '100~300', 250e6, 0.31, 'SOT-23', 0.02, 'MMBT4401-7-F'],
  ['BC847BW', DIO, 'NPN', 45, 0.1, '200~450', 100e6, 0.2, 'SOT-323', 0.02, 'BC847BW-7-F'],
];

export const bipolarTransistors: Family = {
  id: 'bjt',
  category: ['Transistors', 'Bipolar Transistors - BJT'],
  weight: 30,
  passive: false,
  candidates: () =>
    BJTS.map(([mpn, manufacturer, type, vceo, ic, hfe, ft, pd, pkg, price, alias]) => ({
      mpn,
      manufacturer,
      description: `${type} ${si(vceo, 'V')} ${si(ic, 'A')} ${hfe} ${si(ft, 'Hz')} ${si(pd, 'W')} ${pkg} Bipolar Transistors - BJT`,
      longDescription: `General-purpose ${type} bipolar transistor, ${si(vceo, 'V')} VCEO, ${si(ic, 'A')} collector current, hFE ${hfe.replace('~', '-')}, ${pkg}. Typical uses: ${ic >= 0.5 ? 'relay, LED and small motor drivers' : 'small-signal switching, amplifier stages, level shifting'}.`,
      ...(alias ? { aliases: [alias] } : {}),
      package: pkg,
      specs: [
        t('Type', type),
        q('Collector-Emitter Breakdown Voltage (Vceo)', vceo, 'V'),
        q('Collector Current (Ic)', ic, 'A'),
        t('DC Current Gain (hFE@Ic,Vce)', hfe),
        q('Transition Frequency (fT)', ft, 'Hz'),
        q('Power Dissipation (Pd)', pd, 'W'),
        opTemp(-55, 150),
        t('Package', pkg),
      ],
      price,
      packaging: pkg === 'TO-92' ? 'Bulk' : 'Tape & Reel (TR)',
      pins: pinsOf(pkg),
      weight: mpn.startsWith('MMBT390') || mpn.startsWith('BC847') ? 3 : 1,
      pinned: mpn === 'MMBT3904LT1G',
      datasheet: mpn.replace(/(LT1G|BU|AG|T1G)$/, '').replace(/^P(?=2N)/, ''),
    }) satisfies Candidate),
};
