/**
 * Curated vocabulary for free-text name matching (data: vocabulary/name-matching.json, schema-checked at
 * load): the words hardware engineers type that the category and manufacturer names do not spell out.
 * Kept deliberately small: each entry must be a well-known equivalence, not a guess. Phrases are written in plain words; both the tables and the
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
import { loadVocabularyFile } from '../../vocabulary/load.ts';

interface NameMatchingFile {
  stopwords: string[];
  categorySynonyms: Record<string, string[][]>;
  categoryExpansions: Record<string, Record<string, string[]>>;
  manufacturerAbbreviations: Record<string, string[]>;
  legalWords: string[];
  genericCompanyWords: string[];
  placeWords: string[];
}

const FILE = loadVocabularyFile<NameMatchingFile>('name-matching');

export const STOPWORDS: ReadonlySet<string> = new Set(FILE.stopwords);

/** Sets of interchangeable phrases, every section's in file order. */
export const CATEGORY_SYNONYM_GROUPS: readonly (readonly string[])[] = Object.values(FILE.categorySynonyms).flat();

/** One-way rewrites: phrase -> alternatives. */
export const CATEGORY_EXPANSIONS: Readonly<Record<string, readonly string[]>> = Object.assign({}, ...Object.values(FILE.categoryExpansions));

/**
 * Manufacturer short names -> the full names they stand for. Attached to a manufacturer when one of
 * its names, legal and generic words removed, equals a full name here; names the data does not
 * hold attach to nothing. Brand words need no entry ("Murata", "Nordic", "Würth" already match
 * "Murata Electronics", "Nordic Semicon", "Wurth Elektronik"); only true abbreviations and renames do.
 */
export const MANUFACTURER_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = FILE.manufacturerAbbreviations;

/** Legal-form words: never part of what identifies a company. */
export const LEGAL_WORDS: ReadonlySet<string> = new Set(FILE.legalWords);

/**
 * Generic company words ("Semiconductor", "Electronics", "Tech") and places that prefix many company
 * names ("Shenzhen Kinghelm Elec"): a query need not type them, and a name stripped of them still names
 * the company ("Nordic Semicon" ~ "Nordic").
 */
export const GENERIC_COMPANY_WORDS: ReadonlySet<string> = new Set([...FILE.genericCompanyWords, ...FILE.placeWords]);
