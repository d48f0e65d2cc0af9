/** Operational amplifiers, comparators (with packaging/second-source variants of one base) and IC temperature sensors. */
import type { Candidate, Family } from '../model.ts';
import { opTemp, pinsOf, q, si, t, vRange } from '../units.ts';

/** One orderable variant of a base part: [manufacturer, mpn, package, packaging]. */
type Variant = readonly [string, string, string, string];

const TR = 'Tape & Reel (TR)';
const TUBE = 'Tube';

interface AmpBase {
  base: string;
  channels: 1 | 2 | 4;
  supply: readonly [number, number];
  /** Gain-bandwidth (op amps) in Hz, or propagation delay (comparators) in s. */
  speed: number;
  slew?: number;
  /** Quiescent current per channel (A). */
  iq: number;
  vos: number;
  io: string;
  temp: readonly [number, number];
  price: number;
  summary: string;
  uses: string;
  weight?: number;
  variants: readonly Variant[];
}

const TI = 'Texas Instruments';
const ST = 'STMicroelectronics';
const ON = 'onsemi';
const MCHP = 'Microchip Technology';
const ADI = 'Analog Devices';

const OPAMPS: readonly AmpBase[] = [
  {
    base: 'LM358', channels: 2, supply: [3, 32], speed: 0.7e6, slew: 0.3e6, iq: 350e-6, vos: 3e-3, io: 'Input includes ground', temp: [0, 70], price: 0.06, weight: 4,
    summary: 'Dual operational amplifier, 3-32 V single supply, low power', uses: 'sensor signal conditioning, active filters, comparators-in-a-pinch, battery monitors',
    variants: [[TI, 'LM358DR', 'SOIC-8', TR], [TI, 'LM358D', 'SOIC-8', TUBE], [TI, 'LM358DGKR', 'VSSOP-8', TR], [TI, 'LM358PWR', 'TSSOP-8', TR], [TI, 'LM358P', 'DIP-8', TUBE],
      [ON, 'LM358DR2G', 'SOIC-8', TR], [ON, 'LM358DMR2G', 'MSOP-8', TR], [ST, 'LM358DT', 'SOIC-8', TR], [ST, 'LM358D', 'SOIC-8', TUBE], [ST, 'LM358PT', 'TSSOP-8', TR], [ST, 'LM358N', 'DIP-8', TUBE]],
  },
  {
    base: 'LM324', channels: 4, supply: [3, 32], speed: 1.2e6, slew: 0.5e6, iq: 175e-6, vos: 3e-3, io: 'Input includes ground', temp: [0, 70], price: 0.08, weight: 3,
    summary: 'Quad operational amplifier, 3-32 V single supply', uses: 'multi-channel sensor front ends, LED drivers, simple filters',
    variants: [[TI, 'LM324DR', 'SOIC-14', TR], [TI, 'LM324D', 'SOIC-14', TUBE], [TI, 'LM324PWR', 'TSSOP-14', TR], [TI, 'LM324N', 'DIP-14', TUBE],
      [ON, 'LM324DR2G', 'SOIC-14', TR], [ST, 'LM324DT', 'SOIC-14', TR], [ST, 'LM324D', 'SOIC-14', TUBE], [ST, 'LM324PT', 'TSSOP-14', TR]],
  },
  {
    base: 'LM2904', channels: 2, supply: [3, 26], speed: 0.7e6, slew: 0.3e6, iq: 350e-6, vos: 3e-3, io: 'Input includes ground', temp: [-40, 125], price: 0.07, weight: 2,
    summary: 'Dual operational amplifier, 3-26 V single supply, automotive temperature range', uses: 'automotive and industrial sensing, current sense amplifiers',
    variants: [[TI, 'LM2904DR', 'SOIC-8', TR], [TI, 'LM2904DGKR', 'VSSOP-8', TR], [TI, 'LM2904PWR', 'TSSOP-8', TR], [ON, 'LM2904DR2G', 'SOIC-8', TR], [ON, 'LM2904DMR2G', 'MSOP-8', TR], [ST, 'LM2904DT', 'SOIC-8', TR], [ST, 'LM2904PT', 'TSSOP-8', TR]],
  },
  {
    base: 'TL072', channels: 2, supply: [6, 36], speed: 3e6, slew: 13e6, iq: 1.4e-3, vos: 3e-3, io: 'JFET input', temp: [0, 70], price: 0.12, weight: 2,
    summary: 'Dual low-noise JFET-input operational amplifier, ±3 V to ±18 V', uses: 'audio preamps, active filters, high-impedance sensor buffers',
    variants: [[TI, 'TL072CDR', 'SOIC-8', TR], [TI, 'TL072CP', 'DIP-8', TUBE], [TI, 'TL072IDR', 'SOIC-8', TR], [ST, 'TL072CDT', 'SOIC-8', TR], [ST, 'TL072IDT', 'SOIC-8', TR], [ST, 'TL072CN', 'DIP-8', TUBE]],
  },
  {
    base: 'TL074', channels: 4, supply: [6, 36], speed: 3e6, slew: 13e6, iq: 1.4e-3, vos: 3e-3, io: 'JFET input', temp: [0, 70], price: 0.16,
    summary: 'Quad low-noise JFET-input operational amplifier', uses: 'audio mixers, multi-pole filters',
    variants: [[TI, 'TL074CDR', 'SOIC-14', TR], [TI, 'TL074IDR', 'SOIC-14', TR], [ST, 'TL074CDT', 'SOIC-14', TR], [ST, 'TL074IDT', 'SOIC-14', TR]],
  },
  {
    base: 'NE5532', channels: 2, supply: [10, 30], speed: 10e6, slew: 9e6, iq: 4e-3, vos: 0.5e-3, io: 'Low noise 5nV/√Hz', temp: [0, 70], price: 0.22,
    summary: 'Dual low-noise audio operational amplifier', uses: 'professional audio, line drivers, microphone preamps',
    variants: [[TI, 'NE5532DR', 'SOIC-8', TR], [TI, 'NE5532P', 'DIP-8', TUBE], [TI, 'NE5532AIDR', 'SOIC-8', TR], [ST, 'NE5532N', 'DIP-8', TUBE]],
  },
  {
    base: 'LMV321', channels: 1, supply: [2.7, 5.5], speed: 1e6, slew: 1e6, iq: 130e-6, vos: 1.7e-3, io: 'Rail-to-Rail Output', temp: [-40, 125], price: 0.06, weight: 2,
    summary: 'Single low-voltage rail-to-rail output operational amplifier', uses: 'portable sensor amplifiers, low-side current sensing',
    variants: [[TI, 'LMV321IDBVR', 'SOT-23-5', TR], [TI, 'LMV321IDCKR', 'SC-70-5', TR], [ST, 'LMV321ILT', 'SOT-23-5', TR], [ON, 'LMV321SN3T1G', 'SOT-23-5', TR]],
  },
  {
    base: 'LMV358', channels: 2, supply: [2.7, 5.5], speed: 1e6, slew: 1e6, iq: 130e-6, vos: 1.7e-3, io: 'Rail-to-Rail Output', temp: [-40, 125], price: 0.08,
    summary: 'Dual low-voltage rail-to-rail output operational amplifier', uses: '3.3 V and 5 V signal conditioning',
    variants: [[TI, 'LMV358IDR', 'SOIC-8', TR], [TI, 'LMV358IDGKR', 'VSSOP-8', TR], [ON, 'LMV358DMR2G', 'MSOP-8', TR]],
  },
  {
    base: 'OPA333', channels: 1, supply: [1.8, 5.5], speed: 350e3, slew: 0.16e6, iq: 17e-6, vos: 10e-6, io: 'Rail-to-Rail Input/Output', temp: [-40, 125], price: 0.95,
    summary: 'Single zero-drift (chopper) micropower CMOS operational amplifier, 10 uV max offset', uses: 'bridge sensors, precision current shunts, battery-powered instruments',
    variants: [[TI, 'OPA333AIDBVR', 'SOT-23-5', TR], [TI, 'OPA333AIDCKR', 'SC-70-5', TR]],
  },
  {
    base: 'OPA2333', channels: 2, supply: [1.8, 5.5], speed: 350e3, slew: 0.16e6, iq: 17e-6, vos: 10e-6, io: 'Rail-to-Rail Input/Output', temp: [-40, 125], price: 1.6,
    summary: 'Dual zero-drift micropower CMOS operational amplifier', uses: 'precision bridge and thermocouple front ends',
    variants: [[TI, 'OPA2333AIDR', 'SOIC-8', TR], [TI, 'OPA2333AIDGKR', 'VSSOP-8', TR]],
  },
  {
    base: 'TLV900x', channels: 2, supply: [1.8, 5.5], speed: 1e6, slew: 2e6, iq: 60e-6, vos: 0.4e-3, io: 'Rail-to-Rail Input/Output', temp: [-40, 125], price: 0.1, weight: 2,
    summary: 'Dual 1 MHz rail-to-rail input/output low-power operational amplifier', uses: 'general-purpose 3.3 V analog, replacing LM358 in low-voltage designs',
    variants: [[TI, 'TLV9002IDR', 'SOIC-8', TR], [TI, 'TLV9002IDGKR', 'VSSOP-8', TR], [TI, 'TLV9002IPWR', 'TSSOP-8', TR], [TI, 'TLV9001IDBVR', 'SOT-23-5', TR], [TI, 'TLV9004IPWR', 'TSSOP-14', TR]],
  },
  {
    base: 'TLV906x', channels: 2, supply: [1.8, 5.5], speed: 10e6, slew: 6.5e6, iq: 538e-6, vos: 0.3e-3, io: 'Rail-to-Rail Input/Output', temp: [-40, 125], price: 0.18,
    summary: 'Dual 10 MHz rail-to-rail input/output operational amplifier', uses: 'ADC drivers, active filters, photodiode amplifiers',
    variants: [[TI, 'TLV9062IDR', 'SOIC-8', TR], [TI, 'TLV9062IDGKR', 'VSSOP-8', TR], [TI, 'TLV9061IDBVR', 'SOT-23-5', TR]],
  },
  {
    base: 'MCP600x', channels: 2, supply: [1.8, 6], speed: 1e6, slew: 0.6e6, iq: 100e-6, vos: 4.5e-3, io: 'Rail-to-Rail Input/Output', temp: [-40, 85], price: 0.22, weight: 2,
    summary: 'Dual 1 MHz low-power rail-to-rail operational amplifier', uses: 'battery-powered sensor amplifiers, audio, filters',
    variants: [[MCHP, 'MCP6001T-I/OT', 'SOT-23-5', TR], [MCHP, 'MCP6001RT-I/OT', 'SOT-23-5', TR], [MCHP, 'MCP6002T-I/SN', 'SOIC-8', TR], [MCHP, 'MCP6002-I/P', 'DIP-8', TUBE], [MCHP, 'MCP6004T-I/SL', 'SOIC-14', TR]],
  },
  {
    base: 'AD860x', channels: 1, supply: [2.7, 5.5], speed: 10e6, slew: 5e6, iq: 1e-3, vos: 65e-6, io: 'Rail-to-Rail Input/Output', temp: [-40, 125], price: 1.2,
    summary: 'Precision low-noise CMOS rail-to-rail input/output operational amplifier', uses: 'photodiode and barcode scanner front ends, ADC buffers',
    variants: [[ADI, 'AD8605ARTZ-REEL7', 'SOT-23-5', TR], [ADI, 'AD8606ARZ-REEL7', 'SOIC-8', TR], [ADI, 'AD8608ARZ-REEL7', 'SOIC-14', TR]],
  },
  {
    base: 'AD8628/9', channels: 1, supply: [2.7, 5], speed: 2.5e6, slew: 1e6, iq: 850e-6, vos: 5e-6, io: 'Rail-to-Rail Input/Output', temp: [-40, 125], price: 1.9,
    summary: 'Zero-drift, single-supply rail-to-rail operational amplifier', uses: 'strain gauges, thermocouples, precision current sensing',
    variants: [[ADI, 'AD8628ARTZ-REEL7', 'SOT-23-5', TR], [ADI, 'AD8629ARZ-REEL7', 'SOIC-8', TR]],
  },
  {
    base: 'OP07', channels: 1, supply: [6, 36], speed: 0.6e6, slew: 0.3e6, iq: 2.5e-3, vos: 75e-6, io: 'Bipolar input', temp: [-40, 85], price: 0.35,
    summary: 'Ultralow offset voltage precision bipolar operational amplifier', uses: 'instrumentation, thermocouple and bridge amplifiers',
    variants: [[ADI, 'OP07CSZ-REEL7', 'SOIC-8', TR], [TI, 'OP07CDR', 'SOIC-8', TR], [ST, 'OP07CDT', 'SOIC-8', TR]],
  },
  {
    base: 'TSV91x', channels: 2, supply: [2.5, 5.5], speed: 8e6, slew: 4.5e6, iq: 820e-6, vos: 4.5e-3, io: 'Rail-to-Rail Input/Output', temp: [-40, 125], price: 0.3,
    summary: 'Wide-bandwidth (8 MHz) rail-to-rail input/output CMOS operational amplifier', uses: 'ADC drivers and active filters on 3.3 V rails',
    variants: [[ST, 'TSV911ILT', 'SOT-23-5', TR], [ST, 'TSV912IDT', 'SOIC-8', TR], [ST, 'TSV912IST', 'MSOP-8', TR], [ST, 'TSV914IDT', 'SOIC-14', TR]],
  },
];

const COMPARATORS: readonly AmpBase[] = [
  {
    base: 'LM393', channels: 2, supply: [2, 36], speed: 1.3e-6, iq: 200e-6, vos: 2e-3, io: 'Open Collector', temp: [0, 70], price: 0.05, weight: 4,
    summary: 'Dual differential comparator, 2-36 V single supply, open-collector outputs', uses: 'threshold detectors, window comparators, zero-crossing detection',
    variants: [[TI, 'LM393DR', 'SOIC-8', TR], [TI, 'LM393D', 'SOIC-8', TUBE], [TI, 'LM393PWR', 'TSSOP-8', TR], [TI, 'LM393P', 'DIP-8', TUBE], [ON, 'LM393DR2G', 'SOIC-8', TR], [ON, 'LM393DMR2G', 'MSOP-8', TR], [ST, 'LM393DT', 'SOIC-8', TR], [ST, 'LM393PT', 'TSSOP-8', TR], [ST, 'LM393N', 'DIP-8', TUBE]],
  },
  {
    base: 'LM339', channels: 4, supply: [2, 36], speed: 1.3e-6, iq: 200e-6, vos: 2e-3, io: 'Open Collector', temp: [0, 70], price: 0.07, weight: 2,
    summary: 'Quad differential comparator, open-collector outputs', uses: 'multi-threshold monitors, bar-graph drivers',
    variants: [[TI, 'LM339DR', 'SOIC-14', TR], [TI, 'LM339PWR', 'TSSOP-14', TR], [ON, 'LM339DR2G', 'SOIC-14', TR], [ST, 'LM339DT', 'SOIC-14', TR], [ST, 'LM339PT', 'TSSOP-14', TR]],
  },
  {
    base: 'LM2903', channels: 2, supply: [2, 36], speed: 1.5e-6, iq: 200e-6, vos: 2e-3, io: 'Open Collector', temp: [-40, 125], price: 0.06,
    summary: 'Dual differential comparator, automotive temperature range', uses: 'automotive sensing, supervisory circuits',
    variants: [[TI, 'LM2903DR', 'SOIC-8', TR], [TI, 'LM2903PWR', 'TSSOP-8', TR], [ON, 'LM2903DR2G', 'SOIC-8', TR], [ON, 'LM2903VDR2G', 'SOIC-8', TR], [ST, 'LM2903DT', 'SOIC-8', TR]],
  },
  {
    base: 'LMV331/393', channels: 1, supply: [2.7, 5.5], speed: 0.2e-6, iq: 60e-6, vos: 1.7e-3, io: 'Open Collector', temp: [-40, 125], price: 0.07,
    summary: 'Single low-voltage comparator, open-drain output', uses: '3.3 V threshold detection, wake-up comparators',
    variants: [[TI, 'LMV331IDBVR', 'SOT-23-5', TR], [TI, 'LMV331IDCKR', 'SC-70-5', TR], [TI, 'LMV393IDR', 'SOIC-8', TR]],
  },
  {
    base: 'TLV3201', channels: 1, supply: [2.7, 5.5], speed: 40e-9, iq: 40e-6, vos: 1e-3, io: 'Push-Pull', temp: [-40, 125], price: 0.45,
    summary: '40 ns, low-power, push-pull output comparator', uses: 'fast zero-crossing detection, pulse-width measurement',
    variants: [[TI, 'TLV3201AIDBVR', 'SOT-23-5', TR], [TI, 'TLV3201AIDCKR', 'SC-70-5', TR]],
  },
  {
    base: 'MCP654x', channels: 1, supply: [1.6, 5.5], speed: 4e-6, iq: 600e-9, vos: 5e-3, io: 'Push-Pull', temp: [-40, 85], price: 0.3,
    summary: 'Nanopower (600 nA) push-pull output comparator', uses: 'battery monitors, always-on wake-up detection',
    variants: [[MCHP, 'MCP6541T-I/OT', 'SOT-23-5', TR], [MCHP, 'MCP6542T-I/SN', 'SOIC-8', TR]],
  },
  {
    base: 'MCP656x', channels: 1, supply: [1.8, 5.5], speed: 47e-9, iq: 100e-6, vos: 10e-3, io: 'Push-Pull', temp: [-40, 125], price: 0.28,
    summary: 'High-speed (47 ns) push-pull output comparator', uses: 'level translation, fast threshold detection',
    variants: [[MCHP, 'MCP6561T-E/OT', 'SOT-23-5', TR], [MCHP, 'MCP6562T-E/SN', 'SOIC-8', TR]],
  },
  {
    base: 'ADCMP600', channels: 1, supply: [2.5, 5.5], speed: 3.5e-9, iq: 4e-3, vos: 1e-3, io: 'Push-Pull', temp: [-40, 125], price: 1.7,
    summary: 'Rail-to-rail, very fast (3.5 ns) single-supply TTL/CMOS comparator', uses: 'clock recovery, time-of-flight and high-speed triggers',
    variants: [[ADI, 'ADCMP600BRJZ-R2', 'SOT-23-5', TR]],
  },
];

const CHANNELS_IN_MPN: Record<string, 1 | 2 | 4> = {
  TLV9001IDBVR: 1, TLV9004IPWR: 4, TLV9061IDBVR: 1, 'MCP6001T-I/OT': 1, 'MCP6001RT-I/OT': 1, 'MCP6004T-I/SL': 4,
  'AD8606ARZ-REEL7': 2, 'AD8608ARZ-REEL7': 4, 'AD8629ARZ-REEL7': 2, TSV911ILT: 1, TSV914IDT: 4, LMV393IDR: 2, 'MCP6542T-I/SN': 2, 'MCP6562T-E/SN': 2,
};

const WORD = { 1: 'Single', 2: 'Dual', 4: 'Quad' } as const;

function amp(b: AmpBase, [manufacturer, mpn, pkg, packaging]: Variant, comparator: boolean): Candidate {
  const channels = CHANNELS_IN_MPN[mpn] ?? b.channels;
  const supply = vRange(b.supply[0], b.supply[1]);
  const speedSpec = comparator ? q('Propagation Delay', b.speed, 's') : q('Gain Bandwidth Product (GBP)', b.speed, 'Hz');
  const specs = [
    t('Number of Channels', String(channels)),
    t('Supply Voltage', supply),
    speedSpec,
    ...(b.slew ? [q('Slew Rate (SR)', b.slew, 'V/s', `${parseFloat((b.slew / 1e6).toPrecision(3))}V/us`)] : []),
    q('Quiescent Current (Iq)', b.iq * channels, 'A'),
    q('Input Offset Voltage (Vos)', b.vos, 'V'),
    t(comparator ? 'Output Type' : 'Input/Output Type', b.io),
    opTemp(b.temp[0], b.temp[1]),
    t('Package', pkg),
  ];
  const kind = comparator ? 'Comparator' : 'Operational Amplifier';
  const same = channels === b.channels;
  return {
    mpn,
    manufacturer,
    series: b.base,
    description: `${WORD[channels]} ${kind} ${supply} ${si(b.speed, comparator ? 's' : 'Hz')} ${b.io} ${pkg} ${comparator ? 'Comparators' : 'Operational Amplifiers'}`,
    longDescription: `${same ? b.summary : `${WORD[channels]}-channel version: ${b.summary.replace(/^(Single|Dual|Quad) /, '').replace(/^./, (c) => c.toLowerCase())}`}, ${pkg}. Typical uses: ${b.uses}.`,
    package: pkg,
    specs,
    price: b.price * (channels / b.channels) ** 0.5 * (packaging === TUBE ? 1.15 : 1),
    packaging,
    pins: pinsOf(pkg),
    weight: (b.weight ?? 1) * (packaging === TR && pkg.startsWith('SOIC') ? 2 : 1),
    pinned: ['LM358DR', 'LM358D', 'LM358DGKR', 'LM358DR2G', 'LM358DT', 'LM393DR'].includes(mpn),
    datasheet: b.base,
  };
}

export const opAmps: Family = {
  id: 'opamps',
  category: ['Amplifiers', 'Operational Amplifiers'],
  weight: 70,
  passive: false,
  candidates: () => OPAMPS.flatMap((b) => b.variants.map((v) => amp(b, v, false))),
};

export const comparators: Family = {
  id: 'comparators',
  category: ['Amplifiers', 'Comparators'],
  weight: 28,
  passive: false,
  candidates: () => COMPARATORS.flatMap((b) => b.variants.map((v) => amp(b, v, true))),
};

// ---------------------------------------------------------------- Temperature sensors

type SensorRow = readonly [
  mpn: string,
  manufacturer: string,
  series: string,
  pkg: string,
  iface: string,
  accuracy: number,
  supply: readonly [number, number],
  range: readonly [number, number],
  price: number,
  alias?: string,
];

const SENSORS: readonly SensorRow[] = [
  ['TMP102AIDRLR', TI, 'TMP102', 'SOT-563', 'I2C', 2, [1.4, 3.6], [-40, 125], 0.75],
  ['TMP112AIDRLR', TI, 'TMP112', 'SOT-563', 'I2C', 0.5, [1.4, 3.6], [-40, 125], 0.9],
  ['TMP117AIDRVR', TI, 'TMP117', 'WSON-6', 'I2C', 0.1, [1.8, 5.5], [-55, 150], 2.4],
  ['TMP1075DGKR', TI, 'TMP1075', 'VSSOP-8', 'I2C', 1, [1.7, 5.5], [-55, 125], 0.45],
  ['LM35DZ/NOPB', TI, 'LM35', 'TO-92', 'Analog 10mV/℃', 0.6, [4, 30], [0, 100], 1.1, 'LM35DZ'],
  ['LMT86DCKR', TI, 'LMT86', 'SC-70-5', 'Analog', 0.4, [2.2, 5.5], [-50, 150], 0.4],
  ['TMP36GT9Z', ADI, 'TMP36', 'TO-92', 'Analog 10mV/℃', 2, [2.7, 5.5], [-40, 125], 1.2],
  ['TMP36GRTZ-REEL7', ADI, 'TMP36', 'SOT-23-5', 'Analog 10mV/℃', 2, [2.7, 5.5], [-40, 125], 1],
  ['ADT7410TRZ', ADI, 'ADT7410', 'SOIC-8', 'I2C', 0.5, [2.7, 5.5], [-55, 150], 3.2],
  ['ADT7420UCPZ-R2', ADI, 'ADT7420', 'LFCSP-16(4x4)', 'I2C', 0.25, [2.7, 5.5], [-40, 150], 4.1],
  ['MCP9808T-E/MS', MCHP, 'MCP9808', 'MSOP-8', 'I2C', 0.5, [2.7, 5.5], [-40, 125], 0.95],
  ['MCP9700AT-E/TT', MCHP, 'MCP9700', 'SOT-23', 'Analog 10mV/℃', 2, [2.3, 5.5], [-40, 125], 0.2],
  ['MCP9701AT-E/TT', MCHP, 'MCP9701', 'SOT-23', 'Analog 19.5mV/℃', 2, [3.1, 5.5], [-40, 125], 0.2],
  ['TC74A0-3.3VCTTR', MCHP, 'TC74', 'SOT-23-5', 'I2C, SMBus', 2, [2.7, 5.5], [-40, 125], 0.6],
  ['STTS751-0DP3F', ST, 'STTS751', 'UDFN-6(2x2)', 'I2C, SMBus', 1, [2.25, 3.6], [-40, 125], 0.5],
  ['STLM75M2F', ST, 'STLM75', 'SOIC-8', 'I2C', 2, [2.7, 5.5], [-55, 125], 0.55],
  ['STTS22HTR', ST, 'STTS22H', 'UDFN-6(2x2)', 'I2C', 0.5, [1.5, 3.6], [-40, 125], 0.7],
  ['LM75BD', 'Nexperia', 'LM75B', 'SOIC-8', 'I2C', 2, [2.8, 5.5], [-55, 125], 0.45, 'LM75BD,118'],
  ['LM75BDP', 'Nexperia', 'LM75B', 'TSSOP-8', 'I2C', 2, [2.8, 5.5], [-55, 125], 0.45, 'LM75BDP,118'],
  ['NCT75DMR2G', ON, 'NCT75', 'MSOP-8', 'I2C, SMBus', 1, [3, 5.5], [-55, 125], 0.5],
];

export const temperatureSensors: Family = {
  id: 'temperature-sensors',
  category: ['Sensors', 'Temperature Sensors'],
  weight: 20,
  passive: false,
  candidates: () =>
    SENSORS.map(([mpn, manufacturer, series, pkg, iface, acc, supply, range, price, alias]) => {
      const analog = iface.startsWith('Analog');
      return {
        mpn,
        manufacturer,
        series,
        description: `${opTemp(range[0], range[1]).value} ±${acc}℃ ${vRange(supply[0], supply[1])} ${iface} ${pkg} Temperature Sensors`,
        longDescription: `${analog ? 'Analog-output' : 'Digital'} temperature sensor, ±${acc}℃ accuracy, ${opTemp(range[0], range[1]).value}, ${vRange(supply[0], supply[1])} supply, ${analog ? iface.replace('Analog ', '') + ' output' : `${iface} interface`}, ${pkg}. Typical uses: board and enclosure temperature monitoring${acc <= 0.25 ? ', medical and cold-chain logging' : ''}.`,
        ...(alias ? { aliases: [alias] } : {}),
        package: pkg,
        specs: [
          q('Accuracy', acc, '℃', `±${acc}℃`),
          t('Temperature Range', opTemp(range[0], range[1]).value),
          t('Supply Voltage', vRange(supply[0], supply[1])),
          t('Output Type', analog ? 'Analog' : 'Digital'),
          t('Interface', iface),
          opTemp(range[0], range[1]),
          t('Package', pkg),
        ],
        price,
        packaging: pkg === 'TO-92' ? 'Bulk' : 'Tape & Reel (TR)',
        pins: pinsOf(pkg),
        weight: ['TMP102AIDRLR', 'LM75BD', 'MCP9808T-E/MS'].includes(mpn) ? 2 : 1,
        datasheet: series,
      } satisfies Candidate;
    }),
};
