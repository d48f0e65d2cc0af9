/**
 * Curated vocabulary for free-text name matching: the words hardware engineers type that the
 * category and manufacturer names do not spell out. Kept deliberately small: each entry must be a
 * well-known equivalence, not a guess. Phrases are written in plain words; both the tables and the
 * queries go through the same tokeniser and stemmer (text.ts), so case, punctuation and plurals do
 * not matter here ("Op-Amps" and "op amp" are the same phrase).
 *
 * Categories
 * - CATEGORY_SYNONYM_GROUPS: sets of interchangeable phrases. When a query contains any member, the
 *   other members become alternatives for that part of the query ("opamp" may match "Operational
 *   Amplifiers" or "Precision Op Amps"). An alternative scores a little below the words typed.
 * - CATEGORY_EXPANSIONS: one-way rewrites for abbreviations and shop talk ("pot" -> potentiometer,
 *   "buck converter" -> DC-DC converter). One-way because the reverse would be wrong or noisy
 *   ("chip" must not mean SMD).
 *
 * Manufacturers
 * - MANUFACTURER_ABBREVIATIONS: industry short names -> the full names they stand for. At build time
 *   each short name is attached to every manufacturer whose name (legal suffixes and generic words
 *   removed) equals one of the full names, unless the data already carries it as an alias.
 *
 * Also: STOPWORDS (dropped from category names and queries) and the legal / generic company words
 * that manufacturer matching may ignore.
 */

export const STOPWORDS: ReadonlySet<string> = new Set(['and', 'or', 'the', 'of', 'for', 'with', 'to', 'in', 'a', 'an', 'by']);

export const CATEGORY_SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // passives
  ['cap', 'capacitor'],
  ['res', 'resistor'],
  ['mlcc', 'multilayer ceramic capacitor', 'multi layer ceramic capacitor'],
  ['potentiometer', 'variable resistor'],
  ['ntc', 'ntc thermistor'],
  ['bead', 'ferrite bead'],
  ['xfmr', 'transformer'],
  // discretes
  ['bjt', 'bipolar transistor', 'bipolar junction transistor'],
  ['mosfet', 'mos transistor', 'mos fet'],
  ['igbt', 'insulated gate bipolar transistor'],
  ['scr', 'thyristor'],
  ['tvs', 'transient voltage suppressor', 'tvs diode'],
  ['esd', 'electrostatic discharge', 'electrostatic'],
  ['sbd', 'schottky'],
  ['led', 'light emitting diode'],
  ['ir', 'infrared'],
  ['sic', 'silicon carbide'],
  ['gan', 'gallium nitride'],
  // power
  ['ldo', 'low dropout regulator', 'low drop out regulator', 'linear voltage regulator', 'linear regulator'],
  ['dcdc', 'dcdc converter', 'switching regulator'],
  ['pmic', 'power management'],
  ['poe', 'power over ethernet'],
  ['ptc fuse', 'polyfuse', 'resettable fuse', 'pptc'],
  ['gdt', 'gas discharge tube'],
  ['tss', 'thyristor surge suppressor'],
  // analog and mixed signal
  ['op amp', 'opamp', 'operational amplifier'],
  ['inamp', 'instrumentation amplifier'],
  ['pga', 'programmable gain amplifier'],
  ['lna', 'low noise amplifier'],
  ['adc', 'analog to digital converter'],
  ['dac', 'digital to analog converter'],
  ['afe', 'analog front end'],
  ['dds', 'direct digital synthesis'],
  // processors, memory, logic, timing
  ['mcu', 'microcontroller', 'micro controller', 'microcontroller unit'],
  ['mpu', 'microprocessor'],
  ['dsp', 'digital signal processor'],
  ['fpga', 'field programmable gate array'],
  ['eeprom', 'e2prom'],
  ['fram', 'ferroelectric ram', 'feram'],
  ['sram', 'static ram'],
  ['dram', 'dynamic ram'],
  ['ram', 'random access memory'],
  ['level shifter', 'level translator', 'logic level converter'],
  ['rtc', 'real time clock'],
  ['pll', 'phase locked loop'],
  ['xtal', 'crystal'],
  ['vco', 'voltage controlled oscillator'],
  ['tcxo', 'temperature compensated crystal oscillator'],
  ['ocxo', 'oven controlled crystal oscillator'],
  ['vcxo', 'voltage controlled crystal oscillator'],
  // interfaces, isolation, optoelectronics
  ['rs485', 'rs 485'],
  ['rs232', 'rs 232'],
  ['i2c', 'iic'],
  ['uart', 'serial port'],
  ['lan', 'ethernet'],
  ['optocoupler', 'optoisolator', 'photocoupler', 'opto coupler', 'opto isolator', 'opto'],
  ['ssr', 'solid state relay'],
  ['oled', 'organic light emitting diode'],
  ['lcd', 'liquid crystal display'],
  // electromechanical, sensors
  ['tact switch', 'tactile switch'],
  ['encoder', 'rotary encoder'],
  ['hall effect', 'hall'],
  ['gyro', 'gyroscope'],
  ['accel', 'accelerometer'],
  ['bldc', 'brushless dc'],
  ['emi filter', 'emc filter'],
  ['terminal block', 'screw terminal'],
  ['heatsink', 'heat sink'],
];

export const CATEGORY_EXPANSIONS: Readonly<Record<string, readonly string[]>> = {
  // shop talk for passives
  pot: ['potentiometer', 'variable resistor'],
  trimpot: ['potentiometer', 'variable resistor'],
  rheostat: ['variable resistor'],
  shunt: ['shunt resistor', 'current sense resistor'],
  thermistor: ['ntc thermistor', 'ptc thermistor'],
  'electrolytic cap': ['aluminum electrolytic capacitor'],
  'electrolytic capacitor': ['aluminum electrolytic capacitor'],
  elcap: ['aluminum electrolytic capacitor'],
  ecap: ['aluminum electrolytic capacitor'],
  aluminium: ['aluminum'],
  tant: ['tantalum'],
  // most ceramic capacitors bought are MLCCs
  'ceramic cap': ['multilayer ceramic capacitor mlcc'],
  'ceramic capacitor': ['multilayer ceramic capacitor mlcc'],
  coil: ['inductor'],
  choke: ['common mode choke', 'common mode filter'],
  // mounting styles as the names spell them
  smd: ['smt', 'surface mount', 'chip'],
  smt: ['smd', 'surface mount', 'chip'],
  'surface mount': ['smd', 'smt', 'chip'],
  tht: ['through hole', 'leaded'],
  'through hole': ['leaded', 'tht'],
  // discretes
  fet: ['mosfet', 'field effect transistor'],
  jfet: ['junction field effect transistor'],
  nchannel: ['mosfet'],
  pchannel: ['mosfet'],
  'n channel': ['mosfet'],
  'p channel': ['mosfet'],
  npn: ['npn pnp', 'bipolar transistor'],
  pnp: ['npn pnp', 'bipolar transistor'],
  zener: ['zener diode'],
  schottky: ['schottky diode'],
  // power
  buck: ['dcdc converter', 'switching regulator'],
  boost: ['dcdc converter', 'switching regulator'],
  'buck converter': ['dcdc converter', 'switching regulator'],
  'boost converter': ['dcdc converter', 'switching regulator'],
  'buck boost': ['dcdc converter', 'switching regulator'],
  smps: ['switching power supply', 'switching regulator'],
  'voltage regulator': ['linear voltage regulator', 'switching regulator'],
  regulator: ['linear voltage regulator', 'ldo'],
  vref: ['voltage reference'],
  'load switch': ['power distribution switch'],
  charger: ['battery management'],
  'battery charger': ['battery management'],
  'li ion': ['battery'],
  lipo: ['battery'],
  'coin cell': ['battery'],
  supervisor: ['supervisor', 'monitor reset'],
  'reset ic': ['supervisor reset', 'monitor reset circuit'],
  watchdog: ['supervisor', 'monitor reset'],
  'h bridge': ['motor driver', 'brushed dc motor driver'],
  'stepper driver': ['stepper motor driver'],
  // amplifiers
  'class d': ['audio amplifier', 'audio power opamp'],
  'current sense amp': ['current sense amplifier', 'current sensing amplifier'],
  // the names list MCUs with MPUs and SoCs
  mcu: ['mcu mpu soc'],
  microcontroller: ['mcu mpu soc'],
  // memory, logic
  'spi flash': ['nor flash'],
  flipflop: ['flip flop'],
  mux: ['multiplexer'],
  multiplexer: ['analog switch'],
  'gpio expander': ['io expander', 'io expansion'],
  'io expander': ['io expansion'],
  'level converter': ['level shifter', 'translator'],
  'level shifter': ['translator'],
  // interfaces: RS-485 parts are listed as "RS-485/RS-422 ICs"
  rs485: ['rs485 rs422'],
  rs422: ['rs485 rs422'],
  'rs485 transceiver': ['rs485 rs422 ic'],
  'rs232 transceiver': ['rs232 ic'],
  'can bus': ['can'],
  canbus: ['can'],
  'can transceiver': ['can ic'],
  'usb uart': ['usb converter', 'usb ic'],
  'usb to uart': ['usb converter', 'usb ic'],
  'usb to serial': ['usb converter', 'usb ic'],
  'usb hub': ['usb hub controller'],
  'ethernet phy': ['ethernet transceiver'],
  phy: ['transceiver'],
  isolator: ['digital isolator'],
  // connectors
  'usb c': ['usb'],
  usbc: ['usb'],
  'type c': ['usb'],
  typec: ['usb'],
  'micro usb': ['usb'],
  microusb: ['usb'],
  rj45: ['ethernet connector', 'modular connector'],
  'barrel jack': ['dc power connector'],
  'dc jack': ['dc power connector'],
  jumper: ['shunt'],
  jst: ['wire to board connector'],
  'board to board': ['mezzanine connector'],
  coax: ['coaxial', 'rf connector'],
  sma: ['rf connector', 'coaxial connector'],
  ufl: ['rf connector', 'coaxial connector'],
  'sd card': ['memory card'],
  // sensors, wireless, displays
  temp: ['temperature'],
  imu: ['attitude sensor', 'accelerometer', 'gyroscope'],
  ble: ['bluetooth'],
  gps: ['gnss', 'satellite positioning'],
  gnss: ['satellite positioning'],
  'ir receiver': ['infrared remote receiver'],
  mic: ['microphone'],
  'seven segment': ['led segment display'],
  '7 segment': ['led segment display'],
};

/**
 * Manufacturer short names -> the full names they stand for. Attached to a manufacturer when one of
 * its names, legal and generic words removed, equals a full name here; names the data does not
 * hold attach to nothing. Brand words need no entry ("Murata", "Nordic", "Würth" already match
 * "Murata Electronics", "Nordic Semicon", "Wurth Elektronik"); only true abbreviations and renames do.
 */
export const MANUFACTURER_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  TI: ['Texas Instruments'],
  ST: ['STMicroelectronics'],
  STM: ['STMicroelectronics'],
  'ST Micro': ['STMicroelectronics'],
  ADI: ['Analog Devices'],
  onsemi: ['ON Semiconductor'],
  'ON Semi': ['onsemi', 'ON Semiconductor'],
  'ON Semiconductor': ['onsemi'],
  Fairchild: ['Fairchild Semiconductor'],
  AOS: ['Alpha & Omega Semiconductor', 'Alpha Omega Semiconductor'],
  'Alpha and Omega': ['Alpha & Omega Semiconductor'],
  IR: ['International Rectifier'],
  LTC: ['Linear Technology'],
  WE: ['Würth Elektronik'],
  SiLabs: ['Silicon Labs', 'Silicon Laboratories'],
  TE: ['TE Connectivity'],
  Tyco: ['TE Connectivity', 'Tyco Electronics'],
  SEMCO: ['Samsung Electro-Mechanics'],
  Epcos: ['TDK EPCOS'],
  MPS: ['Monolithic Power Systems'],
  JCET: ['Changjiang Electronics Tech', 'Jiangsu Changjiang Electronics Technology'],
  NSC: ['National Semiconductor'],
};

/** Legal-form words: never part of what identifies a company. */
export const LEGAL_WORDS: ReadonlySet<string> = new Set([
  'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'ltd', 'limited', 'llc', 'gmbh', 'ag', 'sa', 'plc',
  'bv', 'nv', 'kk', 'spa', 'asa', 'ab', 'oy', 'srl', 'pte', 'pty', 'sas', 'lp', 'llp',
]);

/**
 * Generic company words ("Semiconductor", "Electronics", "Tech"): a query need not type them, and a
 * name stripped of them still names the company ("Nordic Semicon" ~ "Nordic").
 */
export const GENERIC_COMPANY_WORDS: ReadonlySet<string> = new Set([
  'semiconductor', 'semiconductors', 'semicon', 'semi', 'electronics', 'electronic', 'elec', 'elektronik', 'electronique',
  'tech', 'technology', 'technologies', 'technol', 'systems', 'system', 'microelectronics', 'manufacturing', 'mfg',
  'components', 'component', 'products', 'industries', 'industrial', 'international', 'intl', 'solutions', 'group',
  'holdings', 'holding', 'usa', 'america', 'americas', 'global', 'electric', 'enterprise', 'enterprises',
  // places that prefix many Chinese company names ("Shenzhen Kinghelm Elec")
  'shenzhen', 'guangdong', 'guangzhou', 'jiangsu', 'nanjing', 'shanghai', 'beijing', 'zhejiang', 'hangzhou', 'xiamen',
  'dongguan', 'suzhou', 'wuxi', 'changzhou', 'ningbo', 'shandong', 'fujian', 'chengdu', 'wuhan', 'hefei', 'foshan',
  'huizhou', 'zhongshan', 'tianjin', 'hk', 'china',
]);
