/** Logic gates (74LVC1G/74HC/74AHC1G/NL17SZ families, all from one function table) and USB interface ICs. */
import type { Candidate, Family } from '../model.ts';
import { opTemp, pinsOf, q, t, vRange } from '../units.ts';

const TI = 'Texas Instruments';
const NXP = 'Nexperia';
const ON = 'onsemi';
const DIO = 'Diodes Incorporated';

/** Function code -> logic type and inputs per gate. */
const FUNCTIONS: Record<string, { type: string; inputs: number; hcGates: number }> = {
  '00': { type: 'NAND Gate', inputs: 2, hcGates: 4 },
  '02': { type: 'NOR Gate', inputs: 2, hcGates: 4 },
  '04': { type: 'Inverter', inputs: 1, hcGates: 6 },
  '08': { type: 'AND Gate', inputs: 2, hcGates: 4 },
  '14': { type: 'Schmitt Trigger Inverter', inputs: 1, hcGates: 6 },
  '32': { type: 'OR Gate', inputs: 2, hcGates: 4 },
  '86': { type: 'XOR Gate', inputs: 2, hcGates: 4 },
};

interface LogicLine {
  manufacturer: string;
  family: string;
  single: boolean;
  pkg: string;
  supply: readonly [number, number];
  drive: number;
  delay: string;
  price: number;
  fns: readonly string[];
  mpn(fn: string): string;
  alias?(fn: string): string;
}

const ALL = Object.keys(FUNCTIONS);
const LVC1G = { family: '74LVC', single: true, supply: [1.65, 5.5] as const, drive: 0.024, delay: '3.6ns@5V,50pF' };
const HC = { family: '74HC', single: false, supply: [2, 6] as const, drive: 0.0052, delay: '9ns@5V,50pF' };
const AHC1G = { family: '74AHC', single: true, supply: [2, 5.5] as const, drive: 0.008, delay: '5ns@5V,50pF' };

const LINES: readonly LogicLine[] = [
  { manufacturer: TI, ...LVC1G, pkg: 'SOT-23-5', price: 0.06, fns: ALL, mpn: (f) => `SN74LVC1G${f}DBVR` },
  { manufacturer: TI, ...LVC1G, pkg: 'SC-70-5', price: 0.07, fns: ALL, mpn: (f) => `SN74LVC1G${f}DCKR` },
  { manufacturer: TI, ...HC, pkg: 'SOIC-14', price: 0.09, fns: ALL, mpn: (f) => `SN74HC${f}DR` },
  { manufacturer: TI, ...HC, pkg: 'TSSOP-14', price: 0.1, fns: ALL, mpn: (f) => `SN74HC${f}PWR` },
  { manufacturer: TI, ...HC, pkg: 'DIP-14', price: 0.2, fns: ALL, mpn: (f) => `SN74HC${f}N` },
  { manufacturer: TI, ...AHC1G, pkg: 'SOT-23-5', price: 0.07, fns: ['00', '04', '08', '32'], mpn: (f) => `SN74AHC1G${f}DBVR` },
  { manufacturer: NXP, ...LVC1G, pkg: 'SC-70-5', price: 0.05, fns: ALL, mpn: (f) => `74LVC1G${f}GW`, alias: (f) => `74LVC1G${f}GW,125` },
  { manufacturer: NXP, ...LVC1G, pkg: 'SOT-23-5', price: 0.05, fns: ALL, mpn: (f) => `74LVC1G${f}GV`, alias: (f) => `74LVC1G${f}GV,125` },
  { manufacturer: NXP, ...HC, pkg: 'SOIC-14', price: 0.07, fns: ALL, mpn: (f) => `74HC${f}D`, alias: (f) => `74HC${f}D,653` },
  { manufacturer: NXP, ...HC, pkg: 'TSSOP-14', price: 0.08, fns: ALL, mpn: (f) => `74HC${f}PW`, alias: (f) => `74HC${f}PW,118` },
  { manufacturer: ON, ...HC, pkg: 'SOIC-14', price: 0.08, fns: ['00', '02', '04', '08', '14', '32'], mpn: (f) => `MC74HC${f}ADR2G` },
  { manufacturer: ON, ...LVC1G, family: '74LVC (NL17SZ)', pkg: 'SC-70-5', price: 0.05, fns: ['00', '04', '08', '32', '86'], mpn: (f) => `NL17SZ${f}DFT2G` },
  { manufacturer: DIO, ...LVC1G, pkg: 'SOT-23-5', price: 0.05, fns: ['00', '04', '08', '14', '32', '86'], mpn: (f) => `74LVC1G${f}W5-7` },
  { manufacturer: DIO, ...AHC1G, pkg: 'SOT-23-5', price: 0.05, fns: ['00', '04', '08', '32'], mpn: (f) => `74AHC1G${f}W5-7` },
];

const GATE_COUNT: Record<number, string> = { 1: 'Single', 4: 'Quad', 6: 'Hex' };

function gate(line: LogicLine, fn: string): Candidate {
  const f = FUNCTIONS[fn]!;
  const gates = line.single ? 1 : f.hcGates;
  const mpn = line.mpn(fn);
  const ioWord = f.inputs === 1 ? 'single-input' : `${f.inputs}-input`;
  return {
    mpn,
    manufacturer: line.manufacturer,
    series: line.family,
    description: `${GATE_COUNT[gates]} ${f.type} ${f.inputs}-Input ${vRange(line.supply[0], line.supply[1])} ${line.delay} ${line.family} ${line.pkg} Gates`,
    longDescription: `${GATE_COUNT[gates]} ${ioWord} ${f.type.toLowerCase()}${gates > 1 ? 's' : ''}, ${line.family} family, ${vRange(line.supply[0], line.supply[1])} supply, ${line.pkg}. Typical uses: glue logic, signal inversion and gating, level cleanup${fn === '14' ? ' of slow or noisy edges' : ''}.`,
    ...(line.alias ? { aliases: [line.alias(fn)] } : {}),
    package: line.pkg,
    specs: [
      t('Logic Type', f.type),
      t('Number of Circuits', String(gates)),
      t('Number of Inputs', String(f.inputs)),
      t('Supply Voltage', vRange(line.supply[0], line.supply[1])),
      q('Output Current (Ioh/Iol)', line.drive, 'A'),
      t('Propagation Delay (tpd)', line.delay),
      t('Logic Family', line.family),
      opTemp(-40, line.single ? 125 : 85),
      t('Package', line.pkg),
    ],
    price: line.price,
    packaging: line.pkg.startsWith('DIP') ? 'Tube' : 'Tape & Reel (TR)',
    pins: pinsOf(line.pkg),
    weight: fn === '04' || fn === '00' || fn === '14' ? 2 : 1,
    pinned: mpn === 'SN74LVC1G00DBVR',
    datasheet: mpn.replace(/(DBVR|DCKR|DR|PWR|N|GW|GV|D|PW|ADR2G|DFT2G|W5-7)$/, ''),
  };
}

export const logicGates: Family = {
  id: 'logic-gates',
  category: ['Logic', 'Gates'],
  weight: 55,
  passive: false,
  candidates: () => LINES.flatMap((line) => line.fns.map((fn) => gate(line, fn))),
};

// ---------------------------------------------------------------- USB ICs

type UsbRow = readonly [
  mpn: string,
  manufacturer: string,
  series: string,
  fn: string,
  protocol: string,
  iface: string,
  pkg: string,
  supply: readonly [number, number],
  price: number,
];

const USB: readonly UsbRow[] = [
  ['TUSB320IRWBR', TI, 'TUSB320', 'USB Type-C Configuration Channel Logic', 'USB Type-C', 'I2C, GPIO', 'X2QFN-12(1.6x1.6)', [2.7, 5], 0.9],
  ['TPS25750DRJKR', TI, 'TPS25750', 'USB Power Delivery Controller', 'USB PD 3.0', 'I2C', 'WQFN-38(6x4)', [3, 5.5], 2.9],
  ['TUSB4041IPAPR', TI, 'TUSB4041', 'USB 2.0 Hub Controller (4-Port)', 'USB 2.0', 'USB', 'HTQFP-64(10x10)', [3, 3.6], 3.5],
  ['USB2514B-AEZG-TR', 'Microchip Technology', 'USB2514B', 'USB 2.0 Hub Controller (4-Port)', 'USB 2.0', 'USB, SMBus', 'QFN-36(6x6)', [3, 3.6], 2.3],
  ['USB3320C-EZK-TR', 'Microchip Technology', 'USB3320', 'USB 2.0 ULPI Transceiver (PHY)', 'USB 2.0', 'ULPI', 'QFN-32(5x5)', [3, 3.6], 1.5],
  ['MCP2221A-I/SL', 'Microchip Technology', 'MCP2221A', 'USB to UART/I2C Bridge', 'USB 2.0', 'UART, I2C, GPIO', 'SOIC-14', [3, 5.5], 1.6],
  ['MCP2200-I/SO', 'Microchip Technology', 'MCP2200', 'USB to UART Bridge', 'USB 2.0', 'UART, GPIO', 'SOIC-20', [3, 5.5], 2.2],
  ['STUSB4500QTR', 'STMicroelectronics', 'STUSB4500', 'USB Power Delivery Sink Controller', 'USB PD 3.0', 'I2C', 'QFN-24(4x4)', [4.1, 22], 1.6],
  ['STUSB4500LQTR', 'STMicroelectronics', 'STUSB4500L', 'USB Type-C Sink Controller (no PD)', 'USB Type-C', 'I2C', 'QFN-24(4x4)', [4.1, 22], 1.2],
  ['STUSB1602QTR', 'STMicroelectronics', 'STUSB1602', 'USB Type-C Port Controller with PD PHY', 'USB PD 3.0', 'I2C, SPI', 'QFN-24(4x4)', [3, 22], 2.1],
  ['PI3USB102EZLEX', DIO, 'PI3USB102E', 'USB 2.0 High-Speed 2:1 Switch', 'USB 2.0', 'GPIO', 'UQFN-10(1.4x1.8)', [2.5, 5.5], 0.5],
  ['PI3USB30532ZLEX', DIO, 'PI3USB30532', 'USB 3.0 / DisplayPort Type-C Crossbar Switch', 'USB 3.0', 'I2C', 'TQFN-40(6x4)', [3, 3.6], 3.5],
  ['FUSB302BMPX', ON, 'FUSB302', 'USB Type-C PD PHY', 'USB PD 3.0', 'I2C', 'WQFN-14(2.5x2.5)', [3, 5.5], 0.9],
  ['CYPD3177-24LQXQ', 'Infineon', 'EZ-PD BCR', 'USB PD Barrel Connector Replacement Sink', 'USB PD 3.0', 'I2C, GPIO', 'QFN-24(4x4)', [4, 21.5], 1.1],
  ['CY7C65213-28PVXI', 'Infineon', 'CY7C65213', 'USB to UART Bridge', 'USB 2.0', 'UART, GPIO', 'SSOP-28', [1.71, 5.5], 2.5],
];

export const usbInterfaces: Family = {
  id: 'usb-ics',
  category: ['Interface', 'USB ICs'],
  weight: 15,
  passive: false,
  candidates: () =>
    USB.map(([mpn, manufacturer, series, fn, protocol, iface, pkg, supply, price]) => ({
      mpn,
      manufacturer,
      series,
      description: `${fn} ${protocol} ${iface} ${vRange(supply[0], supply[1])} ${pkg} USB ICs`,
      longDescription: `${fn}, ${protocol}, ${iface} host interface, ${vRange(supply[0], supply[1])} supply, ${pkg}. Typical uses: ${protocol.startsWith('USB PD') || protocol === 'USB Type-C' ? 'USB-C power input negotiation for chargers and powered devices' : 'adding USB connectivity to embedded boards and debug adapters'}.`,
      package: pkg,
      specs: [
        t('Function', fn),
        t('USB Protocol', protocol),
        t('Interface', iface),
        t('Supply Voltage', vRange(supply[0], supply[1])),
        opTemp(-40, 85),
        t('Package', pkg),
      ],
      price,
      packaging: 'Tape & Reel (TR)',
      pins: pinsOf(pkg),
      weight: ['MCP2221A-I/SL', 'USB2514B-AEZG-TR', 'FUSB302BMPX'].includes(mpn) ? 2 : 1,
      datasheet: series,
    }) satisfies Candidate),
};
