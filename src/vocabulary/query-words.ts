/**
 * Query words as data (vocabulary/query-words.json): the comparison words of natural-language part
 * queries ("at least", "max", ">="), words never kept as search terms, and words about mounting and
 * which parts of a category that category naming sets aside.
 */
import { loadVocabularyFile } from './load.ts';

export interface Comparison {
  readonly kind: 'at_least' | 'at_most';
  /** "up to 30V" on a rating reads as the bare rating does. */
  readonly upTo: boolean;
  /** May follow the quantity ("20V or more", "20V max"). */
  readonly postfix: boolean;
  /** May precede the quantity ("at least 20V", "max 20V"). */
  readonly prefixOk: boolean;
}

interface QueryWordsFile {
  comparisons: Record<string, { kind: 'at_least' | 'at_most'; where: 'before' | 'after' | 'either'; upTo?: boolean }>;
  stopwords: string[];
  packageImplies: string[];
  mountingWords: string[];
  categoryQualifierWords: string[];
}

const FILE = loadVocabularyFile<QueryWordsFile>('query-words');

/** Comparison words and symbols (phrase keys, lower case). */
export const COMPARISONS: ReadonlyMap<string, Comparison> = new Map(
  Object.entries(FILE.comparisons).map(([w, c]) => [
    w,
    Object.freeze({ kind: c.kind, upTo: c.upTo === true, postfix: c.where !== 'before', prefixOk: c.where !== 'after' }),
  ]),
);

/** Words never kept as search terms. */
export const QUERY_STOPWORDS: ReadonlySet<string> = new Set(FILE.stopwords);

/** Words a package the query names implies ("SMD"). */
export const PACKAGE_IMPLIED_WORDS: ReadonlySet<string> = new Set(FILE.packageImplies);

/** Words that say how a part mounts ("white LED through hole"). */
export const MOUNTING_WORDS: ReadonlySet<string> = new Set(FILE.mountingWords);

/** Words that say which parts of a category, not which category: counts and colours ("quad comparator", "red led"). */
export const CATEGORY_QUALIFIER_WORDS: ReadonlySet<string> = new Set(FILE.categoryQualifierWords);
