/** Manufacturers and the category tree of the sample catalogue. */
import type { CategoryNode, ManufacturerInfo } from './model.ts';

const m = (name: string, aliases: string[], slug: string, mouser: string, digikey: string, logo = true): ManufacturerInfo => ({
  name,
  aliases,
  slug,
  mouser,
  digikey,
  logo,
});

export const MANUFACTURERS: readonly ManufacturerInfo[] = [
  m('Texas Instruments', ['TI', 'TEXAS INSTRUMENTS'], 'ti', '595', '296'),
  m('STMicroelectronics', ['ST', 'STM'], 'st', '511', '497'),
  m('onsemi', ['ON Semiconductor', 'ON Semi'], 'onsemi', '863', '488'),
  m('Murata', ['Murata Electronics'], 'murata', '81', '490'),
  m('Samsung Electro-Mechanics', ['Samsung', 'SEMCO'], 'samsung-em', '187', '1276'),
  m('YAGEO', ['Yageo'], 'yageo', '603', '311'),
  m('Vishay', ['Vishay Intertech', 'Vishay Intertechnology'], 'vishay', '71', '541'),
  m('Nexperia', ['NXP Standard Products'], 'nexperia', '771', '1727'),
  m('Microchip Technology', ['Microchip', 'Microchip Tech'], 'microchip', '579', '150'),
  m('Analog Devices', ['ADI', 'Analog Devices Inc.'], 'adi', '584', '505'),
  m('Infineon', ['Infineon Technologies', 'International Rectifier'], 'infineon', '726', '448'),
  m('Alpha & Omega Semiconductor', ['AOS'], 'aos', '942', '785'),
  m('Diodes Incorporated', ['Diodes Inc', 'DIODES'], 'diodes', '621', '31'),
  m('Nichicon', ['NICHICON'], 'nichicon', '647', '493', false),
  m('KEMET', ['Kemet Electronics'], 'kemet', '80', '399'),
  m('TDK', ['TDK Corporation'], 'tdk', '810', '445'),
  m('Bourns', ['Bourns Inc.'], 'bourns', '652', '118'),
  m('UNI-ROYAL', ['UNI-ROYAL(Uniroyal Elec)', 'Uniroyal Electronics'], 'uni-royal', '', '', false),
  m('Espressif Systems', ['Espressif'], 'espressif', '356', '1965'),
  m('Nordic Semiconductor', ['Nordic', 'Nordic Semicon'], 'nordic', '949', '1490'),
  m('Würth Elektronik', ['Wurth', 'Wurth Elektronik', 'Würth'], 'wurth', '710', '732'),
  m('Epson', ['Seiko Epson', 'EPSON'], 'epson', '732', 'SER', false),
  m('Abracon', ['ABRACON', 'Abracon LLC'], 'abracon', '815', '535'),
  m('Kingbright', ['KINGBRIGHT'], 'kingbright', '604', '754'),
  m('Everlight', ['Everlight Elec', 'EVERLIGHT'], 'everlight', '638', '1080', false),
  m('Advanced Monolithic Systems', ['AMS', 'Advanced Monolithic'], 'ams', '', '1589', false),
];

const BY_NAME = new Map(MANUFACTURERS.map((x) => [x.name, x]));

export function manufacturer(name: string): ManufacturerInfo {
  const found = BY_NAME.get(name);
  if (!found) throw new Error(`sample: unknown manufacturer ${name}`);
  return found;
}

const c = (name: string, description: string, children?: CategoryNode[]): CategoryNode => (children ? { name, description, children } : { name, description });

export const CATEGORY_TREE: readonly CategoryNode[] = [
  c('Resistors', 'Fixed resistors for current limiting, biasing, pull-ups and dividers.', [
    c('Chip Resistor - Surface Mount', 'Thick and thin film SMD chip resistors in 0402 to 1206 cases.'),
    c('Through Hole Resistors', 'Axial leaded carbon and metal film resistors.'),
  ]),
  c('Capacitors', 'Ceramic, tantalum and electrolytic capacitors for decoupling, filtering and bulk storage.', [
    c('Multilayer Ceramic Capacitors MLCC - SMD/SMT', 'Surface-mount MLCCs: C0G/NP0, X7R and X5R dielectrics.'),
    c('Tantalum Capacitors', 'Solid tantalum chip capacitors, molded cases A to D.'),
    c('Aluminum Electrolytic Capacitors - SMD', 'Surface-mount (V-chip) aluminum electrolytic capacitors.'),
  ]),
  c('Inductors/Coils/Transformers', 'Inductors for power conversion and filtering, and EMI suppression beads.', [
    c('Power Inductors', 'Shielded and semi-shielded SMD inductors for DC-DC converters.'),
    c('Ferrite Beads', 'Chip ferrite beads for high-frequency noise suppression.'),
  ]),
  c('Crystals, Oscillators, Resonators', 'Frequency control: quartz crystals and clock oscillators.', [
    c('Crystals', 'Quartz crystal units (MHz AT-cut and 32.768kHz tuning fork).'),
    c('Crystal Oscillators', 'Packaged clock oscillators (XO) with CMOS output.'),
  ]),
  c('Clock and Timing', 'Timers and clock generation ICs.', [c('555 Timers', 'Bipolar and CMOS 555/556 timers.')]),
  c('Power Management ICs', 'Voltage regulation and power conversion ICs.', [
    c('Voltage Regulators', 'Linear regulators and references.', [
      c('Linear Voltage Regulators (LDO)', 'Fixed and adjustable linear regulators, including low-dropout types.'),
    ]),
    c('DC-DC Converters', 'Switching regulators: buck, boost and buck-boost converters with integrated switches.'),
  ]),
  c('Amplifiers', 'Operational amplifiers and comparators.', [
    c('Operational Amplifiers', 'General-purpose, rail-to-rail, precision and low-power op amps.'),
    c('Comparators', 'Voltage comparators with open-collector and push-pull outputs.'),
  ]),
  c('Transistors', 'Discrete MOSFETs and bipolar transistors.', [
    c('MOSFETs', 'N- and P-channel enhancement-mode MOSFETs.'),
    c('Bipolar Transistors - BJT', 'NPN and PNP small-signal and general-purpose transistors.'),
  ]),
  c('Triode/MOS Tube/Transistor', 'Transistors as filed by some distributors (overlaps "Transistors").', [
    c('MOSFETs', 'MOSFETs as filed by some distributors.'),
  ]),
  c('Diodes', 'Signal, Schottky and Zener diodes.', [
    c('Switching Diodes', 'Small-signal fast switching diodes such as 1N4148.'),
    c('Schottky Diodes', 'Low forward-voltage Schottky barrier diodes and rectifiers.'),
    c('Zener Diodes', 'Voltage reference and clamp Zener diodes.'),
  ]),
  c('Optoelectronics', 'LEDs and optical components.', [c('LED Indication - Discrete', 'Single-colour indicator LEDs, SMD and through-hole.')]),
  c('Embedded Processors & Controllers', 'Microcontrollers, microprocessors and wireless SoCs.', [
    c('Microcontrollers (MCU/MPU/SOC)', '8-bit and 32-bit microcontrollers and wireless SoCs.'),
  ]),
  c('RF and Wireless', 'Radio modules and RF components.', [c('WiFi/Bluetooth Modules', 'Certified Wi-Fi and Bluetooth LE modules with integrated antenna.')]),
  c('Logic', 'Standard logic ICs.', [c('Gates', 'Single-gate and multi-gate logic: AND, NAND, OR, NOR, XOR, inverters.')]),
  c('Interface', 'Interface ICs.', [c('USB ICs', 'USB hubs, bridges, PHYs and USB Type-C/PD controllers.')]),
  c('Sensors', 'Sensors and transducers.', [c('Temperature Sensors', 'Digital and analog IC temperature sensors.')]),
];

/** Every root-to-node path in the tree, joined with " > ". */
export function categoryPaths(tree: readonly CategoryNode[] = CATEGORY_TREE): Set<string> {
  const out = new Set<string>();
  const walk = (nodes: readonly CategoryNode[], prefix: string[]) => {
    for (const n of nodes) {
      const path = [...prefix, n.name];
      out.add(path.join(' > '));
      if (n.children) walk(n.children, path);
    }
  };
  walk(tree, []);
  return out;
}
