/**
 * Package names as data (vocabulary/packages.json): which names are the same package, and the package
 * codes a query may write (chip sizes, codes without digits, families followed by a pin count).
 */
import { loadVocabularyFile, VocabularyError } from './load.ts';

interface PackagesFile {
  synonyms: (string[] | { names: string[]; note?: string })[];
  pinCountForms: { pattern: string; forms: string[]; note?: string }[];
  chipSizes: string[];
  namedPackages: Record<string, string>;
  letterPackages: Record<string, string>;
  families: string[];
  wordFamilies: string[];
}

function build(file: PackagesFile) {
  const problems: string[] = [];
  const forms = new Map<string, readonly string[]>();
  for (const entry of file.synonyms) {
    const group = Object.freeze(Array.isArray(entry) ? [...entry] : [...entry.names]);
    for (const name of group) {
      if (forms.has(name)) problems.push(`synonyms: "${name}" is in two groups`);
      forms.set(name, group);
    }
  }
  const pinCount: { re: RegExp; forms: readonly string[] }[] = [];
  file.pinCountForms.forEach((p, i) => {
    try {
      pinCount.push({ re: new RegExp(p.pattern), forms: p.forms });
    } catch (e) {
      problems.push(`pinCountForms[${i}].pattern: ${(e as Error).message}`);
    }
  });
  if (problems.length) throw new VocabularyError('packages.json', problems);
  return { forms, pinCount };
}

const FILE = loadVocabularyFile<PackagesFile>('packages');
const { forms: PACKAGE_FORMS, pinCount: PIN_COUNT_FORMS } = build(FILE);

/** packageForms' answers by upper-case code. */
const formsOf = new Map<string, readonly string[]>();

/**
 * A package code as the package check compares it: upper case, and every other name of the same package
 * ("MiniMELF" and "LL-34", "SMA" and "DO-214AC", "DPAK" and "TO-252"; SOIC-n = SOP-n = SO-n...).
 */
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
        if (m) for (const x of of) forms.add(x.replaceAll('{n}', m[1]!));
      }
    }
    known = [...forms];
    if (formsOf.size >= 10_000) formsOf.clear();
    formsOf.set(upper, known);
  }
  return known;
}

/** Imperial chip sizes written as bare digits ("0603"). A bare 4-digit token in this set is a package, never a value. */
export const CHIP_SIZES: ReadonlySet<string> = new Set(FILE.chipSizes);

/**
 * Package codes whose family prefix is too common in part numbers to read as a family ("LS7366R" is an
 * MPN): recognised only as these exact spellings (lower case, as typed -> the code).
 */
export const NAMED_PACKAGES: ReadonlyMap<string, string> = new Map(Object.entries(FILE.namedPackages));

/** Package codes written without digits (lower case -> the code). */
export const LETTER_PACKAGES: ReadonlyMap<string, string> = new Map(Object.entries(FILE.letterPackages));

/**
 * Package families followed by a pin count or outline number: "SOT-23-5", "SOIC8", "QFN-32", "TO220AB",
 * "DO-214AC", "HC-49S", "SMD3225-4P", "SOP-16-4.4mm". Written upper-case as FAMILY-NUMBER[SUFFIX][-PINS][-EP][-WIDTHMM]
 * the way catalogues do.
 */
export const PACKAGE_FAMILIES: readonly string[] = Object.freeze([...FILE.families]);

/** Package families that are also ordinary words ("to 220", "so 8"): never joined with a following number token. */
export const WORD_PACKAGE_FAMILIES: ReadonlySet<string> = new Set(FILE.wordFamilies);
