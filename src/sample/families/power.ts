/** Linear regulators (LDOs and classic three-terminal regulators) and DC-DC converters with integrated switches. */
import type { Candidate, Family } from '../model.ts';
import { opTemp, pinsOf, q, si, t, vRange } from '../units.ts';

// ---------------------------------------------------------------- Linear regulators

interface LdoLine {
  manufacturer: string;
  series: string;
  pkg: string;
  packaging?: string;
  /** Output voltages; 0 = adjustable. */
  volts: readonly number[];
  mpn(v: number): string;
  /** Alternate orderable code (e.g. without "/NOPB"). */
  alias?(v: number): string;
  iout: number;
  vin: [number, number];
  dropout: number;
  iq: number;
  psrr?: string;
  temp?: [number, number];
  price: number;
  weight?: number;
  status?: string;
  note: string;
}

/** Voltage code used by many lines: 3.3 -> "33", 1.2 -> "12", 5 -> "50". */
const vc2 = (v: number) => String(Math.round(v * 10)).padStart(2, '0');
/** "3.3", "5.0", "ADJ". */
const vdot = (v: number) => (v === 0 ? 'ADJ' : v.toFixed(v === 2.85 ? 2 : 1));

const LDO_LINES: readonly LdoLine[] = [
  { manufacturer: 'Texas Instruments', series: 'TLV700', pkg: 'SOT-23-5', volts: [1.2, 1.5, 1.8, 2.5, 2.8, 3.0, 3.3], mpn: (v) => `TLV700${vc2(v)}DDCR`, iout: 0.2, vin: [2, 5.5], dropout: 0.175, iq: 31e-6, psrr: '68dB@(1kHz)', price: 0.09, weight: 3, note: 'Typical uses: MCU and sensor rails from a Li-ion cell or 5V USB.' },
  { manufacturer: 'Texas Instruments', series: 'TLV700', pkg: 'SOT-23-5', volts: [1.8, 3.3], mpn: (v) => `TLV700${vc2(v)}DBVR`, iout: 0.2, vin: [2, 5.5], dropout: 0.175, iq: 31e-6, psrr: '68dB@(1kHz)', price: 0.1, note: 'Typical uses: MCU and sensor rails from a Li-ion cell or 5V USB.' },
  { manufacturer: 'Texas Instruments', series: 'TLV755P', pkg: 'SOT-23-5', volts: [1.2, 1.8, 2.5, 3.3], mpn: (v) => `TLV755${vc2(v)}PDBVR`, iout: 0.5, vin: [1.45, 5.5], dropout: 0.238, iq: 25e-6, psrr: '50dB@(1kHz)', price: 0.12, note: 'Includes active output discharge and foldback current limit.' },
  { manufacturer: 'Texas Instruments', series: 'LP5907', pkg: 'SOT-23-5', volts: [1.8, 2.8, 3.0, 3.3], mpn: (v) => `LP5907MFX-${vdot(v)}/NOPB`, alias: (v) => `LP5907MFX-${vdot(v)}`, iout: 0.25, vin: [2.2, 5.5], dropout: 0.12, iq: 12e-6, psrr: '82dB@(1kHz)', price: 0.18, note: 'Ultra-low-noise (6.5uVrms) regulator for RF, clock and sensor supplies.' },
  { manufacturer: 'Texas Instruments', series: 'LM1117', pkg: 'SOT-223', volts: [1.8, 2.5, 3.3, 5, 0], mpn: (v) => `LM1117IMPX-${vdot(v)}/NOPB`, alias: (v) => `LM1117IMPX-${vdot(v)}`, iout: 0.8, vin: [2.6, 15], dropout: 1.2, iq: 5e-3, price: 0.3, status: 'nrnd', note: 'Industry-standard 1117 pinout; needs a 10uF tantalum or low-ESR output capacitor.' },
  { manufacturer: 'STMicroelectronics', series: 'LD1117', pkg: 'SOT-223', volts: [1.2, 1.8, 2.5, 3.3, 5, 0], mpn: (v) => (v === 0 ? 'LD1117STR' : `LD1117S${vc2(v)}TR`), iout: 0.8, vin: [2.6, 15], dropout: 1, iq: 5e-3, price: 0.16, weight: 3, note: '1117-family low-dropout regulator, stable with 10uF output capacitance.' },
  { manufacturer: 'STMicroelectronics', series: 'LD1117', pkg: 'TO-252-2(DPAK)', volts: [3.3, 5], mpn: (v) => `LD1117DT${vc2(v)}TR`, iout: 0.8, vin: [2.6, 15], dropout: 1, iq: 5e-3, price: 0.2, note: '1117-family regulator in DPAK for better heat sinking.' },
  { manufacturer: 'STMicroelectronics', series: 'LDL1117', pkg: 'SOT-223', volts: [1.8, 2.5, 3.3, 5], mpn: (v) => `LDL1117S${vc2(v)}R`, iout: 1.2, vin: [2.5, 18], dropout: 0.35, iq: 250e-6, price: 0.2, note: 'Drop-in upgrade for 1117 sockets with much lower dropout and quiescent current.' },
  { manufacturer: 'STMicroelectronics', series: 'L78', pkg: 'TO-220AB', packaging: 'Tube', volts: [5, 9, 12, 15], mpn: (v) => `L78${String(v).padStart(2, '0')}CV`, iout: 1.5, vin: [7, 35], dropout: 2, iq: 5e-3, temp: [0, 125], price: 0.22, weight: 2, note: 'Classic 78xx three-terminal positive regulator with thermal shutdown.' },
  { manufacturer: 'STMicroelectronics', series: 'L78L', pkg: 'SOT-89', volts: [3.3, 5, 12], mpn: (v) => `L78L${v === 3.3 ? '33' : String(v).padStart(2, '0')}ACUTR`, iout: 0.1, vin: [5, 30], dropout: 1.7, iq: 6e-3, temp: [-40, 125], price: 0.08, note: 'Low-power 78Lxx regulator for auxiliary rails.' },
  { manufacturer: 'Advanced Monolithic Systems', series: 'AMS1117', pkg: 'SOT-223', volts: [1.2, 1.5, 1.8, 2.5, 2.85, 3.3, 5, 0], mpn: (v) => `AMS1117-${vdot(v)}`, iout: 1, vin: [2.6, 15], dropout: 1.3, iq: 5e-3, temp: [-40, 125], price: 0.06, weight: 4, note: 'The ubiquitous 1117: 1A, fixed or adjustable, on countless dev boards.' },
  { manufacturer: 'Microchip Technology', series: 'MCP1700', pkg: 'SOT-23', volts: [1.2, 1.8, 2.5, 2.8, 3.0, 3.3, 5], mpn: (v) => `MCP1700T-${vc2(v)}02E/TT`, iout: 0.25, vin: [2.3, 6], dropout: 0.178, iq: 1.6e-6, price: 0.3, weight: 2, note: '1.6uA quiescent current: battery-powered and energy-harvesting designs.' },
  { manufacturer: 'Microchip Technology', series: 'MCP1700', pkg: 'TO-92', packaging: 'Bulk', volts: [3.3, 5], mpn: (v) => `MCP1700-${vc2(v)}02E/TO`, iout: 0.25, vin: [2.3, 6], dropout: 0.178, iq: 1.6e-6, price: 0.32, note: '1.6uA quiescent current in a through-hole package for prototypes.' },
  { manufacturer: 'Microchip Technology', series: 'MCP1825S', pkg: 'SOT-223', volts: [1.8, 2.5, 3.3, 5], mpn: (v) => `MCP1825S-${vc2(v)}02E/DB`, iout: 0.5, vin: [2.1, 6], dropout: 0.21, iq: 120e-6, price: 0.55, note: '500mA CMOS LDO with fast transient response.' },
  { manufacturer: 'Diodes Incorporated', series: 'AP2112', pkg: 'SOT-23-5', volts: [1.2, 1.8, 2.5, 3.3], mpn: (v) => `AP2112K-${v.toFixed(1)}TRG1`, iout: 0.6, vin: [2.5, 6], dropout: 0.25, iq: 55e-6, price: 0.08, weight: 3, note: '600mA CMOS LDO with enable, popular on ESP32 and RP2040 boards.' },
  { manufacturer: 'Diodes Incorporated', series: 'AZ1117C', pkg: 'SOT-223', volts: [1.2, 1.8, 2.5, 3.3, 5, 0], mpn: (v) => `AZ1117CH-${vdot(v)}TRG1`, iout: 1, vin: [2.6, 18], dropout: 1.1, iq: 5e-3, price: 0.09, note: '1A 1117-family regulator.' },
  { manufacturer: 'onsemi', series: 'NCP1117', pkg: 'SOT-223', volts: [1.5, 1.8, 2.5, 3.3, 5, 0], mpn: (v) => `NCP1117ST${v === 0 ? 'A' : vc2(v)}T3G`, iout: 1, vin: [2.6, 20], dropout: 1.07, iq: 6e-3, price: 0.15, note: '1A 1117-family regulator, 20V maximum input.' },
  { manufacturer: 'onsemi', series: 'NCP114', pkg: 'SOT-23-5', volts: [1.2, 1.8, 2.5, 2.8, 3.3], mpn: (v) => `NCP114ASN${Math.round(v * 100)}T1G`, iout: 0.3, vin: [1.7, 5.5], dropout: 0.135, iq: 50e-6, psrr: '75dB@(1kHz)', price: 0.1, note: '300mA CMOS LDO with active output discharge.' },
  { manufacturer: 'Analog Devices', series: 'ADP150', pkg: 'SOT-23-5', volts: [1.8, 2.8, 3.0, 3.3], mpn: (v) => `ADP150AUJZ-${v.toFixed(1)}-R7`, iout: 0.15, vin: [2.2, 5.5], dropout: 0.105, iq: 10e-6, psrr: '70dB@(10kHz)', price: 0.85, note: 'Ultralow noise (9uVrms) LDO for ADC references, PLLs and RF.' },
];

function ldo(line: LdoLine, v: number): Candidate {
  const adj = v === 0;
  const mpn = line.mpn(v);
  const vout = adj ? `${si(1.25, 'V')}~${si(line.vin[1] - line.dropout, 'V')}` : si(v, 'V');
  const drop = `${si(line.dropout, 'V')}@(${si(line.iout, 'A')})`;
  const temp = line.temp ?? [-40, 125];
  const specs = [
    t('Output Type', adj ? 'Adjustable' : 'Fixed'),
    adj ? t('Output Voltage', vout) : q('Output Voltage', v, 'V'),
    q('Output Current', line.iout, 'A'),
    q('Input Voltage (Max)', line.vin[1], 'V'),
    t('Dropout Voltage', drop),
    q('Quiescent Current (Iq)', line.iq, 'A'),
    t('Number of Outputs', '1'),
    ...(line.psrr ? [t('Power Supply Rejection Ratio (PSRR)', line.psrr)] : []),
    opTemp(temp[0], temp[1]),
    t('Package', line.pkg),
  ];
  return {
    mpn,
    manufacturer: line.manufacturer,
    series: line.series,
    description: `${adj ? 'Adjustable' : 'Fixed'} ${vout} ${si(line.iout, 'A')} ${si(line.vin[1], 'V')} ${drop} ${si(line.iq, 'A')} Positive ${line.pkg} Linear Voltage Regulators (LDO)`,
    longDescription: `${si(line.iout, 'A')} ${line.dropout <= 0.5 ? 'low-dropout' : 'positive'} linear regulator, ${adj ? 'adjustable output' : `fixed ${vout} output`}, ${vRange(line.vin[0], line.vin[1])} input, ${si(line.iq, 'A')} quiescent current, ${line.pkg}. ${line.note}`,
    ...(line.alias ? { aliases: [line.alias(v)] } : {}),
    package: line.pkg,
    specs,
    price: line.price,
    packaging: line.packaging ?? 'Tape & Reel (TR)',
    pins: pinsOf(line.pkg),
    weight: (line.weight ?? 1) * (v === 3.3 ? 3 : v === 5 || v === 1.8 ? 1.5 : 1),
    pinned: ['TLV70033DDCR', 'LD1117S33TR', 'AMS1117-3.3'].includes(mpn),
    ...(line.status ? { status: line.status } : {}),
    datasheet: line.series,
  };
}

export const linearRegulators: Family = {
  id: 'ldo',
  category: ['Power Management ICs', 'Voltage Regulators', 'Linear Voltage Regulators (LDO)'],
  weight: 70,
  passive: false,
  candidates: () => LDO_LINES.flatMap((line) => line.volts.map((v) => ldo(line, v))),
};

// ---------------------------------------------------------------- DC-DC converters

type Row = readonly [
  mpn: string,
  series: string,
  manufacturer: string,
  topology: 'Buck' | 'Boost',
  vin: readonly [number, number],
  vout: number | readonly [number, number],
  iout: number,
  fsw: number,
  pkg: string,
  sync: boolean,
  price: number,
];

const DCDC: readonly Row[] = [
  ['TPS54331DR', 'TPS54331', 'Texas Instruments', 'Buck', [3.5, 28], [0.8, 25], 3, 570e3, 'SOIC-8', false, 0.55],
  ['TPS5430DDAR', 'TPS5430', 'Texas Instruments', 'Buck', [5.5, 36], [1.22, 31], 3, 500e3, 'SOIC-8-EP', false, 1.4],
  ['TPS563200DDCR', 'TPS563200', 'Texas Instruments', 'Buck', [4.5, 17], [0.76, 7], 3, 650e3, 'SOT-23-6', true, 0.35],
  ['TPS62160DGKR', 'TPS62160', 'Texas Instruments', 'Buck', [3, 17], [0.9, 6], 1, 2.25e6, 'MSOP-8', true, 0.9],
  ['TPS62130RGTR', 'TPS6213x', 'Texas Instruments', 'Buck', [3, 17], [0.9, 6], 3, 2.5e6, 'VQFN-16(3x3)', true, 1.3],
  ['TPS61023DRLR', 'TPS61023', 'Texas Instruments', 'Boost', [0.5, 5.5], [2.2, 5.5], 1, 1e6, 'SOT-563', true, 0.45],
  ['LMR33630ADDAR', 'LMR33630', 'Texas Instruments', 'Buck', [3.8, 36], [1, 24], 3, 400e3, 'SOIC-8-EP', true, 1.6],
  ['LM2596S-5.0/NOPB', 'LM2596', 'Texas Instruments', 'Buck', [4.5, 40], 5, 3, 150e3, 'TO-263-5', false, 2.1],
  ['LM2596S-3.3/NOPB', 'LM2596', 'Texas Instruments', 'Buck', [4.5, 40], 3.3, 3, 150e3, 'TO-263-5', false, 2.1],
  ['LM2596S-ADJ/NOPB', 'LM2596', 'Texas Instruments', 'Buck', [4.5, 40], [1.23, 37], 3, 150e3, 'TO-263-5', false, 2.1],
  ['ST1S10PHR', 'ST1S10', 'STMicroelectronics', 'Buck', [2.5, 18], [0.8, 16], 3, 900e3, 'SOIC-8-EP', true, 0.95],
  ['L5973D', 'L5973D', 'STMicroelectronics', 'Buck', [4.4, 36], [1.235, 35], 2.5, 250e3, 'SOIC-8-EP', false, 1.5],
  ['ST1S40IPHR', 'ST1S40', 'STMicroelectronics', 'Buck', [4, 18], [0.8, 16], 3, 850e3, 'SOIC-8-EP', true, 1.1],
  ['AP63203WU-7', 'AP6320x', 'Diodes Incorporated', 'Buck', [3.8, 32], 3.3, 2, 1.1e6, 'SOT-23-6', true, 0.32],
  ['AP63205WU-7', 'AP6320x', 'Diodes Incorporated', 'Buck', [3.8, 32], 5, 2, 1.1e6, 'SOT-23-6', true, 0.32],
  ['AP63200WU-7', 'AP6320x', 'Diodes Incorporated', 'Buck', [3.8, 32], [0.8, 31], 2, 500e3, 'SOT-23-6', true, 0.3],
  ['AP3012KTR-G1', 'AP3012', 'Diodes Incorporated', 'Boost', [2.6, 16], [3, 29], 0.5, 1e6, 'SOT-23-5', false, 0.2],
  ['AOZ1282CI', 'AOZ1282', 'Alpha & Omega Semiconductor', 'Buck', [3, 36], [0.8, 30], 1.2, 450e3, 'SOT-23-6', false, 0.28],
  ['AOZ1284PI', 'AOZ1284', 'Alpha & Omega Semiconductor', 'Buck', [3, 36], [0.8, 30], 4, 500e3, 'SOIC-8-EP', false, 0.6],
  ['MCP16311T-E/MS', 'MCP16311', 'Microchip Technology', 'Buck', [4.4, 30], [2, 24], 1, 500e3, 'MSOP-8', true, 0.95],
  ['MCP1640T-I/CHY', 'MCP1640', 'Microchip Technology', 'Boost', [0.65, 5.5], [2, 5.5], 0.35, 500e3, 'SOT-23-6', true, 0.5],
  ['ADP2108AUJZ-3.3-R7', 'ADP2108', 'Analog Devices', 'Buck', [2.3, 5.5], 3.3, 0.6, 3e6, 'SOT-23-5', true, 0.95],
  ['LT8610EMSE#PBF', 'LT8610', 'Analog Devices', 'Buck', [3.4, 42], [0.97, 40], 2.5, 2.2e6, 'MSOP-16-EP', true, 4.8],
  ['NCP3170ADR2G', 'NCP3170', 'onsemi', 'Buck', [4.5, 18], [0.8, 16], 3, 500e3, 'SOIC-8', true, 0.7],
  ['NCP1529ASNT1G', 'NCP1529', 'onsemi', 'Buck', [2.7, 5.5], [0.9, 3.9], 1, 1.7e6, 'SOT-23-5', true, 0.35],
];

function dcdc([mpn, series, manufacturer, topology, vin, vout, iout, fsw, pkg, sync, price]: Row): Candidate {
  const fixed = typeof vout === 'number';
  const voutText = typeof vout === 'number' ? si(vout, 'V') : vRange(vout[0], vout[1]);
  return {
    mpn,
    manufacturer,
    series,
    description: `${topology} ${vRange(vin[0], vin[1])} ${voutText} ${si(iout, 'A')} ${si(fsw, 'Hz')} ${fixed ? 'Fixed' : 'Adjustable'} ${pkg} DC-DC Converters`,
    longDescription: `${si(iout, 'A')} ${sync ? 'synchronous ' : ''}${topology === 'Buck' ? 'step-down' : 'step-up'} converter with integrated switch${sync ? 'es' : ''}, ${vRange(vin[0], vin[1])} input, ${fixed ? `fixed ${voutText}` : `${voutText} adjustable`} output, ${si(fsw, 'Hz')} switching, ${pkg}. Typical uses: ${topology === 'Buck' ? '12V/24V to logic rails, USB-powered boards' : 'single-cell and 2xAA to 3.3V/5V rails'}.`,
    package: pkg,
    specs: [
      t('Topology', topology),
      t('Function', topology === 'Buck' ? 'Step-down' : 'Step-up'),
      t('Input Voltage', vRange(vin[0], vin[1])),
      typeof vout === 'number' ? q('Output Voltage', vout, 'V') : t('Output Voltage', voutText),
      q('Output Current', iout, 'A'),
      q('Switching Frequency', fsw, 'Hz'),
      t('Output Type', fixed ? 'Fixed' : 'Adjustable'),
      t('Switch Type', 'Built-in'),
      t('Synchronous Rectifier', sync ? 'Yes' : 'No'),
      opTemp(-40, 125),
      t('Package', pkg),
    ],
    price,
    packaging: pkg.startsWith('TO-263') ? 'Tube' : 'Tape & Reel (TR)',
    pins: pinsOf(pkg),
    weight: ['TPS563200DDCR', 'AP63203WU-7', 'LM2596S-5.0/NOPB', 'TPS54331DR'].includes(mpn) ? 3 : 1,
    ...(mpn.startsWith('LM2596') ? { aliases: [mpn.replace('/NOPB', '')] } : {}),
    datasheet: series,
  };
}

export const dcdcConverters: Family = {
  id: 'dcdc',
  category: ['Power Management ICs', 'DC-DC Converters'],
  weight: 30,
  passive: false,
  candidates: () => DCDC.map(dcdc),
};
