/** All part families of the sample catalogue, in output order (passives first, as in real dumps). */
import type { Family } from '../model.ts';
import { chipResistors } from './resistors.ts';
import { aluminumCapacitors, mlccCapacitors, tantalumCapacitors } from './capacitors.ts';
import { ferriteBeads, powerInductors } from './inductors.ts';
import { crystals, oscillators, timers } from './timing.ts';
import { dcdcConverters, linearRegulators } from './power.ts';
import { comparators, opAmps, temperatureSensors } from './analog.ts';
import { bipolarTransistors, mosfets } from './transistors.ts';
import { schottkyDiodes, switchingDiodes, zenerDiodes } from './diodes.ts';
import { indicatorLeds } from './leds.ts';
import { microcontrollers, wirelessModules } from './processors.ts';
import { logicGates, usbInterfaces } from './logic.ts';

export const FAMILIES: readonly Family[] = [
  chipResistors,
  mlccCapacitors,
  tantalumCapacitors,
  aluminumCapacitors,
  powerInductors,
  ferriteBeads,
  crystals,
  oscillators,
  timers,
  linearRegulators,
  dcdcConverters,
  opAmps,
  comparators,
  mosfets,
  bipolarTransistors,
  switchingDiodes,
  schottkyDiodes,
  zenerDiodes,
  indicatorLeds,
  microcontrollers,
  wirelessModules,
  logicGates,
  usbInterfaces,
  temperatureSensors,
];
