import { describe, expect, it } from 'vitest';
import { familiesToMatch, inFamily } from '../../src/search/families.ts';
import { understandQuery } from '../../src/search/understand.ts';

const part = (path: string[] | null, description = '') => ({
  category: path ? { slug: path.join('/').toLowerCase(), name: path[path.length - 1]!, path: path.map((name) => ({ slug: name.toLowerCase(), name })) } : null,
  description,
});

describe('part families named in a query (families.ts)', () => {
  it('judges the specific families named, never a generic one', () => {
    expect(familiesToMatch(understandQuery('5.1V zener diode SOD-123').families)).toEqual(['zener']);
    expect(familiesToMatch(understandQuery('40V diode').families)).toEqual([]); // generic alone: no family order
    expect(familiesToMatch(understandQuery('light emitting diode indicator').families)).toEqual(['led']);
    expect(familiesToMatch(understandQuery('100nF 50V X7R 0603').families)).toEqual([]);
    // Plural and catalogue wording of the real categories' names.
    expect(familiesToMatch(understandQuery('12V 50mA tactile switches').families)).toEqual(['switch']);
    expect(familiesToMatch(understandQuery('3A 250V pin headers').families)).toEqual(['connector']);
    expect(familiesToMatch(understandQuery('8A 300V pluggable system terminal block').families)).toEqual(['connector']);
    expect(familiesToMatch(understandQuery('50ns 130ns gate drive ics').families)).toEqual(['gate driver']);
  });

  it('reads the category path (every level), or the description without a category', () => {
    const mosfet = part(['Transistors', 'MOSFETs']);
    const resistor = part(['Resistors', 'Chip Resistor - Surface Mount']);
    expect(inFamily(['mosfet'], mosfet)).toBe(true);
    expect(inFamily(['mosfet'], resistor)).toBe(false);
    expect(inFamily(['transistor'], mosfet)).toBe(true);
    expect(inFamily(['ldo'], part(['Power Management', 'Linear Voltage Regulators (LDO)']))).toBe(true);
    expect(inFamily(['tvs'], part(['Circuit Protection', 'ESD and Surge Protection (TVS/ESD)']))).toBe(true);
    expect(inFamily(['led'], part(['Optoelectronics', 'Light Emitting Diodes (LED)']))).toBe(true);
    expect(inFamily(['led'], part(['Power Management', 'LED Drivers']))).toBe(true);
    expect(inFamily(['led'], part(['Transistors', 'Bipolar Transistors - BJT']))).toBe(false);
    expect(inFamily(['op amp'], part(null, 'Dual operational amplifier, rail-to-rail'))).toBe(true);
    expect(inFamily([], mosfet)).toBeNull();
  });

  it('judges by the leaf category when it names a family: upper levels group unlike parts', () => {
    const tvs = part(['TVS/Fuse/Board Level Protection', 'ESD and Surge Protection (TVS/ESD)']);
    const fuse = part(['TVS/Fuse/Board Level Protection', 'Resettable Fuses']);
    expect([inFamily(['fuse'], tvs), inFamily(['tvs'], tvs), inFamily(['fuse'], fuse), inFamily(['tvs'], fuse)]).toEqual([false, true, true, false]);
    const led = part(['Optocoupler/LED/Digital Tube/Photoelectric Device', 'Light Emitting Diodes (LED)']);
    expect([inFamily(['optocoupler'], led), inFamily(['led'], led)]).toEqual([false, true]);
    expect(inFamily(['switch'], part(['Diodes', 'Switching Diodes']))).toBe(false);
    expect(inFamily(['switch'], part(['Switches', 'Tactile Switches']))).toBe(true);
    expect(inFamily(['dc-dc'], part(['Data Acquisition', 'Analog To Digital Converters (ADCs)']))).toBe(false);
    expect(inFamily(['crystal'], part(['Displays', 'Liquid Crystal Display Screen']))).toBe(false);
    expect(inFamily(['memory'], part(['Connectors', 'Memory Connector (DDR)']))).toBe(false);
    // A leaf that names no family: the whole path decides.
    expect(inFamily(['mosfet'], part(['Transistors', 'MOSFETs', 'Others']))).toBe(true);
  });
});
