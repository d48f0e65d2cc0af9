/**
 * spec-vocabulary.ts — the words query understanding (understand.ts) knows: part families, the spec
 * names a quantity may be stored under, qualifier words, value words (dielectrics, channel types...)
 * and package codes.
 *
 * Spec names come from the two sources the service ingests: the sample generator (src/sample/, Title
 * Case: "Voltage Rated", "Power(Watts)", "Drain Source Voltage (Vdss)") and real catalogue dumps
 * (sentence case: "Allowable voltage", "Power", "Drain to source voltage", "Continuous drain current (id)").
 * Every list is "best first": the name the sample generator writes, then the names real dumps use,
 * most frequent first. A list holds each name once ignoring case ("Output Voltage" covers the dumps'
 * "Output voltage"), so engines must compare names case-insensitively; spellings that differ in
 * punctuation ("Voltage Rated" / "Voltage - Rated") are listed separately. `satisfies` compares by
 * `specNameKey` (case- and punctuation-insensitive).
 *
 * How a quantity becomes a constraint ("role"):
 *   1. its unit (typed, or inferred: "4u7" -> F, "10k" -> Ω; see understand.ts);
 *   2. a qualifier word right before or after it ("vin 12V", "12V input", "esr 10mΩ", "8KB RAM") -> QUALIFIERS;
 *   3. otherwise the query's family context ("3.3V LDO" -> output voltage, "30V MOSFET" -> Vdss) -> CONTEXT_ROLES;
 *   4. otherwise the unit's default role (DEFAULT_ROLES).
 * A role fixes the spec names, the default comparison (ratings are "at least", parasitics "at most",
 * nominal values "equals" within a relative window) and whether a typed range must be covered by the
 * part ("-40 to 85C" operating temperature, "2.7-5.5V" supply) rather than merely overlap it.
 */
import type { SiUnit } from '../catalog/units.ts';

export type ConstraintKind = 'equals' | 'at_least' | 'at_most';

/** Case- and punctuation-insensitive key of a spec name: "Voltage - supply" and "Voltage-Supply" -> "voltagesupply". */
export function specNameKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

// ---------------------------------------------------------------- families

/** Canonical part families ("hints"): a query word naming one of them sets the context for its quantities. */
export type Family =
  | 'resistor' | 'potentiometer' | 'thermistor' | 'varistor'
  | 'capacitor' | 'inductor' | 'ferrite bead'
  | 'ldo' | 'regulator' | 'dc-dc' | 'voltage reference'
  | 'mosfet' | 'bjt' | 'transistor' | 'igbt'
  | 'op amp' | 'comparator' | 'amplifier'
  | 'diode' | 'schottky' | 'zener' | 'tvs' | 'bridge rectifier' | 'led'
  | 'crystal' | 'oscillator' | 'mcu' | 'memory' | 'adc' | 'dac' | 'sensor' | 'optocoupler' | 'gate driver'
  | 'fuse' | 'relay' | 'connector' | 'switch' | 'buzzer' | 'transformer';

/** Families too broad to decide a context when a more specific one is also named ("zener diode" -> zener). */
export const GENERIC_FAMILIES: ReadonlySet<Family> = new Set<Family>(['diode', 'transistor', 'amplifier', 'regulator']);

/** Lower-case words and phrases (space-separated; hyphens count as spaces) -> family. */
export const FAMILY_WORDS: ReadonlyMap<string, Family> = new Map<string, Family>([
  ['resistor', 'resistor'], ['resistors', 'resistor'], ['res', 'resistor'], ['shunt', 'resistor'],
  ['potentiometer', 'potentiometer'], ['potentiometers', 'potentiometer'], ['pot', 'potentiometer'],
  ['trimmer', 'potentiometer'], ['trimpot', 'potentiometer'],
  ['thermistor', 'thermistor'], ['ntc', 'thermistor'], ['ptc', 'thermistor'],
  ['varistor', 'varistor'], ['mov', 'varistor'],
  ['capacitor', 'capacitor'], ['capacitors', 'capacitor'], ['cap', 'capacitor'], ['caps', 'capacitor'],
  ['mlcc', 'capacitor'], ['electrolytic', 'capacitor'], ['tantalum', 'capacitor'], ['supercap', 'capacitor'],
  ['supercapacitor', 'capacitor'], ['condenser', 'capacitor'],
  ['inductor', 'inductor'], ['inductors', 'inductor'], ['choke', 'inductor'], ['chokes', 'inductor'],
  ['power inductor', 'inductor'],
  ['ferrite', 'ferrite bead'], ['bead', 'ferrite bead'], ['ferrite bead', 'ferrite bead'], ['beads', 'ferrite bead'],
  ['ldo', 'ldo'], ['ldos', 'ldo'], ['linear regulator', 'ldo'], ['low dropout', 'ldo'],
  ['regulator', 'regulator'], ['regulators', 'regulator'], ['voltage regulator', 'regulator'],
  ['dc dc', 'dc-dc'], ['dcdc', 'dc-dc'], ['dc/dc', 'dc-dc'], ['buck', 'dc-dc'], ['boost', 'dc-dc'],
  ['buck boost', 'dc-dc'], ['converter', 'dc-dc'], ['step down', 'dc-dc'], ['step up', 'dc-dc'],
  ['switching regulator', 'dc-dc'],
  ['voltage reference', 'voltage reference'], ['vref', 'voltage reference'], ['shunt reference', 'voltage reference'],
  ['mosfet', 'mosfet'], ['mosfets', 'mosfet'], ['fet', 'mosfet'], ['nmos', 'mosfet'], ['pmos', 'mosfet'],
  ['n channel', 'mosfet'], ['p channel', 'mosfet'], ['n ch', 'mosfet'], ['p ch', 'mosfet'], ['nch', 'mosfet'], ['pch', 'mosfet'],
  ['bjt', 'bjt'], ['npn', 'bjt'], ['pnp', 'bjt'], ['transistor', 'transistor'], ['transistors', 'transistor'],
  ['igbt', 'igbt'], ['igbts', 'igbt'],
  ['op amp', 'op amp'], ['opamp', 'op amp'], ['op amps', 'op amp'], ['opamps', 'op amp'],
  ['operational amplifier', 'op amp'], ['comparator', 'comparator'], ['comparators', 'comparator'],
  ['amplifier', 'amplifier'], ['amplifiers', 'amplifier'], ['amp', 'amplifier'],
  ['diode', 'diode'], ['diodes', 'diode'], ['rectifier', 'diode'],
  ['schottky', 'schottky'], ['zener', 'zener'], ['tvs', 'tvs'], ['esd', 'tvs'],
  ['bridge rectifier', 'bridge rectifier'], ['bridge rectifiers', 'bridge rectifier'],
  ['led', 'led'], ['leds', 'led'], ['light emitting diode', 'led'], ['light emitting diodes', 'led'],
  ['crystal', 'crystal'], ['crystals', 'crystal'], ['xtal', 'crystal'], ['quartz', 'crystal'], ['resonator', 'crystal'],
  ['oscillator', 'oscillator'], ['oscillators', 'oscillator'], ['tcxo', 'oscillator'], ['vcxo', 'oscillator'],
  ['mcu', 'mcu'], ['mcus', 'mcu'], ['microcontroller', 'mcu'], ['microcontrollers', 'mcu'],
  ['eeprom', 'memory'], ['sram', 'memory'], ['memory', 'memory'], ['flash memory', 'memory'],
  ['adc', 'adc'], ['adcs', 'adc'], ['dac', 'dac'], ['dacs', 'dac'], ['sensor', 'sensor'], ['sensors', 'sensor'],
  ['optocoupler', 'optocoupler'], ['optocouplers', 'optocoupler'], ['opto', 'optocoupler'], ['photocoupler', 'optocoupler'],
  ['gate driver', 'gate driver'], ['gate drivers', 'gate driver'], ['gate drive', 'gate driver'],
  ['fuse', 'fuse'], ['fuses', 'fuse'], ['polyfuse', 'fuse'], ['relay', 'relay'], ['relays', 'relay'],
  ['connector', 'connector'], ['connectors', 'connector'], ['header', 'connector'], ['headers', 'connector'],
  ['socket', 'connector'], ['sockets', 'connector'], ['terminal block', 'connector'], ['terminal blocks', 'connector'],
  ['switch', 'switch'], ['switches', 'switch'], ['buzzer', 'buzzer'], ['buzzers', 'buzzer'],
  ['transformer', 'transformer'], ['transformers', 'transformer'],
]);

/** Longest phrase in FAMILY_WORDS / VALUE_WORDS, in words. */
export const LONGEST_PHRASE = 3;

// ---------------------------------------------------------------- roles (spec name lists)

export interface SpecRole {
  /** Spec display names, best first. */
  names: readonly string[];
  unit: SiUnit;
  /** Comparison when the query states none. */
  kind: ConstraintKind;
  /** Relative half-width of the acceptance window of an `equals` target (default 0.01). */
  window?: number;
  /** A typed range must be covered by the part's range (min <= lo and max >= hi), not just overlapped. */
  covering?: boolean;
}

const OPERATING_TEMPERATURE = [
  'Operating Temperature', 'Operating temperature range', 'Temperature Range',
  'Operating Junction Temperature', 'Operating junction temperature range', 'Operating Temperature (Max)',
];
const SUPPLY_VOLTAGE = [
  'Supply Voltage', 'Voltage - supply', 'Single supply', 'Operating Voltage', 'Voltage - Supply (Vcc/Vdd)',
  'Input Voltage', 'Voltage - input(dc)', 'Low voltage detection threshold',
];
const OUTPUT_VOLTAGE = ['Output Voltage', 'Voltage - Output', 'Voltage - Output (Min/Fixed)', 'Output Voltage (Fixed)'];
const CAP_VOLTAGE = [
  'Voltage Rated', 'Allowable voltage', 'Voltage - Rated', 'Rated Voltage', 'Voltage Rating',
  'Voltage rating (dc)', 'Rated voltage (max)', 'Voltage(ac)', 'Voltage',
];
const CURRENT_RATING = ['Current Rating', 'Rated current', 'Current - Rated', 'Current Rating (Amps)', 'Current rating-power', 'Current rating - power (max)'];
const OUTPUT_CURRENT = ['Output Current', 'Output current(max)', 'Current - Output', 'Output Current (Max)'];
const DRAIN_CURRENT = ['Continuous Drain Current (Id)', 'Current - Continuous Drain (Id)', 'Drain Current'];
const RECTIFIED_CURRENT = ['Average Rectified Current (Io)', 'Rectified current', 'Current - Average Rectified (Io)'];
const FORWARD_CURRENT = ['Forward Current (If)', 'Forward current', 'Forward current(if)'];
const COLLECTOR_CURRENT = ['Collector Current (Ic)', 'Current - collector(ic)', 'Current - Collector (Ic) (Max)'];
const RESISTOR_POWER = ['Power(Watts)', 'Power', 'Power Rating', 'Power - Rated'];
const DISSIPATION = ['Power Dissipation (Pd)', 'Power dissipation', 'Power - Max', 'Power'];
const FREQUENCY = ['Frequency', 'Nominal Frequency', 'Frequency (Nominal)'];
const FREQ_TOLERANCE = [
  'Frequency Tolerance', 'Normal temperature frequency tolerance', 'Frequency Stability',
  'Frequency stability(full temperature range)',
];
const TEMPCO = ['Temperature Coefficient', 'Temperature Coefficient (TCR)', 'TCR'];

export const ROLES = {
  resistance: { names: ['Resistance', 'Resistance (Ohms)'], unit: 'Ω', kind: 'equals' },
  capacitance: { names: ['Capacitance'], unit: 'F', kind: 'equals' },
  inductance: { names: ['Inductance'], unit: 'H', kind: 'equals' },
  frequency: { names: FREQUENCY, unit: 'Hz', kind: 'equals' },
  tolerance: { names: ['Tolerance'], unit: '%', kind: 'at_most' },
  efficiency: { names: ['Efficiency', 'Conversion efficiency'], unit: '%', kind: 'at_least' },
  temperature: { names: OPERATING_TEMPERATURE, unit: '℃', kind: 'at_least', covering: true },

  // voltage
  capVoltage: { names: CAP_VOLTAGE, unit: 'V', kind: 'at_least' },
  resistorVoltage: {
    names: ['Voltage Rating', 'Overload Voltage (Max)', 'Voltage-supply(max)', 'Allowable voltage', 'Working Voltage', 'Voltage Rated'],
    unit: 'V', kind: 'at_least',
  },
  ratedVoltage: { names: ['Voltage Rated', 'Rated Voltage', 'Voltage Rating', 'Allowable voltage', 'Voltage rating (max)', 'Rated voltage (max)', 'Voltage'], unit: 'V', kind: 'at_least' },
  outputVoltage: { names: OUTPUT_VOLTAGE, unit: 'V', kind: 'equals' },
  inputVoltage: {
    names: ['Input Voltage (Max)', 'Input Voltage', 'Maximum input voltage', 'Voltage - input(dc)', 'Voltage - supply', 'Supply Voltage'],
    unit: 'V', kind: 'at_least', covering: true,
  },
  supplyVoltage: { names: SUPPLY_VOLTAGE, unit: 'V', kind: 'equals', covering: true },
  drainSourceVoltage: {
    names: ['Drain Source Voltage (Vdss)', 'Drain to source voltage', 'Voltage - Drain Source (Vdss)', 'Drain-Source Voltage', 'Vdss'],
    unit: 'V', kind: 'at_least',
  },
  collectorEmitterVoltage: {
    names: ['Collector-Emitter Breakdown Voltage (Vceo)', 'Collector - emitter voltage vceo', 'Voltage - Collector Emitter Breakdown (Max)', 'Vceo'],
    unit: 'V', kind: 'at_least',
  },
  reverseVoltage: {
    names: ['Reverse Voltage (Vr)', 'Voltage - dc reverse (vr) (max)', 'Reverse voltage', 'Repetitive peak reverse voltage'],
    unit: 'V', kind: 'at_least',
  },
  zenerVoltage: { names: ['Zener Voltage (Nom)', 'Zener Voltage (Range)', 'Voltage - Zener (Nom) (Vz)'], unit: 'V', kind: 'equals' },
  standoffVoltage: {
    names: ['Reverse Stand-Off Voltage (Vrwm)', 'Voltage - Reverse Standoff (Typ)', 'Working voltage', 'Reverse voltage (vr)'],
    unit: 'V', kind: 'equals', window: 0.05,
  },
  breakdownVoltage: { names: ['Breakdown Voltage', 'Voltage - breakdown', 'Breakdown voltage (min)'], unit: 'V', kind: 'equals', window: 0.05 },
  clampingVoltage: { names: ['Clamping Voltage', 'Maximum clamping voltage', 'Voltage - Clamping (Max) @ Ipp'], unit: 'V', kind: 'at_most' },
  forwardVoltage: { names: ['Forward Voltage (Vf)', 'Voltage - forward(vf)', 'Forward Voltage (Vf@If)', 'Voltage - forward (vf) (max) @ if'], unit: 'V', kind: 'equals', window: 0.1 },
  dropoutVoltage: { names: ['Dropout Voltage', 'Voltage dropout', 'Voltage Dropout (Max)'], unit: 'V', kind: 'at_most' },
  coilVoltage: { names: ['Coil Voltage', 'Nominal coil voltage', 'Coil voltage (dc)', 'Rated coil voltage'], unit: 'V', kind: 'equals' },
  gateThreshold: { names: ['Gate Threshold Voltage (Vgs(th)@Id)', 'Vgs(th)'], unit: 'V', kind: 'at_most' },
  offsetVoltage: { names: ['Input Offset Voltage (Vos)', 'Vos - input offset voltage', 'Voltage - Input Offset'], unit: 'V', kind: 'at_most' },
  inputBiasCurrent: { names: ['Input Bias Current (Ib)', 'Ib - input bias current', 'Current - Input Bias'], unit: 'A', kind: 'at_most' },
  isolationVoltage: { names: ['Isolation voltage(vrms)', 'Voltage - Isolation', 'Isolation Voltage'], unit: 'V', kind: 'at_least' },
  anyVoltage: {
    names: ['Supply Voltage', 'Voltage - supply', 'Output Voltage', 'Voltage Rated', 'Allowable voltage', 'Rated Voltage', 'Input Voltage', 'Voltage'],
    unit: 'V', kind: 'equals', covering: true,
  },

  // current
  currentRating: { names: CURRENT_RATING, unit: 'A', kind: 'at_least' },
  saturationCurrent: { names: ['Saturation Current (Isat)', 'Current - saturation(isat)', 'Current - Saturation (Isat)'], unit: 'A', kind: 'at_least' },
  outputCurrent: { names: OUTPUT_CURRENT, unit: 'A', kind: 'at_least' },
  drainCurrent: { names: DRAIN_CURRENT, unit: 'A', kind: 'at_least' },
  collectorCurrent: { names: COLLECTOR_CURRENT, unit: 'A', kind: 'at_least' },
  rectifiedCurrent: { names: [...RECTIFIED_CURRENT, ...FORWARD_CURRENT], unit: 'A', kind: 'at_least' },
  forwardCurrent: { names: FORWARD_CURRENT, unit: 'A', kind: 'at_least' },
  quiescentCurrent: {
    names: ['Quiescent Current (Iq)', 'Quiescent Current', 'Quiescent supply current', 'Current - Quiescent (Iq)', 'Supply current', 'Current - Supply', 'Standby current'],
    unit: 'A', kind: 'at_most',
  },
  supplyCurrent: { names: ['Current - Supply', 'Supply current', 'Quiescent Current', 'Quiescent Current (Iq)'], unit: 'A', kind: 'at_most' },
  rippleCurrent: { names: ['Ripple Current', 'Ripple current @ frequency'], unit: 'A', kind: 'at_least' },
  holdCurrent: { names: ['Current - Hold (Ih) (Max)', 'Hold current', 'Current Rating', 'Rated current'], unit: 'A', kind: 'equals', window: 0.05 },
  tripCurrent: { names: ['Current - Trip (It)', 'Trip current'], unit: 'A', kind: 'equals', window: 0.05 },
  contactCurrent: { names: ['Contact Current', 'Switching current', 'Contact rating (current)', 'Rated current', 'Current Rating'], unit: 'A', kind: 'at_least' },
  anyCurrent: {
    names: ['Current Rating', 'Rated current', 'Output Current', 'Continuous Drain Current (Id)', 'Average Rectified Current (Io)', 'Rectified current', 'Forward Current (If)', 'Collector Current (Ic)', 'Current - Output'],
    unit: 'A', kind: 'at_least',
  },

  // resistance other than a resistor's value
  rdsOn: {
    names: ['Drain Source On Resistance (RDS(on)@Vgs,Id)', 'Rds(on)', 'Rds On (Max) @ Id, Vgs'],
    unit: 'Ω', kind: 'at_most',
  },
  dcResistance: { names: ['DC Resistance (DCR)', 'DC Resistance'], unit: 'Ω', kind: 'at_most' },
  esr: { names: ['Equivalent Series Resistance (ESR)', 'Equivalent series resistance', 'ESR'], unit: 'Ω', kind: 'at_most' },
  impedance: { names: ['Impedance @ Frequency', 'Impedance', 'Impedance @ 100MHz'], unit: 'Ω', kind: 'equals' },
  zenerImpedance: { names: ['Zener Impedance (Zzt)', 'Impedance (Max) (Zzt)'], unit: 'Ω', kind: 'at_most' },
  onResistance: { names: ['On-state resistance (max)', 'On Resistance', 'On-Resistance (Max)', 'Contact resistance'], unit: 'Ω', kind: 'at_most' },

  // capacitance other than a capacitor's value
  loadCapacitance: { names: ['Load Capacitance', 'External load capacitor'], unit: 'F', kind: 'equals' },
  junctionCapacitance: { names: ['Junction capacitance', 'Capacitance @ Vr, F', 'Capacitance'], unit: 'F', kind: 'at_most' },
  inputCapacitance: { names: ['Input capacitance (ciss@vds)', 'Input Capacitance (Ciss) (Max) @ Vds'], unit: 'F', kind: 'at_most' },

  // frequency other than a crystal's value
  cpuSpeed: { names: ['CPU Maximum Speed', 'Speed', 'Clock frequency', 'Max Frequency'], unit: 'Hz', kind: 'at_least' },
  switchingFrequency: { names: ['Switching Frequency', 'Frequency - switching'], unit: 'Hz', kind: 'equals', window: 0.05 },
  gainBandwidth: { names: ['Gain Bandwidth Product (GBP)', 'Gain bandwidth product', 'Bandwidth', '-3db Bandwidth'], unit: 'Hz', kind: 'at_least' },
  transitionFrequency: { names: ['Transition Frequency (fT)', 'Frequency - Transition'], unit: 'Hz', kind: 'at_least' },
  anyFrequency: { names: ['Frequency', 'Clock frequency', 'Switching Frequency', 'Frequency - switching', 'CPU Maximum Speed'], unit: 'Hz', kind: 'equals' },

  // power
  resistorPower: { names: RESISTOR_POWER, unit: 'W', kind: 'at_least' },
  powerDissipation: { names: DISSIPATION, unit: 'W', kind: 'at_least' },
  outputPower: { names: ['Output Power', 'Power'], unit: 'W', kind: 'at_least' },
  peakPulsePower: { names: ['Peak Pulse Power Dissipation (Ppp)', 'Power - Peak Pulse'], unit: 'W', kind: 'at_least' },
  anyPower: { names: ['Power(Watts)', 'Power', 'Power Dissipation (Pd)', 'Power dissipation', 'Output Power'], unit: 'W', kind: 'at_least' },

  // ppm
  frequencyTolerance: { names: FREQ_TOLERANCE, unit: 'ppm', kind: 'at_most' },
  temperatureCoefficient: { names: TEMPCO, unit: 'ppm', kind: 'at_most' },
  anyPpm: { names: [...TEMPCO, ...FREQ_TOLERANCE], unit: 'ppm', kind: 'at_most' },

  // memory, resolution, size, time, dB
  flash: { names: ['Program Storage Size', 'Flash Size', 'Program Memory Size', 'Flash'], unit: 'B', kind: 'at_least' },
  ram: { names: ['RAM Size', 'RAM', 'SRAM'], unit: 'B', kind: 'at_least' },
  eeprom: { names: ['EEPROM', 'EEPROM Size', 'Memory Size'], unit: 'B', kind: 'at_least' },
  anyMemory: { names: ['Program Storage Size', 'Flash Size', 'Memory Size', 'RAM Size', 'EEPROM'], unit: 'B', kind: 'at_least' },
  memoryBits: { names: ['Memory Size', 'Memory Capacity', 'Density'], unit: 'bit', kind: 'at_least' },
  resolution: { names: ['Resolution (bits)', 'Resolution', 'ADC (Bit)', 'DAC (Bit)', 'Number of Bits'], unit: 'bit', kind: 'at_least' },
  pitch: { names: ['Pitch', 'Row spacing', 'Pin spacing', 'Lead spacing'], unit: 'm', kind: 'equals', window: 0.02 },
  diameter: { names: ['Diameter', 'Φd', 'Size'], unit: 'm', kind: 'equals', window: 0.02 },
  height: { names: ['Height', 'Height - seated (max)', 'Height above board'], unit: 'm', kind: 'at_most' },
  anyLength: { names: ['Pitch', 'Row spacing', 'Pin spacing', 'Lead spacing', 'Diameter', 'Length', 'Height'], unit: 'm', kind: 'equals', window: 0.02 },
  recoveryTime: { names: ['Reverse Recovery Time (trr)'], unit: 's', kind: 'at_most' },
  propagationDelay: { names: ['Propagation Delay', 'Propagation Delay (tpd)'], unit: 's', kind: 'at_most' },
  anyTime: { names: ['Reverse Recovery Time (trr)', 'Propagation Delay', 'Propagation Delay (tpd)', 'Rise time', 'Fall time', 'Response time'], unit: 's', kind: 'at_most' },
  rejection: { names: ['Power Supply Rejection Ratio (PSRR)', 'Common mode rejection ratio (cmrr)', 'Common mode rejection ratio(cmrr)'], unit: 'dB', kind: 'at_least' },
} as const satisfies Record<string, SpecRole>;

export type RoleId = keyof typeof ROLES;

/** Role of a unit when neither a qualifier nor the family context decides. */
export const DEFAULT_ROLES: Readonly<Record<SiUnit, RoleId>> = {
  'Ω': 'resistance', F: 'capacitance', H: 'inductance', V: 'anyVoltage', A: 'anyCurrent', W: 'anyPower',
  Hz: 'anyFrequency', '%': 'tolerance', '℃': 'temperature', s: 'anyTime', m: 'anyLength', ppm: 'anyPpm',
  dB: 'rejection', B: 'anyMemory', bit: 'resolution',
};

/** Family context -> role per unit (only where it differs from DEFAULT_ROLES). */
export const CONTEXT_ROLES: Readonly<Partial<Record<Family, Partial<Record<SiUnit, RoleId>>>>> = {
  resistor: { V: 'resistorVoltage', W: 'resistorPower', ppm: 'temperatureCoefficient' },
  potentiometer: { V: 'resistorVoltage', W: 'resistorPower', ppm: 'temperatureCoefficient' },
  thermistor: { W: 'powerDissipation' },
  varistor: { V: 'ratedVoltage', F: 'junctionCapacitance' },
  capacitor: { V: 'capVoltage', 'Ω': 'esr', A: 'rippleCurrent' },
  inductor: { 'Ω': 'dcResistance', A: 'currentRating', V: 'ratedVoltage' },
  'ferrite bead': { 'Ω': 'impedance', A: 'currentRating' },
  ldo: { V: 'outputVoltage', A: 'outputCurrent' },
  regulator: { V: 'outputVoltage', A: 'outputCurrent' },
  'dc-dc': { V: 'outputVoltage', A: 'outputCurrent', Hz: 'switchingFrequency', W: 'outputPower' },
  'voltage reference': { V: 'outputVoltage', A: 'outputCurrent', ppm: 'temperatureCoefficient' },
  mosfet: { V: 'drainSourceVoltage', A: 'drainCurrent', 'Ω': 'rdsOn', W: 'powerDissipation', F: 'inputCapacitance' },
  igbt: { V: 'collectorEmitterVoltage', A: 'collectorCurrent', W: 'powerDissipation' },
  bjt: { V: 'collectorEmitterVoltage', A: 'collectorCurrent', W: 'powerDissipation', Hz: 'transitionFrequency' },
  transistor: { V: 'collectorEmitterVoltage', A: 'collectorCurrent', W: 'powerDissipation', Hz: 'transitionFrequency' },
  'op amp': { V: 'supplyVoltage', A: 'outputCurrent', Hz: 'gainBandwidth' },
  comparator: { V: 'supplyVoltage', A: 'outputCurrent', s: 'propagationDelay' },
  amplifier: { V: 'supplyVoltage', Hz: 'gainBandwidth', W: 'outputPower' },
  diode: { V: 'reverseVoltage', A: 'rectifiedCurrent', W: 'powerDissipation', s: 'recoveryTime', F: 'junctionCapacitance' },
  schottky: { V: 'reverseVoltage', A: 'rectifiedCurrent', W: 'powerDissipation', F: 'junctionCapacitance' },
  'bridge rectifier': { V: 'reverseVoltage', A: 'rectifiedCurrent' },
  zener: { V: 'zenerVoltage', W: 'powerDissipation', 'Ω': 'zenerImpedance' },
  tvs: { V: 'standoffVoltage', W: 'peakPulsePower', F: 'junctionCapacitance' },
  led: { V: 'forwardVoltage', A: 'forwardCurrent', W: 'powerDissipation', m: 'diameter' },
  crystal: { Hz: 'frequency', F: 'loadCapacitance', 'Ω': 'esr', ppm: 'frequencyTolerance', V: 'supplyVoltage' },
  oscillator: { Hz: 'frequency', ppm: 'frequencyTolerance', V: 'supplyVoltage', A: 'supplyCurrent' },
  mcu: { V: 'supplyVoltage', Hz: 'cpuSpeed', B: 'flash', bit: 'resolution', A: 'supplyCurrent' },
  memory: { V: 'supplyVoltage', B: 'eeprom', bit: 'memoryBits', Hz: 'anyFrequency' },
  adc: { V: 'supplyVoltage', bit: 'resolution' },
  dac: { V: 'supplyVoltage', bit: 'resolution' },
  sensor: { V: 'supplyVoltage', A: 'supplyCurrent' },
  optocoupler: { A: 'forwardCurrent' },
  'gate driver': { V: 'supplyVoltage', A: 'outputCurrent' },
  fuse: { A: 'holdCurrent', V: 'ratedVoltage' },
  relay: { V: 'coilVoltage', A: 'contactCurrent' },
  connector: { A: 'currentRating', V: 'ratedVoltage', m: 'pitch' },
  switch: { A: 'contactCurrent', V: 'ratedVoltage' },
  buzzer: { V: 'supplyVoltage' },
  transformer: { V: 'ratedVoltage' },
};

/**
 * A single quantity whose magnitude says which spec it is, in a family context, when no qualifier
 * word does: the first [below, role] whose bound the value is under. An op amp's "1.6mV" is its input
 * offset, "10pA" its input bias current, "500uA" its quiescent current; "20mA" stays the context role.
 */
const AMPLIFIER_INPUT_BY_SIZE: Partial<Record<SiUnit, readonly (readonly [number, RoleId])[]>> = {
  V: [[0.1, 'offsetVoltage']],
  A: [[1e-7, 'inputBiasCurrent'], [1e-3, 'quiescentCurrent']],
};
export const MAGNITUDE_ROLES: Readonly<Partial<Record<Family, Partial<Record<SiUnit, readonly (readonly [number, RoleId])[]>>>>> = {
  'op amp': AMPLIFIER_INPUT_BY_SIZE,
  comparator: AMPLIFIER_INPUT_BY_SIZE,
};

/**
 * Two quantities of one unit typed for a family whose parts carry two specs of that unit, told apart
 * by magnitude: [role of the smaller, role of the larger]. "35V 12V LDO": input 35 V, output 12 V;
 * "6.5V 11.2V TVS": stand-off 6.5 V, clamping 11.2 V; "100mA 300mA resettable fuse": hold, trip;
 * "3.75kV 1.25V optocoupler": isolation, forward voltage. Only when neither has a qualifier word.
 */
export const PAIRED_ROLES: Readonly<Partial<Record<Family, Partial<Record<SiUnit, readonly [RoleId, RoleId]>>>>> = {
  ldo: { V: ['outputVoltage', 'inputVoltage'] },
  regulator: { V: ['outputVoltage', 'inputVoltage'] },
  'dc-dc': { V: ['outputVoltage', 'inputVoltage'] },
  tvs: { V: ['standoffVoltage', 'clampingVoltage'] },
  fuse: { A: ['holdCurrent', 'tripCurrent'] },
  optocoupler: { V: ['forwardVoltage', 'isolationVoltage'] },
};

/**
 * The unit a value typed without one ("10k", "4u7", "16M", "220") has in a family context; null: no
 * inference (the token stays a free-text term). Without a context understand.ts uses: p/n/u -> F,
 * k/M/R-notation -> Ω.
 */
export const CONTEXT_BARE_UNIT: Readonly<Partial<Record<Family, SiUnit>>> = {
  resistor: 'Ω', potentiometer: 'Ω', thermistor: 'Ω', capacitor: 'F', inductor: 'H', 'ferrite bead': 'Ω',
  crystal: 'Hz', oscillator: 'Hz',
};

/**
 * Qualifier words: a word right before or after a quantity that names the spec it is about
 * ("vin 12V", "12V input", "esr 10mΩ", "8KB RAM", "load 18pF"). Keys are lower-case.
 */
export const QUALIFIERS: ReadonlyMap<string, Partial<Record<SiUnit, RoleId>>> = new Map<string, Partial<Record<SiUnit, RoleId>>>([
  ['input', { V: 'inputVoltage', F: 'inputCapacitance' }], ['vin', { V: 'inputVoltage' }],
  ['output', { V: 'outputVoltage', A: 'outputCurrent', W: 'outputPower' }], ['vout', { V: 'outputVoltage' }],
  ['out', { V: 'outputVoltage', A: 'outputCurrent' }],
  ['iout', { A: 'outputCurrent' }],
  ['supply', { V: 'supplyVoltage', A: 'supplyCurrent' }], ['vcc', { V: 'supplyVoltage' }], ['vdd', { V: 'supplyVoltage' }],
  ['operating', { V: 'supplyVoltage', '℃': 'temperature' }], ['working', { V: 'ratedVoltage' }],
  ['rated', { V: 'ratedVoltage', A: 'currentRating', W: 'anyPower' }], ['rating', { V: 'ratedVoltage', A: 'currentRating', W: 'anyPower' }],
  ['forward', { V: 'forwardVoltage', A: 'forwardCurrent' }], ['vf', { V: 'forwardVoltage' }], ['if', { A: 'forwardCurrent' }],
  ['reverse', { V: 'reverseVoltage' }], ['vr', { V: 'reverseVoltage' }], ['vrrm', { V: 'reverseVoltage' }],
  ['vrwm', { V: 'standoffVoltage' }], ['standoff', { V: 'standoffVoltage' }], ['stand-off', { V: 'standoffVoltage' }],
  ['breakdown', { V: 'breakdownVoltage' }], ['clamping', { V: 'clampingVoltage' }], ['vc', { V: 'clampingVoltage' }],
  ['zener', { V: 'zenerVoltage' }], ['vz', { V: 'zenerVoltage' }],
  ['vds', { V: 'drainSourceVoltage' }], ['vdss', { V: 'drainSourceVoltage' }], ['id', { A: 'drainCurrent' }],
  ['drain', { V: 'drainSourceVoltage', A: 'drainCurrent' }],
  ['vceo', { V: 'collectorEmitterVoltage' }], ['vce', { V: 'collectorEmitterVoltage' }], ['ic', { A: 'collectorCurrent' }],
  ['collector', { A: 'collectorCurrent', V: 'collectorEmitterVoltage' }],
  ['vgsth', { V: 'gateThreshold' }], ['vgs', { V: 'gateThreshold' }], ['vth', { V: 'gateThreshold' }], ['threshold', { V: 'gateThreshold' }],
  ['dropout', { V: 'dropoutVoltage' }], ['offset', { V: 'offsetVoltage' }], ['vos', { V: 'offsetVoltage' }],
  ['coil', { V: 'coilVoltage' }],
  ['saturation', { A: 'saturationCurrent' }], ['isat', { A: 'saturationCurrent' }],
  ['quiescent', { A: 'quiescentCurrent' }], ['iq', { A: 'quiescentCurrent' }], ['standby', { A: 'quiescentCurrent' }],
  ['ripple', { A: 'rippleCurrent' }], ['hold', { A: 'holdCurrent' }], ['contact', { A: 'contactCurrent', 'Ω': 'onResistance' }],
  ['rectified', { A: 'rectifiedCurrent' }], ['io', { A: 'rectifiedCurrent' }],
  ['esr', { 'Ω': 'esr' }], ['dcr', { 'Ω': 'dcResistance' }], ['rds', { 'Ω': 'rdsOn' }], ['rdson', { 'Ω': 'rdsOn' }],
  ['rds(on)', { 'Ω': 'rdsOn' }], ['on-resistance', { 'Ω': 'rdsOn' }], ['impedance', { 'Ω': 'impedance' }],
  ['load', { F: 'loadCapacitance' }], ['cl', { F: 'loadCapacitance' }], ['junction', { F: 'junctionCapacitance' }],
  ['cpu', { Hz: 'cpuSpeed' }], ['clock', { Hz: 'cpuSpeed' }], ['core', { Hz: 'cpuSpeed' }],
  ['switching', { Hz: 'switchingFrequency' }], ['fsw', { Hz: 'switchingFrequency' }],
  ['gbw', { Hz: 'gainBandwidth' }], ['gbp', { Hz: 'gainBandwidth' }], ['bandwidth', { Hz: 'gainBandwidth' }],
  ['ft', { Hz: 'transitionFrequency' }],
  ['dissipation', { W: 'powerDissipation' }], ['pd', { W: 'powerDissipation' }],
  ['stability', { ppm: 'frequencyTolerance' }], ['tcr', { ppm: 'temperatureCoefficient' }], ['tempco', { ppm: 'temperatureCoefficient' }],
  ['flash', { B: 'flash', bit: 'memoryBits' }], ['rom', { B: 'flash' }], ['program', { B: 'flash' }],
  ['ram', { B: 'ram' }], ['sram', { B: 'ram' }], ['eeprom', { B: 'eeprom', bit: 'memoryBits' }],
  ['pitch', { m: 'pitch' }], ['spacing', { m: 'pitch' }], ['diameter', { m: 'diameter' }], ['height', { m: 'height' }],
  ['trr', { s: 'recoveryTime' }], ['recovery', { s: 'recoveryTime' }], ['delay', { s: 'propagationDelay' }],
  ['efficiency', { '%': 'efficiency' }], ['psrr', { dB: 'rejection' }], ['cmrr', { dB: 'rejection' }],
]);

/** Nouns that merely restate a quantity's kind ("output voltage 3.3V", "tolerance 1%"): dropped from the free-text terms when next to it. */
export const UNIT_NOUNS: ReadonlyMap<string, SiUnit> = new Map<string, SiUnit>([
  ['voltage', 'V'], ['volts', 'V'], ['current', 'A'], ['amps', 'A'], ['power', 'W'], ['watts', 'W'],
  ['capacitance', 'F'], ['resistance', 'Ω'], ['inductance', 'H'], ['frequency', 'Hz'], ['freq', 'Hz'], ['speed', 'Hz'],
  ['tolerance', '%'], ['temperature', '℃'], ['temp', '℃'], ['size', 'B'], ['memory', 'B'], ['resolution', 'bit'],
  ['capacity', 'B'], ['time', 's'],
]);

// ---------------------------------------------------------------- value words

export interface ValueWord {
  names: readonly string[];
  values: readonly string[];
  /** The family the word implies, used as context when the query names none. */
  implies?: Family;
  /** The word only counts as a value when one of these families is in context ("red" only for LEDs). */
  requires?: readonly Family[];
}

const DIELECTRIC_NAMES = ['Temperature Coefficient', 'Dielectric', 'Dielectric Material', 'Characteristic'];
const CHANNEL_NAMES = ['Type', 'Number', 'FET Type', 'Channel Type', 'Transistor Polarity', 'Polarity'];
const BJT_NAMES = ['Type', 'Transistor Type', 'Number', 'Transistor Polarity', 'Polarity'];
const COLOR_NAMES = ['Emitted Color', 'Color', 'Illumination color', 'Colour', 'Lens Color'];

const dielectric = (...values: string[]): ValueWord => ({ names: DIELECTRIC_NAMES, values, implies: 'capacitor' });
const n_channel: ValueWord = { names: CHANNEL_NAMES, values: ['N-Channel'], implies: 'mosfet' };
const p_channel: ValueWord = { names: CHANNEL_NAMES, values: ['P-Channel'], implies: 'mosfet' };
const REGULATORS: readonly Family[] = ['ldo', 'regulator', 'dc-dc', 'voltage reference'];
const safety = (v: string): ValueWord => ({ names: ['Ratings', 'Subclass', 'Safety Rating', 'Class'], values: [v], requires: ['capacitor'] });
const aec = (v: string): ValueWord => ({ names: ['Qualification', 'Ratings', 'Grade', 'Features'], values: [v] });
const color = (v: string): ValueWord => ({ names: COLOR_NAMES, values: [v], requires: ['led'] });
const outputType = (v: string): ValueWord => ({ names: ['Output Type', 'Output Configuration'], values: [v], requires: REGULATORS });
const shielding = (v: string): ValueWord => ({ names: ['Shielding', 'Type', 'Shielded'], values: [v], requires: ['inductor'] });

/**
 * Lower-case words and phrases (hyphens count as spaces) that are a value of a text spec. Dielectric
 * codes: C0G = NP0 (and the letter-O misspellings COG/NPO); EIA class-2 codes as written. Colours,
 * safety classes (X2...), output type and shielding only count in a matching family context.
 */
export const VALUE_WORDS: ReadonlyMap<string, ValueWord> = new Map<string, ValueWord>([
  ['c0g', dielectric('C0G', 'NP0')], ['cog', dielectric('C0G', 'NP0')], ['np0', dielectric('C0G', 'NP0')],
  ['npo', dielectric('C0G', 'NP0')], ['c0g np0', dielectric('C0G', 'NP0')], ['cog npo', dielectric('C0G', 'NP0')],
  ['x7r', dielectric('X7R')], ['x5r', dielectric('X5R')], ['x7s', dielectric('X7S')], ['x6s', dielectric('X6S')],
  ['x7t', dielectric('X7T')], ['x8r', dielectric('X8R')], ['x8l', dielectric('X8L')], ['x6t', dielectric('X6T')],
  ['y5v', dielectric('Y5V')], ['y5p', dielectric('Y5P')], ['z5u', dielectric('Z5U')], ['u2j', dielectric('U2J')],
  ['x1', safety('X1')], ['x2', safety('X2')], ['y1', safety('Y1')], ['y2', safety('Y2')],
  ['n channel', n_channel], ['n ch', n_channel], ['nch', n_channel], ['nmos', n_channel], ['n mosfet', n_channel],
  ['p channel', p_channel], ['p ch', p_channel], ['pch', p_channel], ['pmos', p_channel], ['p mosfet', p_channel],
  ['npn', { names: BJT_NAMES, values: ['NPN'], implies: 'bjt' }],
  ['pnp', { names: BJT_NAMES, values: ['PNP'], implies: 'bjt' }],
  ['adjustable', outputType('Adjustable')], ['adj', outputType('Adjustable')], ['fixed', outputType('Fixed')],
  ['shielded', shielding('Shielded')], ['unshielded', shielding('Unshielded')], ['semi shielded', shielding('Semi-shielded')],
  ['buck', { names: ['Topology', 'Function'], values: ['Buck', 'Step-down'], implies: 'dc-dc' }],
  ['step down', { names: ['Topology', 'Function'], values: ['Buck', 'Step-down'], implies: 'dc-dc' }],
  ['boost', { names: ['Topology', 'Function'], values: ['Boost', 'Step-up'], implies: 'dc-dc' }],
  ['step up', { names: ['Topology', 'Function'], values: ['Boost', 'Step-up'], implies: 'dc-dc' }],
  ['buck boost', { names: ['Topology', 'Function'], values: ['Buck-Boost'], implies: 'dc-dc' }],
  ['aec q100', aec('AEC-Q100')], ['aec q101', aec('AEC-Q101')], ['aec q200', aec('AEC-Q200')],
  ['red', color('Red')], ['green', color('Green')], ['blue', color('Blue')], ['yellow', color('Yellow')],
  ['white', color('White')], ['orange', color('Orange')], ['amber', color('Amber')], ['rgb', color('RGB')],
  ['warm white', color('Warm White')], ['cool white', color('Cool White')], ['pink', color('Pink')],
  ['purple', color('Purple')], ['infrared', color('Infrared')], ['uv', color('UV')],
]);

/** Dielectric spellings with a letter O for a zero, folded when comparing values. */
export const VALUE_ALIASES: ReadonlyMap<string, string> = new Map([['cog', 'c0g'], ['npo', 'np0']]);

// ---------------------------------------------------------------- packages

/** Imperial chip sizes written as bare digits ("0603"). A bare 4-digit token in this set is a package, never a value. */
export const CHIP_SIZES: ReadonlySet<string> = new Set([
  '01005', '0201', '0402', '0603', '0805', '1008', '1206', '1210', '1806', '1812', '1825', '2010', '2220', '2225',
  '2512', '2920', '0306', '0508', '0612', '1218',
]);

/** Package codes written without digits. */
export const LETTER_PACKAGES: ReadonlyMap<string, string> = new Map([
  ['sma', 'SMA'], ['smb', 'SMB'], ['smc', 'SMC'], ['smaf', 'SMAF'], ['smbf', 'SMBF'], ['dpak', 'DPAK'],
  ['d2pak', 'D2PAK'], ['d3pak', 'D3PAK'], ['ipak', 'IPAK'], ['melf', 'MELF'], ['minimelf', 'MiniMELF'],
  ['micromelf', 'MicroMELF'], ['powerpak', 'PowerPAK'],
]);

/**
 * Package families followed by a pin count or outline number: "SOT-23-5", "SOIC8", "QFN-32", "TO220AB",
 * "DO-214AC", "HC-49S". Written upper-case as FAMILY-NUMBER[SUFFIX][-PINS] the way catalogues do.
 */
export const PACKAGE_FAMILIES: readonly string[] = [
  'SOT', 'TSOT', 'SOD', 'SC', 'TO', 'DO', 'SO', 'SOIC', 'SOP', 'SSOP', 'TSSOP', 'HTSSOP', 'MSOP', 'VSSOP', 'TSOP',
  'ESOP', 'HSOP', 'QSOP', 'QFN', 'DFN', 'VQFN', 'WQFN', 'UQFN', 'TQFN', 'SON', 'VSON', 'WSON', 'USON', 'LQFP',
  'TQFP', 'QFP', 'PQFP', 'LFCSP', 'BGA', 'LGA', 'FBGA', 'UFBGA', 'WLCSP', 'DIP', 'PDIP', 'SDIP', 'SIP', 'PLCC',
  'UFQFPN', 'VFQFPN', 'HC', 'LL', 'TDSON',
];
