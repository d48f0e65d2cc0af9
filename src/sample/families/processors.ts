/** Microcontrollers / wireless SoCs and certified Wi-Fi/Bluetooth modules. */
import type { Candidate, Family } from '../model.ts';
import { opTemp, pinsOf, q, si, t, vRange } from '../units.ts';

const ST = 'STMicroelectronics';
const MCHP = 'Microchip Technology';
const TI = 'Texas Instruments';
const NORDIC = 'Nordic Semiconductor';
const ESP = 'Espressif Systems';

type McuRow = readonly [
  mpn: string,
  manufacturer: string,
  series: string,
  core: string,
  mhz: number,
  flash: string,
  ram: string,
  io: number,
  pkg: string,
  supply: readonly [number, number],
  price: number,
  status?: string,
];

const MCUS: readonly McuRow[] = [
  ['STM32F103C8T6', ST, 'STM32F1', 'ARM Cortex-M3', 72, '64KB', '20KB', 37, 'LQFP-48', [2, 3.6], 1.8],
  ['STM32F103CBT6', ST, 'STM32F1', 'ARM Cortex-M3', 72, '128KB', '20KB', 37, 'LQFP-48', [2, 3.6], 2.1],
  ['STM32F103RCT6', ST, 'STM32F1', 'ARM Cortex-M3', 72, '256KB', '48KB', 51, 'LQFP-64', [2, 3.6], 3.5],
  ['STM32F030F4P6', ST, 'STM32F0', 'ARM Cortex-M0', 48, '16KB', '4KB', 15, 'TSSOP-20', [2.4, 3.6], 0.55],
  ['STM32F030K6T6', ST, 'STM32F0', 'ARM Cortex-M0', 48, '32KB', '4KB', 26, 'LQFP-32', [2.4, 3.6], 0.75],
  ['STM32G031K8T6', ST, 'STM32G0', 'ARM Cortex-M0+', 64, '64KB', '8KB', 30, 'LQFP-32', [1.7, 3.6], 0.9],
  ['STM32G030F6P6', ST, 'STM32G0', 'ARM Cortex-M0+', 64, '32KB', '8KB', 18, 'TSSOP-20', [2, 3.6], 0.5],
  ['STM32G431CBU6', ST, 'STM32G4', 'ARM Cortex-M4', 170, '128KB', '32KB', 42, 'UFQFPN-48(7x7)', [1.71, 3.6], 3.2],
  ['STM32F401CCU6', ST, 'STM32F4', 'ARM Cortex-M4', 84, '256KB', '64KB', 36, 'UFQFPN-48(7x7)', [1.7, 3.6], 2.4],
  ['STM32F411CEU6', ST, 'STM32F4', 'ARM Cortex-M4', 100, '512KB', '128KB', 36, 'UFQFPN-48(7x7)', [1.7, 3.6], 3.1],
  ['STM32F407VGT6', ST, 'STM32F4', 'ARM Cortex-M4', 168, '1MB', '192KB', 82, 'LQFP-100', [1.8, 3.6], 7.5],
  ['STM32H743VIT6', ST, 'STM32H7', 'ARM Cortex-M7', 480, '2MB', '1MB', 82, 'LQFP-100', [1.62, 3.6], 12.4],
  ['STM32L476RGT6', ST, 'STM32L4', 'ARM Cortex-M4', 80, '1MB', '128KB', 51, 'LQFP-64', [1.71, 3.6], 6.2],
  ['STM32C031K6T6', ST, 'STM32C0', 'ARM Cortex-M0+', 48, '32KB', '12KB', 30, 'LQFP-32', [2, 3.6], 0.45],
  ['ATMEGA328P-AU', MCHP, 'megaAVR', 'AVR', 20, '32KB', '2KB', 23, 'TQFP-32', [1.8, 5.5], 1.6],
  ['ATMEGA328P-PU', MCHP, 'megaAVR', 'AVR', 20, '32KB', '2KB', 23, 'DIP-28', [1.8, 5.5], 2.1],
  ['ATMEGA32U4-AU', MCHP, 'megaAVR', 'AVR', 16, '32KB', '2.5KB', 26, 'TQFP-44', [2.7, 5.5], 3.3],
  ['ATTINY85-20SU', MCHP, 'tinyAVR', 'AVR', 20, '8KB', '512B', 6, 'SOIC-8', [2.7, 5.5], 0.95],
  ['ATTINY85-20PU', MCHP, 'tinyAVR', 'AVR', 20, '8KB', '512B', 6, 'DIP-8', [2.7, 5.5], 1.2],
  ['ATSAMD21G18A-AU', MCHP, 'SAM D21', 'ARM Cortex-M0+', 48, '256KB', '32KB', 38, 'TQFP-48', [1.62, 3.63], 3.4],
  ['ATSAMD21E18A-MU', MCHP, 'SAM D21', 'ARM Cortex-M0+', 48, '256KB', '32KB', 26, 'QFN-32(5x5)', [1.62, 3.63], 3.1],
  ['PIC16F1455-I/SL', MCHP, 'PIC16', 'PIC', 48, '14KB', '1KB', 11, 'SOIC-14', [1.8, 5.5], 1.4],
  ['PIC18F46K22-I/PT', MCHP, 'PIC18', 'PIC', 64, '64KB', '3.8KB', 35, 'TQFP-44', [1.8, 5.5], 3.5],
  ['PIC12F675-I/SN', MCHP, 'PIC12', 'PIC', 20, '1.75KB', '64B', 6, 'SOIC-8', [2, 5.5], 0.9, 'nrnd'],
  ['MSP430G2553IPW20R', TI, 'MSP430G2x', 'MSP430', 16, '16KB', '512B', 16, 'TSSOP-20', [1.8, 3.6], 1.8],
  ['MSP430FR2433IRGER', TI, 'MSP430FR2x', 'MSP430', 16, '16KB', '4KB', 19, 'VQFN-24(4x4)', [1.8, 3.6], 1.2],
  ['MSPM0G3507SPTR', TI, 'MSPM0G', 'ARM Cortex-M0+', 80, '128KB', '32KB', 60, 'LQFP-64', [1.62, 3.6], 1.3],
  ['NRF52832-QFAA-R', NORDIC, 'nRF52', 'ARM Cortex-M4F', 64, '512KB', '64KB', 32, 'QFN-48(6x6)', [1.7, 3.6], 2.9],
  ['NRF52840-QIAA-R', NORDIC, 'nRF52', 'ARM Cortex-M4F', 64, '1MB', '256KB', 48, 'AQFN-73(7x7)', [1.7, 5.5], 4.8],
  ['NRF52810-QCAA-R', NORDIC, 'nRF52', 'ARM Cortex-M4', 64, '192KB', '24KB', 16, 'QFN-32(5x5)', [1.7, 3.6], 1.9],
  ['NRF5340-QKAA-R', NORDIC, 'nRF53', 'ARM Cortex-M33', 128, '1MB', '512KB', 48, 'AQFN-94(7x7)', [1.7, 5.5], 6.1],
  ['NRF54L15-QFAA-R', NORDIC, 'nRF54L', 'ARM Cortex-M33', 128, '1.5MB', '256KB', 31, 'QFN-48(6x6)', [1.7, 3.6], 3.2, 'engineering_sample'],
  ['ESP32-C3FH4', ESP, 'ESP32-C3', 'RISC-V', 160, '4MB', '400KB', 22, 'QFN-32(5x5)', [3, 3.6], 1.4],
  ['ESP32-C6FH4', ESP, 'ESP32-C6', 'RISC-V', 160, '4MB', '512KB', 22, 'QFN-32(5x5)', [3, 3.6], 1.5],
  ['ESP32-S3FN8', ESP, 'ESP32-S3', 'Xtensa LX7 dual-core', 240, '8MB', '512KB', 45, 'QFN-56(7x7)', [3, 3.6], 2.6],
  ['ESP32-D0WD-V3', ESP, 'ESP32', 'Xtensa LX6 dual-core', 240, 'External', '520KB', 34, 'QFN-48(5x5)', [3, 3.6], 1.9],
  ['CY8C4245AXI-483', 'Infineon', 'PSoC 4', 'ARM Cortex-M0', 48, '32KB', '4KB', 36, 'TQFP-44', [1.71, 5.5], 2.6],
  ['MAX32660GTP+', 'Analog Devices', 'MAX3266x', 'ARM Cortex-M4F', 96, '256KB', '96KB', 14, 'TQFN-20(4x4)', [1.62, 3.6], 2.6],
];

const WIRELESS_SOC = new Set([NORDIC, ESP]);

export const microcontrollers: Family = {
  id: 'mcu',
  category: ['Embedded Processors & Controllers', 'Microcontrollers (MCU/MPU/SOC)'],
  weight: 40,
  passive: false,
  candidates: () =>
    MCUS.map(([mpn, manufacturer, series, core, mhz, flash, ram, io, pkg, supply, price, status]) => {
      const soc = WIRELESS_SOC.has(manufacturer);
      const memType = flash === 'External' ? 'External' : series.startsWith('MSP430FR') ? 'FRAM' : 'FLASH';
      const radio = manufacturer === ESP ? 'Wi-Fi and Bluetooth LE' : 'Bluetooth LE';
      return {
        mpn,
        manufacturer,
        series,
        description: `${core} ${si(mhz * 1e6, 'Hz')} ${flash} ${ram} ${memType} ${io} ${vRange(supply[0], supply[1])} ${pkg} Microcontrollers (MCU/MPU/SOC)`,
        longDescription: `${soc ? `${radio} SoC` : `${core.startsWith('ARM') ? '32-bit' : core === 'AVR' || core === 'PIC' ? '8-bit' : '16-bit'} microcontroller`}, ${core} at ${si(mhz * 1e6, 'Hz')}, ${flash === 'External' ? 'external flash' : `${flash} ${memType.toLowerCase()}`}, ${ram} RAM, ${io} I/Os, ${vRange(supply[0], supply[1])}, ${pkg}. Typical uses: ${soc ? 'connected sensors, wearables, IoT gateways' : 'control, motor drive, data logging and general embedded applications'}.`,
        package: pkg,
        specs: [
          t('CPU Core', core),
          q('CPU Maximum Speed', mhz * 1e6, 'Hz'),
          t('Program Storage Size', flash),
          t('Program Memory Type', memType),
          t('RAM Size', ram),
          t('Number of I/Os', String(io)),
          t('Supply Voltage', vRange(supply[0], supply[1])),
          t('ADC (Bit)', core === 'PIC' || core === 'AVR' ? '10bit' : '12bit'),
          opTemp(-40, 85),
          t('Package', pkg),
        ],
        price,
        packaging: pkg.startsWith('DIP') ? 'Tube' : /^(LQFP|TQFP)/.test(pkg) ? 'Tray' : 'Tape & Reel (TR)',
        pins: pinsOf(pkg),
        weight: ['STM32F103C8T6', 'STM32G031K8T6', 'ATMEGA328P-AU', 'ESP32-C3FH4'].includes(mpn) ? 3 : 1,
        pinned: mpn === 'STM32F103C8T6' || mpn === 'STM32G031K8T6',
        ...(status ? { status } : {}),
        datasheet: series,
      } satisfies Candidate;
    }),
};

// ---------------------------------------------------------------- Wi-Fi / Bluetooth modules

type ModuleRow = readonly [
  mpn: string,
  manufacturer: string,
  series: string,
  chip: string,
  standard: string,
  iface: string,
  antenna: string,
  flash: string,
  pkg: string,
  pins: number,
  price: number,
  alias?: string,
  status?: string,
];

const BT42 = 'WiFi 802.11b/g/n, Bluetooth 4.2 BR/EDR + BLE';
const BT5 = 'WiFi 802.11b/g/n, Bluetooth 5 (LE)';
const ESP_IO = 'UART, SPI, I2C, I2S, SDIO, GPIO, PWM, ADC';

const MODULES: readonly ModuleRow[] = [
  ['ESP32-WROOM-32E-N4', ESP, 'ESP32-WROOM-32E', 'ESP32-D0WD-V3', BT42, ESP_IO, 'PCB Antenna', '4MB', 'SMD,25.5x18mm', 38, 2.9, 'ESP32-WROOM-32E'],
  ['ESP32-WROOM-32E-N8', ESP, 'ESP32-WROOM-32E', 'ESP32-D0WD-V3', BT42, ESP_IO, 'PCB Antenna', '8MB', 'SMD,25.5x18mm', 38, 3.2],
  ['ESP32-WROOM-32E-N16', ESP, 'ESP32-WROOM-32E', 'ESP32-D0WD-V3', BT42, ESP_IO, 'PCB Antenna', '16MB', 'SMD,25.5x18mm', 38, 3.6],
  ['ESP32-WROOM-32UE-N4', ESP, 'ESP32-WROOM-32E', 'ESP32-D0WD-V3', BT42, ESP_IO, 'IPEX Connector', '4MB', 'SMD,19.2x18mm', 38, 3.0],
  ['ESP32-WROVER-E-N8R8', ESP, 'ESP32-WROVER-E', 'ESP32-D0WD-V3', BT42, ESP_IO, 'PCB Antenna', '8MB', 'SMD,31.4x18mm', 38, 4.0],
  ['ESP32-S3-WROOM-1-N8R2', ESP, 'ESP32-S3-WROOM-1', 'ESP32-S3', BT5, `${ESP_IO}, USB`, 'PCB Antenna', '8MB', 'SMD,25.5x18mm', 41, 3.5],
  ['ESP32-S3-WROOM-1-N16R8', ESP, 'ESP32-S3-WROOM-1', 'ESP32-S3', BT5, `${ESP_IO}, USB`, 'PCB Antenna', '16MB', 'SMD,25.5x18mm', 41, 4.5],
  ['ESP32-C3-MINI-1-N4', ESP, 'ESP32-C3-MINI-1', 'ESP32-C3', BT5, 'UART, SPI, I2C, GPIO, PWM, ADC, USB', 'PCB Antenna', '4MB', 'SMD,13.2x16.6mm', 53, 1.9],
  ['ESP32-C3-WROOM-02-N4', ESP, 'ESP32-C3-WROOM-02', 'ESP32-C3', BT5, 'UART, SPI, I2C, GPIO, PWM, ADC', 'PCB Antenna', '4MB', 'SMD,18x20mm', 19, 2.0],
  ['ESP32-C6-WROOM-1-N8', ESP, 'ESP32-C6-WROOM-1', 'ESP32-C6', 'WiFi 6 802.11ax, Bluetooth 5 (LE), 802.15.4', 'UART, SPI, I2C, SDIO, GPIO, USB', 'PCB Antenna', '8MB', 'SMD,25.5x18mm', 29, 2.6],
  ['ESP-WROOM-02D-N4', ESP, 'ESP-WROOM-02D', 'ESP8266EX', 'WiFi 802.11b/g/n', 'UART, SPI, I2C, GPIO', 'PCB Antenna', '4MB', 'SMD,18x20mm', 19, 1.8, undefined, 'nrnd'],
  ['LBEE5KL1DX-883', 'Murata', 'Type 1DX', 'CYW4343W', 'WiFi 802.11b/g/n, Bluetooth 5.1', 'SDIO, UART', 'External', '-', 'SMD,10x7.2mm', 62, 5.5],
  ['RN4871-V/RM118', 'Microchip Technology', 'RN4871', 'IS1871', 'Bluetooth 5 (LE)', 'UART', 'Chip Antenna', '-', 'SMD,9x11.5mm', 16, 7.8],
  ['ATWINC1500-MR210PB1961', 'Microchip Technology', 'ATWINC1500', 'ATWINC1500B', 'WiFi 802.11b/g/n', 'SPI, UART', 'PCB Antenna', '4Mb', 'SMD,21.7x14.7mm', 28, 9.5],
  ['WFI32E01PC-I', 'Microchip Technology', 'WFI32E01', 'PIC32MZ W1', 'WiFi 802.11b/g/n', 'UART, SPI, I2C, USB, CAN, Ethernet', 'PCB Antenna', '1MB', 'SMD,24x20.5mm', 55, 11.0],
  ['2611011024000', 'Würth Elektronik', 'Proteus-III', 'nRF52840', 'Bluetooth 5 (LE)', 'UART', 'PCB Antenna', '-', 'SMD,12x8mm', 22, 9.9],
  ['2610011025000', 'Würth Elektronik', 'Calypso', 'CC3220MODAS', 'WiFi 802.11b/g/n', 'UART, SPI', 'PCB Antenna', '-', 'SMD,21x13.5mm', 44, 14.0],
];

export const wirelessModules: Family = {
  id: 'wireless-modules',
  category: ['RF and Wireless', 'WiFi/Bluetooth Modules'],
  weight: 18,
  passive: false,
  candidates: () =>
    MODULES.map(([mpn, manufacturer, series, chip, standard, iface, antenna, flash, pkg, pins, price, alias, status]) => ({
      mpn,
      manufacturer,
      series,
      description: `${standard} ${chip} ${antenna} ${iface} ${pkg} WiFi/Bluetooth Modules`,
      longDescription: `Certified ${standard.startsWith('WiFi') ? 'Wi-Fi' : 'Bluetooth LE'} module based on ${chip}${flash !== '-' ? ` with ${flash} flash` : ''}, ${antenna === 'IPEX Connector' ? 'external antenna via IPEX connector' : antenna.toLowerCase()}, ${iface} interfaces, ${pkg.replace('SMD,', '')} footprint. Typical uses: IoT nodes, gateways, wireless sensor bridges.`,
      ...(alias ? { aliases: [alias] } : {}),
      package: pkg,
      specs: [
        t('Wireless Standard', standard),
        t('Utilized IC / Part', chip),
        q('Frequency', 2.4e9, 'Hz'),
        t('Interface', iface),
        t('Antenna Type', antenna),
        ...(flash !== '-' ? [t('Flash Size', flash)] : []),
        t('Supply Voltage', vRange(3, 3.6)),
        opTemp(-40, 85),
        t('Package', pkg),
      ],
      price,
      packaging: 'Tape & Reel (TR)',
      pins,
      weight: mpn.startsWith('ESP32-WROOM-32E') || mpn.startsWith('ESP32-C3') ? 3 : 1,
      pinned: mpn === 'ESP32-WROOM-32E-N4',
      ...(status ? { status } : {}),
      datasheet: series,
    }) satisfies Candidate),
};
