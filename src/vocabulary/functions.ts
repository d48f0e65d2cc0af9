/**
 * Functions to part families, as data (vocabulary/functions.json): what a part does, said in a need's
 * own words ("isolate a microcontroller input from mains with light", "chip that steps 12V down to 5V"),
 * and the categories of the parts that do it (a pattern on leaf category names: "optocoupler|optoisolator",
 * "dc-dc converter"). Agentic search takes those categories as the ones the query names when it names
 * none by their own names (src/catalog/match/functions.ts, src/search/named-categories.ts).
 *
 * A function matches a query when the query holds a term of each of its `all` groups and none of its
 * `unless` terms. Terms are lower-case words in a row, matched on the query's words (lower case, any
 * character other than a letter, a digit or . / + * splits words: "step-down" is "step down"); a word
 * ending in * is a prefix ("isolat*": isolate, isolation, isolated). The first function of the file that
 * matches is the query's: put the narrower ones first.
 */
import { loadVocabularyFile, VocabularyError } from './load.ts';

interface FunctionEntry {
  id: string;
  all: string[][];
  unless?: string[];
  category: string;
  adds?: string;
  note?: string;
}

export interface PartFunction {
  readonly id: string;
  /** Leaf category names of the parts that do it. */
  readonly category: RegExp;
  /** Query text the function implies ("32.768kHz" for a real-time clock crystal), read for constraints. */
  readonly adds: string | null;
  /** Whether a query (its words: queryWords) says this function. */
  matches(words: readonly string[]): boolean;
}

/** A query's words as terms are matched against them. */
export function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}./+*]+/u)
    .map((w) => w.replace(/^[./+]+|[./+]+$/g, ''))
    .filter(Boolean);
}

/** Whether `words` hold the term (one or more words in a row; a word ending in * a prefix). */
function holds(words: readonly string[], term: readonly string[]): boolean {
  const same = (w: string, t: string) => (t.endsWith('*') ? w.startsWith(t.slice(0, -1)) : w === t);
  for (let i = 0; i + term.length <= words.length; i++) if (term.every((t, j) => same(words[i + j]!, t))) return true;
  return false;
}

function compile(e: FunctionEntry, problems: string[]): PartFunction {
  let category: RegExp;
  try {
    category = new RegExp(e.category, 'i');
  } catch (err) {
    problems.push(`function ${e.id}: bad category pattern (${(err as Error).message})`);
    category = /$^/;
  }
  const split = (t: string) => t.split(' ');
  const all = e.all.map((g) => g.map(split));
  const unless = (e.unless ?? []).map(split);
  return {
    id: e.id,
    category,
    adds: e.adds ?? null,
    matches: (words) => all.every((g) => g.some((t) => holds(words, t))) && !unless.some((t) => holds(words, t)),
  };
}

function load(): PartFunction[] {
  const data = loadVocabularyFile<{ functions: FunctionEntry[] }>('functions');
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const e of data.functions) {
    if (ids.has(e.id)) problems.push(`function ${e.id}: listed twice`);
    ids.add(e.id);
  }
  const out = data.functions.map((e) => compile(e, problems));
  if (problems.length) throw new VocabularyError('functions.json', problems);
  return out;
}

/** The functions of vocabulary/functions.json, in the file's order. */
export const FUNCTIONS: readonly PartFunction[] = load();

/** The first function the query says, or null. */
export function functionOf(query: string, functions: readonly PartFunction[] = FUNCTIONS): PartFunction | null {
  const words = queryWords(query);
  return functions.find((f) => f.matches(words)) ?? null;
}

const BY_ID = new Map(FUNCTIONS.map((f) => [f.id, f]));

/** The function of functions.json with this id, or undefined. */
export function functionById(id: string): PartFunction | undefined {
  return BY_ID.get(id);
}
