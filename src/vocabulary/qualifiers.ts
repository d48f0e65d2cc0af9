/**
 * Qualifier words and unit nouns as data (vocabulary/qualifiers.json). A qualifier is a word right before
 * or after a quantity that names the spec it is about ("vin 12V", "12V input", "esr 10mΩ", "8KB RAM",
 * "load 18pF"): word -> unit -> role (roles.json). A unit noun merely restates a quantity's kind ("output
 * voltage 3.3V", "tolerance 1%") and is dropped from the free-text terms when next to one.
 */
import { SI_UNITS, type SiUnit } from '../catalog/units.ts';
import { loadVocabularyFile, VocabularyError } from './load.ts';
import { unknownRole, type RoleId } from './roles.ts';

interface QualifiersFile {
  qualifiers: Record<string, Record<string, string>>;
  unitNouns: Record<string, string>;
}

const SI: ReadonlySet<string> = new Set(SI_UNITS);

function build(file: QualifiersFile) {
  const problems: string[] = [];
  for (const [w, byUnit] of Object.entries(file.qualifiers)) {
    for (const [u, r] of Object.entries(byUnit)) {
      if (!SI.has(u)) problems.push(`qualifiers.${w}: "${u}" is not a unit the query parser reads`);
      const p = unknownRole(r, u, `qualifiers.${w}.${u}`);
      if (p) problems.push(p);
    }
  }
  for (const [w, u] of Object.entries(file.unitNouns)) if (!SI.has(u)) problems.push(`unitNouns.${w}: "${u}" is not a unit the query parser reads`);
  if (problems.length) throw new VocabularyError('qualifiers.json', problems);
  return {
    qualifiers: new Map(Object.entries(file.qualifiers).map(([w, m]) => [w, Object.freeze({ ...m }) as Partial<Record<SiUnit, RoleId>>])),
    unitNouns: new Map(Object.entries(file.unitNouns) as [string, SiUnit][]),
  };
}

const built = build(loadVocabularyFile<QualifiersFile>('qualifiers'));

/** Lower-case qualifier word -> unit -> role. */
export const QUALIFIERS: ReadonlyMap<string, Readonly<Partial<Record<SiUnit, RoleId>>>> = built.qualifiers;

/** Nouns that merely restate a quantity's kind ("output voltage 3.3V", "tolerance 1%"): dropped from the free-text terms when next to it. */
export const UNIT_NOUNS: ReadonlyMap<string, SiUnit> = built.unitNouns;
