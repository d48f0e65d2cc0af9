/**
 * Value words as data (vocabulary/value-words.json): lower-case words and phrases (hyphens count as
 * spaces) that are a value of a text spec. Dielectric codes: C0G = NP0 (and the letter-O misspellings
 * COG/NPO); EIA class-2 codes as written. Colours, safety classes (X2...), output type, shielding and
 * counts ("dual", "quad") only count in a matching family context (`requires`). A group with no
 * attributes holds phrases that start like a value but are none ("dual supply op amp" is one
 * amplifier): as longer phrases they win the scan over "dual", and never become a constraint.
 */
import { attributeById } from './attributes.ts';
import { FAMILIES, type Family } from './families.ts';
import { loadVocabularyFile, VocabularyError } from './load.ts';

export interface ValueWord {
  /** Canonical attribute ids whose stored values are compared, best first. */
  readonly attributes: readonly string[];
  readonly values: readonly string[];
  /** The family the word implies, used as context when the query names none. */
  readonly implies?: Family;
  /** The word only counts as a value when one of these families is in context ("red" only for LEDs). */
  readonly requires?: readonly Family[];
}

interface ValueWordsFile {
  aliases: Record<string, string>;
  groups: { id: string; attributes: string[]; implies?: string; requires?: string[]; words: Record<string, string[]>; note?: string }[];
}

function build(file: ValueWordsFile) {
  const problems: string[] = [];
  const families = new Set(FAMILIES);
  const words = new Map<string, ValueWord>();
  for (const g of file.groups) {
    const at = `groups "${g.id}"`;
    for (const a of g.attributes) if (!attributeById(a)) problems.push(`${at}.attributes: no attribute "${a}" in attributes.json`);
    for (const f of [...(g.implies !== undefined ? [g.implies] : []), ...(g.requires ?? [])]) {
      if (!families.has(f)) problems.push(`${at}: no family "${f}" in families.json`);
    }
    const attributes = Object.freeze([...g.attributes]);
    const requires = g.requires ? Object.freeze([...g.requires]) : undefined;
    for (const [w, values] of Object.entries(g.words)) {
      if (words.has(w)) problems.push(`${at}.words: "${w}" is in two groups`);
      words.set(
        w,
        Object.freeze({
          attributes,
          values: Object.freeze([...values]),
          ...(g.implies !== undefined ? { implies: g.implies } : {}),
          ...(requires ? { requires } : {}),
        }),
      );
    }
  }
  if (problems.length) throw new VocabularyError('value-words.json', problems);
  return { words, aliases: new Map(Object.entries(file.aliases)) };
}

const built = build(loadVocabularyFile<ValueWordsFile>('value-words'));

/** Lower-case word or phrase -> the text value it stands for. */
export const VALUE_WORDS: ReadonlyMap<string, ValueWord> = built.words;

/** Value spellings folded when comparing values (the letter O for a zero: cog -> c0g, npo -> np0). */
export const VALUE_ALIASES: ReadonlyMap<string, string> = built.aliases;
