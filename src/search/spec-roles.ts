/**
 * spec-roles.ts — which spec a quantity of a query means ("role"), and the spec names it may be stored
 * under (naming conventions: the header of spec-vocabulary.ts).
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
import type { ConstraintKind, Family } from './spec-vocabulary.ts';

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
  /**
   * A reading by magnitude that names a spec of its own: the value never pairs with another of its
   * unit (PAIRED_ROLES). "5V 30kV tvs" is a 5 V stand-off and a 30 kV ESD rating, not a 30 kV clamp.
   */
  unpaired?: boolean;
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
  /** A regulator's voltage that may be either its output or its maximum input ("10V ldo": LDO outputs above 5 V are rare). */
  regulatorVoltage: { names: [...OUTPUT_VOLTAGE, 'Input Voltage (Max)', 'Maximum input voltage', 'Input Voltage', 'Voltage - supply', 'Supply Voltage'], unit: 'V', kind: 'equals' },
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
  esdRating: { names: ['Contact discharge vesd', 'Esd protection voltage', 'Esd withstand voltage', 'Esd protect'], unit: 'V', kind: 'at_least', unpaired: true },
  isolationVoltage: { names: ['Isolation voltage(vrms)', 'Voltage - Isolation', 'Isolation Voltage', 'Isolation voltage(rms)', 'Insulated voltage'], unit: 'V', kind: 'at_least' },
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
  reverseLeakage: {
    names: ['Reverse Leakage Current (Ir)', 'Reverse Leakage Current', 'Current - Reverse Leakage @ Vr', 'Leakage Current'],
    unit: 'A', kind: 'at_most',
  },
  logicOutputCurrent: {
    names: ['Current - output low(iol)', 'Current - output high(ioh)', 'Current - Output High, Low', 'Output Current'],
    unit: 'A', kind: 'at_least',
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
  propagationDelay: { names: ['Propagation Delay', 'Propagation Delay (tpd)', 'Propagation delay time'], unit: 's', kind: 'at_most' },
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
  logic: { V: 'supplyVoltage', A: 'logicOutputCurrent', s: 'propagationDelay' },
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
 * A diode's (zener, TVS, rectifier) current under 1 mA is its reverse leakage.
 */
const AMPLIFIER_INPUT_BY_SIZE: Partial<Record<SiUnit, readonly (readonly [number, RoleId])[]>> = {
  V: [[0.1, 'offsetVoltage']],
  A: [[1e-7, 'inputBiasCurrent'], [1e-3, 'quiescentCurrent']],
};
/** A diode's current under 1 mA is its reverse leakage ("500nA 3.3V ESD", "10uA@200V bridge"), not a rating. */
const DIODE_CURRENT_BY_SIZE: Partial<Record<SiUnit, readonly (readonly [number, RoleId])[]>> = {
  A: [[1e-3, 'reverseLeakage']],
};
export const MAGNITUDE_ROLES: Readonly<Partial<Record<Family, Partial<Record<SiUnit, readonly (readonly [number, RoleId])[]>>>>> = {
  'op amp': AMPLIFIER_INPUT_BY_SIZE,
  comparator: AMPLIFIER_INPUT_BY_SIZE,
  diode: DIODE_CURRENT_BY_SIZE,
  schottky: DIODE_CURRENT_BY_SIZE,
  zener: DIODE_CURRENT_BY_SIZE,
  // A TVS or ESD diode voltage of 1 kV or more is its ESD rating ("±30kV"): no stand-off or clamp comes near it.
  tvs: { ...DIODE_CURRENT_BY_SIZE, V: [[1000, 'standoffVoltage'], [Infinity, 'esdRating']] },
  'bridge rectifier': DIODE_CURRENT_BY_SIZE,
  // A bare LDO voltage up to 5 V is its output; above it, as often its maximum input ("500mA 10V ldo",
  // "5.5V 150mA ldo"), so either counts. Two bare voltages still pair as input and output (PAIRED_ROLES).
  ldo: { V: [[5.01, 'outputVoltage'], [Infinity, 'regulatorVoltage']] },
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

