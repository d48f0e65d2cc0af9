/**
 * spec-vocabulary.ts — the words query understanding (understand.ts) knows: part families, qualifier
 * words, value words (dielectrics, channel types...) and package codes. The spec names a quantity may
 * be stored under, per role, are in spec-roles.ts.
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
 * How a quantity becomes a constraint (its "role"): spec-roles.ts.
 */
import type { SiUnit } from '../catalog/units.ts';
import type { RoleId } from './spec-roles.ts';

export type ConstraintKind = 'equals' | 'at_least' | 'at_most';

export { specNameKey } from '../vocabulary/spec-names.ts';

// ---------------------------------------------------------------- families

/** Canonical part families ("hints"): a query word naming one of them sets the context for its quantities. */
export type Family =
  | 'resistor' | 'potentiometer' | 'thermistor' | 'varistor'
  | 'capacitor' | 'inductor' | 'ferrite bead'
  | 'ldo' | 'regulator' | 'dc-dc' | 'voltage reference'
  | 'mosfet' | 'bjt' | 'transistor' | 'igbt'
  | 'op amp' | 'comparator' | 'amplifier'
  | 'diode' | 'schottky' | 'zener' | 'tvs' | 'bridge rectifier' | 'led'
  | 'crystal' | 'oscillator' | 'mcu' | 'memory' | 'adc' | 'dac' | 'sensor' | 'optocoupler' | 'gate driver' | 'logic'
  | 'fuse' | 'relay' | 'connector' | 'switch' | 'buzzer' | 'transformer';

/** Families too broad to decide a context when a more specific one is also named ("zener diode" -> zener). */
export const GENERIC_FAMILIES: ReadonlySet<Family> = new Set<Family>(['diode', 'transistor', 'amplifier', 'regulator', 'logic']);

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
  ['voltage reference', 'voltage reference'], ['voltage references', 'voltage reference'], ['vref', 'voltage reference'], ['shunt reference', 'voltage reference'],
  ['mosfet', 'mosfet'], ['mosfets', 'mosfet'], ['fet', 'mosfet'], ['nmos', 'mosfet'], ['pmos', 'mosfet'],
  ['n channel', 'mosfet'], ['p channel', 'mosfet'], ['n ch', 'mosfet'], ['p ch', 'mosfet'], ['nch', 'mosfet'], ['pch', 'mosfet'],
  ['bjt', 'bjt'], ['npn', 'bjt'], ['pnp', 'bjt'], ['transistor', 'transistor'], ['transistors', 'transistor'],
  ['igbt', 'igbt'], ['igbts', 'igbt'],
  ['op amp', 'op amp'], ['opamp', 'op amp'], ['op amps', 'op amp'], ['opamps', 'op amp'],
  ['operational amplifier', 'op amp'], ['comparator', 'comparator'], ['comparators', 'comparator'],
  ['amplifier', 'amplifier'], ['amplifiers', 'amplifier'], ['amp', 'amplifier'],
  ['diode', 'diode'], ['diodes', 'diode'], ['rectifier', 'diode'],
  ['schottky', 'schottky'], ['zener', 'zener'], ['tvs', 'tvs'], ['esd', 'tvs'], ['transil', 'tvs'],
  ['transient voltage suppressor', 'tvs'], ['transient voltage suppressors', 'tvs'],
  ['bridge rectifier', 'bridge rectifier'], ['bridge rectifiers', 'bridge rectifier'],
  ['led', 'led'], ['leds', 'led'], ['light emitting diode', 'led'], ['light emitting diodes', 'led'],
  ['crystal', 'crystal'], ['crystals', 'crystal'], ['xtal', 'crystal'], ['quartz', 'crystal'], ['resonator', 'crystal'],
  ['oscillator', 'oscillator'], ['oscillators', 'oscillator'], ['tcxo', 'oscillator'], ['vcxo', 'oscillator'],
  ['mcu', 'mcu'], ['mcus', 'mcu'], ['microcontroller', 'mcu'], ['microcontrollers', 'mcu'],
  ['eeprom', 'memory'], ['sram', 'memory'], ['memory', 'memory'], ['flash memory', 'memory'],
  ['adc', 'adc'], ['adcs', 'adc'], ['dac', 'dac'], ['dacs', 'dac'], ['sensor', 'sensor'], ['sensors', 'sensor'],
  ['optocoupler', 'optocoupler'], ['optocouplers', 'optocoupler'], ['opto', 'optocoupler'], ['photocoupler', 'optocoupler'],
  ['gate driver', 'gate driver'], ['gate drivers', 'gate driver'], ['gate drive', 'gate driver'],
  ['logic', 'logic'], ['logic gate', 'logic'], ['logic gates', 'logic'], ['gates', 'logic'], ['buffer', 'logic'], ['buffers', 'logic'],
  ['flip flop', 'logic'], ['flip flops', 'logic'], ['latch', 'logic'], ['latches', 'logic'], ['inverter', 'logic'], ['inverters', 'logic'],
  ['nand', 'logic'], ['nor', 'logic'], ['xor', 'logic'], ['schmitt trigger', 'logic'],
  ['nor flash', 'memory'], ['nand flash', 'memory'],
  ['fuse', 'fuse'], ['fuses', 'fuse'], ['polyfuse', 'fuse'], ['relay', 'relay'], ['relays', 'relay'],
  ['connector', 'connector'], ['connectors', 'connector'], ['header', 'connector'], ['headers', 'connector'],
  ['socket', 'connector'], ['sockets', 'connector'], ['terminal block', 'connector'], ['terminal blocks', 'connector'],
  ['switch', 'switch'], ['switches', 'switch'], ['buzzer', 'buzzer'], ['buzzers', 'buzzer'],
  ['transformer', 'transformer'], ['transformers', 'transformer'],
]);

/**
 * FAMILY_WORDS phrases that name a narrower kind than their family ("tantalum" capacitors, "header"
 * connectors, logic "gates"): a query that says one says more than its family, so its words count as
 * unread (QueryUnderstanding.unread) although they name the family. Synonyms of the family itself
 * ("low dropout", "gate driver", "bridge rectifier") are not listed.
 */
export const SUBTYPE_PHRASES: ReadonlySet<string> = new Set([
  'mlcc', 'electrolytic', 'tantalum', 'supercap', 'supercapacitor', 'shunt', 'trimmer', 'trimpot', 'ntc', 'ptc',
  'power inductor', 'quartz', 'resonator', 'tcxo', 'vcxo', 'eeprom', 'sram', 'flash memory', 'nor flash', 'nand flash',
  'header', 'headers', 'socket', 'sockets', 'terminal block', 'terminal blocks', 'polyfuse', 'rectifier', 'choke', 'chokes',
  'logic gate', 'logic gates', 'gates', 'buffer', 'buffers', 'latch', 'latches', 'flip flop', 'flip flops', 'inverter', 'inverters',
  'nand', 'nor', 'xor', 'schmitt trigger',
]);

/** Longest phrase in FAMILY_WORDS / VALUE_WORDS, in words. */
export const LONGEST_PHRASE = 3;

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
  ['isolation', { V: 'isolationVoltage' }], ['insulation', { V: 'isolationVoltage' }],
  ['viso', { V: 'isolationVoltage' }], ['viorm', { V: 'isolationVoltage' }],
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
 * Spec names that say how many channels, circuits or elements a part holds, as catalogues write them:
 * "2", "2 N-Channel", "Dual", "Four channels", "1 Pair Common Cathode".
 */
const COUNT_NAMES = ['Number of channels', 'Number of circuits', 'Circuits', 'Number', 'Number of elements', 'Number of drivers', 'Number of outputs', 'Diode configuration'];
/** Families whose parts come as one, two or four of a kind in a package ("dual op amp", "quad comparator", "dual LDO", "quad analog switch"). */
const COUNTED: readonly Family[] = [
  'op amp', 'comparator', 'amplifier', 'mosfet', 'bjt', 'transistor', 'igbt', 'diode', 'schottky', 'zener', 'tvs',
  'optocoupler', 'gate driver', 'logic', 'adc', 'dac', 'ldo', 'regulator', 'dc-dc', 'switch',
];
/** Op amp and comparator swing ("Rail to rail: Rail-to-Rail Input, Rail-to-Rail Output", "Input/Output Type: Rail-to-Rail Input/Output"). */
const railToRail = (...values: string[]): ValueWord => ({ names: ['Rail to rail', 'Input/Output Type', 'Output Type', 'Features'], values, requires: ['op amp', 'comparator', 'amplifier'] });
/** Relay and switch contact forms as catalogues write them ("SPST-NO", "One set changeover: 1C (SPDT - changeover)"). */
const contacts = (...values: string[]): ValueWord => ({ names: ['Circuit', 'Contact form', 'Relay contact form', 'Switch circuit'], values, requires: ['relay', 'switch'] });
/** Audio amplifier output stage ("Class: Class AB, Class D"). */
const ampClass = (v: string): ValueWord => ({ names: ['Class', 'Amplifier class', 'Amplifier Type'], values: [v], requires: ['amplifier'] });
/** A TVS diode's polarity ("Polarity: Unidirectional"). */
const tvsPolarity = (v: string): ValueWord => ({ names: ['Polarity', 'Channel type', 'Type'], values: [v], requires: ['tvs'] });
const count = (...values: string[]): ValueWord => ({ names: COUNT_NAMES, values, requires: COUNTED });
/** One of a kind: not read from "Diode configuration", where "1 Pair Common Cathode" is two diodes. */
const one = (...values: string[]): ValueWord => ({ names: COUNT_NAMES.filter((n) => n !== 'Diode configuration'), values, requires: COUNTED });
/**
 * Phrases that start like a count but are not one ("dual supply op amp" is one amplifier): as longer
 * phrases they win the scan over "dual", and with an empty `requires` they never become a constraint.
 */
const NOT_A_COUNT: ValueWord = { names: [], values: [], requires: [] };

/**
 * Lower-case words and phrases (hyphens count as spaces) that are a value of a text spec. Dielectric
 * codes: C0G = NP0 (and the letter-O misspellings COG/NPO); EIA class-2 codes as written. Colours,
 * safety classes (X2...), output type, shielding and counts ("dual", "quad") only count in a matching
 * family context.
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
  ['dual', count('2', 'Dual', 'Two', 'Pair')], ['dual channel', count('2', 'Dual', 'Two')],
  ['quad', count('4', 'Quad', 'Four')], ['quad channel', count('4', 'Quad', 'Four')],
  ['triple', count('3', 'Triple', 'Three')], ['octal', count('8', 'Octal', 'Eight')], ['single channel', one('1', 'Single')],
  ['single', one('1', 'Single', 'One')],
  ['dual supply', NOT_A_COUNT], ['dual polarity', NOT_A_COUNT], ['single supply', NOT_A_COUNT], ['single ended', NOT_A_COUNT],
  ['single pole', NOT_A_COUNT], ['single phase', NOT_A_COUNT], ['single cell', NOT_A_COUNT],
  ['spst', contacts('SPST', 'Single pole single throw')], ['spdt', contacts('SPDT', 'Single-pole Double-throw')],
  ['dpst', contacts('DPST', 'Double pole single throw')], ['dpdt', contacts('DPDT', 'Double-pole double-throw', '2P2T')],
  ['spst no', contacts('SPST-NO')], ['spst nc', contacts('SPST-NC')],
  ['class d', ampClass('Class D')], ['class ab', ampClass('Class AB')], ['class a', ampClass('Class A')], ['class b', ampClass('Class B')],
  ['class g', ampClass('Class G')], ['class h', ampClass('Class H')],
  ['unidirectional', tvsPolarity('Unidirectional')], ['bidirectional', tvsPolarity('Bidirectional')],
  ['uni directional', tvsPolarity('Unidirectional')], ['bi directional', tvsPolarity('Bidirectional')],
  ['rail to rail', railToRail('Rail-to-Rail')], ['rrio', railToRail('Rail-to-Rail Input, Rail-to-Rail Output', 'Rail-to-Rail Input/Output')],
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

/**
 * Packages known under several names (a JEDEC outline, a maker's short name, an EIAJ code): a part
 * written one way meets a query written another ("MiniMELF" and "LL-34", "SMA" and "DO-214AC",
 * "DPAK" and "TO-252"). Upper case, as the package check compares them.
 */
const PACKAGE_SYNONYMS: readonly (readonly string[])[] = [
  ['MINIMELF', 'LL-34', 'SOD-80', 'SOD-80C', 'DO-213AA'],
  ['MICROMELF', 'LS-31'],
  ['MELF', 'LL-41', 'DO-213AB'],
  // TO-39 is TO-5's can with shorter leads; catalogues and symbol libraries use either name.
  ['TO-5', 'TO-39'],
  ['SMA', 'DO-214AC'], ['SMB', 'DO-214AA'], ['SMC', 'DO-214AB'],
  ['SMF', 'SOD-123F', 'SOD-123FL'],
  ['DPAK', 'TO-252', 'TO-252-2', 'TO-252-3'], ['D2PAK', 'TO-263', 'TO-263-2', 'TO-263-3'], ['D3PAK', 'TO-268'],
  ['SOT-323', 'SC-70'], ['SOT-363', 'SC-88', 'SC-70-6'], ['SOT-353', 'SC-88A', 'SC-70-5'],
  ['SOT-23-5', 'SOT-25', 'SC-74A'], ['SOT-23-6', 'SOT-26', 'SC-74'], ['SOT-89', 'SC-62'],
  // onsemi names the thin 5- and 6-lead SOT-23 "TSOP-5" / "TSOP-6".
  ['TSOT-23-5', 'TSOP-5'], ['TSOT-23-6', 'TSOP-6'],
  ['SOD-323', 'SC-76'], ['SOD-523', 'SC-79'],
];
const PACKAGE_FORMS: ReadonlyMap<string, readonly string[]> = new Map(PACKAGE_SYNONYMS.flatMap((group) => group.map((name) => [name, group] as const)));

/**
 * Families of names that differ only in spelling, for any pin count: SOIC-n = SOP-n = SO-n, DIP-n =
 * PDIP-n, SOT-23-n = SOT-2n and TSOT-23-n = TSOT-2n (n = 3, 5, 6, 8), Multiwatt-n = TO-220-n (n = 11, 15),
 * and the wide-body SOIC: SOIC-nW = SOIC-n-300mil (and the SOP / SO spellings).
 */
const PIN_COUNT_FORMS: readonly { re: RegExp; forms(n: string): string[] }[] = [
  { re: /^(?:SOIC|SOP|SO)-(\d+)$/, forms: (n) => [`SOIC-${n}`, `SOP-${n}`, `SO-${n}`] },
  // The wide body: "W" or its width, 300 mil.
  { re: /^(?:SOIC|SOP|SO)-(\d+)(?:W|-300MIL)$/, forms: (n) => [`SOIC-${n}W`, `SOP-${n}W`, `SO-${n}W`, `SOIC-${n}-300MIL`, `SOP-${n}-300MIL`, `SO-${n}-300MIL`] },
  { re: /^P?DIP-(\d+)$/, forms: (n) => [`DIP-${n}`, `PDIP-${n}`] },
  { re: /^SOT-(?:23-|2)([3568])$/, forms: (n) => [`SOT-23-${n}`, `SOT-2${n}`] },
  { re: /^TSOT-(?:23-|2)([3568])$/, forms: (n) => [`TSOT-23-${n}`, `TSOT-2${n}`] },
  // ST's Multiwatt is the many-lead TO-220 (KiCad draws Multiwatt-11 as TO-220-11).
  { re: /^(?:MULTIWATT|TO-220)-(11|15)$/, forms: (n) => [`MULTIWATT-${n}`, `TO-220-${n}`] },
];

/** packageForms' answers by upper-case code. */
const formsOf = new Map<string, readonly string[]>();

/** A package code as the package check compares it: upper case, and every other name of the same package. */
export function packageForms(code: string): readonly string[] {
  const upper = code.toUpperCase();
  // The ranking asks once per candidate part for the same few codes: derive each code's names once.
  let known = formsOf.get(upper);
  if (known === undefined) {
    // The names of a name's names, until none is new ("TSOT-25" -> "TSOT-23-5" -> "TSOP-5"); a Set
    // iterates over what is added while it runs.
    const forms = new Set([upper]);
    for (const f of forms) {
      for (const x of PACKAGE_FORMS.get(f) ?? []) forms.add(x);
      for (const { re, forms: of } of PIN_COUNT_FORMS) {
        const m = re.exec(f);
        if (m) for (const x of of(m[1]!)) forms.add(x);
      }
    }
    known = [...forms];
    if (formsOf.size >= 10_000) formsOf.clear();
    formsOf.set(upper, known);
  }
  return known;
}

/** Imperial chip sizes written as bare digits ("0603"). A bare 4-digit token in this set is a package, never a value. */
export const CHIP_SIZES: ReadonlySet<string> = new Set([
  '01005', '0201', '0402', '0603', '0805', '1008', '1206', '1210', '1806', '1812', '1825', '2010', '2220', '2225',
  '2512', '2920', '0306', '0508', '0612', '1218', '0806',
]);

/**
 * Package codes whose family prefix is too common in part numbers to read as a family ("LS7366R" is an
 * MPN): recognised only as these exact spellings (lower case, as typed -> the code).
 */
export const NAMED_PACKAGES: ReadonlyMap<string, string> = new Map([
  ['ls-31', 'LS-31'],
  ['ls31', 'LS-31'],
]);

/** Package codes written without digits. */
export const LETTER_PACKAGES: ReadonlyMap<string, string> = new Map([
  ['sma', 'SMA'], ['smb', 'SMB'], ['smc', 'SMC'], ['smaf', 'SMAF'], ['smbf', 'SMBF'], ['dpak', 'DPAK'],
  ['d2pak', 'D2PAK'], ['d3pak', 'D3PAK'], ['ipak', 'IPAK'], ['melf', 'MELF'], ['minimelf', 'MiniMELF'],
  ['micromelf', 'MicroMELF'], ['powerpak', 'PowerPAK'], ['dfm', 'DFM'],
]);

/**
 * Package families followed by a pin count or outline number: "SOT-23-5", "SOIC8", "QFN-32", "TO220AB",
 * "DO-214AC", "HC-49S", "SMD3225-4P", "SOP-16-4.4mm". Written upper-case as FAMILY-NUMBER[SUFFIX][-PINS][-EP][-WIDTHMM]
 * the way catalogues do.
 */
export const PACKAGE_FAMILIES: readonly string[] = [
  'SOT', 'TSOT', 'SOD', 'SC', 'TO', 'DO', 'SO', 'SOIC', 'SOP', 'SSOP', 'TSSOP', 'HTSSOP', 'MSOP', 'VSSOP', 'TSOP',
  'ESOP', 'HSOP', 'QSOP', 'QFN', 'DFN', 'VQFN', 'WQFN', 'UQFN', 'TQFN', 'SON', 'VSON', 'WSON', 'USON', 'LQFP',
  'TQFP', 'QFP', 'PQFP', 'LFCSP', 'BGA', 'LGA', 'FBGA', 'UFBGA', 'WLCSP', 'DIP', 'PDIP', 'SDIP', 'SIP', 'PLCC',
  'UFQFPN', 'VFQFPN', 'HC', 'LL', 'TDSON', 'PDFN', 'TDFN', 'UDFN', 'WDFN', 'SMD', 'MULTIWATT',
];
