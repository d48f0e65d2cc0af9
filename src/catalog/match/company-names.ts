/**
 * The spellings a manufacturer can be asked for ("forms"), and the words of one name.
 *
 * A manufacturer's forms: its name and aliases; the parts of names written as "A(B)", "A/B" or
 * "A - B" ("UMW(Youtai Semiconductor Co., Ltd.)" -> UMW, Youtai Semiconductor Co., Ltd.;
 * "ADI(亚德诺)/MAXIM(美信)" -> ADI, 亚德诺, MAXIM, 美信); and the short names of
 * MANUFACTURER_ABBREVIATIONS whose full name is one of its names.
 *
 * The words of a name: folded (case, accents, full-width), split on anything but letters and digits,
 * no stemming (company names are not English). Its core: the words without legal forms and generic
 * company words, so "Nordic Semicon", "NORDIC SEMICONDUCTOR ASA" and "Nordic" share the core
 * "nordic". A name made only of such words keeps them.
 */
import { GENERIC_COMPANY_WORDS, LEGAL_WORDS, MANUFACTURER_ABBREVIATIONS } from './synonyms.ts';
import { words } from './text.ts';

export type FormKind = 'name' | 'part' | 'abbreviation';

export interface NameWords {
  words: string[];
  core: string[];
  key: string;
  coreKey: string;
}

export function nameWords(s: string): NameWords {
  const w = words(s);
  let core = w.filter((x) => !LEGAL_WORDS.has(x) && !GENERIC_COMPANY_WORDS.has(x));
  if (core.length === 0) core = w.filter((x) => !LEGAL_WORDS.has(x));
  if (core.length === 0) core = w;
  return { words: w, core, key: w.join(''), coreKey: core.join('') };
}

const PAREN = /^(.*?)\s*[(（]([^()（）]*)[)）]\s*(.*)$/;

/** Splits on "/" and " - " outside parentheses. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '(' || c === '（') depth++;
    else if ((c === ')' || c === '）') && depth > 0) depth--;
    else if (depth === 0 && (c === '/' || (c === '-' && s[i - 1] === ' ' && s[i + 1] === ' '))) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out.map((x) => x.trim()).filter((x) => x !== '');
}

/** Sub-names of a written name: the parts around "/" or " - ", then parenthesised parts. */
export function nameParts(name: string): string[] {
  const out = new Set<string>();
  const queue = [name];
  while (queue.length && out.size < 16) {
    const s = queue.shift()!;
    const split = splitTopLevel(s);
    const found: string[] = [];
    if (split.length > 1) found.push(...split);
    else {
      const p = PAREN.exec(s);
      if (p) found.push(`${p[1]} ${p[3]}`.trim(), p[2]!.trim());
    }
    for (const f of found) {
      if (f.length >= 2 && f !== name && !out.has(f)) {
        out.add(f);
        queue.push(f);
      }
    }
  }
  return [...out];
}

export interface Form {
  text: string;
  kind: FormKind;
  words: NameWords;
}

/** Core keys of each abbreviation's full names -> the abbreviations. */
function abbreviationIndex(table: Readonly<Record<string, readonly string[]>>): Map<string, string[]> {
  const idx = new Map<string, string[]>();
  for (const [abbr, fulls] of Object.entries(table)) {
    for (const full of fulls) {
      const k = nameWords(full).coreKey;
      (idx.get(k) ?? idx.set(k, []).get(k)!).push(abbr);
    }
  }
  return idx;
}

const DEFAULT_ABBREVIATIONS = abbreviationIndex(MANUFACTURER_ABBREVIATIONS);

export function formsOf(m: { name: string; aliases: readonly string[] }, abbreviations: Map<string, string[]> = DEFAULT_ABBREVIATIONS): Form[] {
  const seen = new Set<string>();
  const out: Form[] = [];
  const add = (text: string, kind: FormKind) => {
    const w = nameWords(text);
    if (!w.key || seen.has(w.key)) return;
    seen.add(w.key);
    out.push({ text, kind, words: w });
  };
  const names = [m.name, ...m.aliases];
  for (const n of names) add(n, 'name');
  for (const n of names) for (const p of nameParts(n)) add(p, 'part');
  for (const f of [...out]) {
    for (const abbr of abbreviations.get(f.words.coreKey) ?? abbreviations.get(f.words.key) ?? []) add(abbr, 'abbreviation');
  }
  return out;
}
