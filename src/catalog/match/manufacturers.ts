/**
 * Free-text manufacturer name matching, in memory, independent of any search engine.
 *
 * Each manufacturer is known by its forms (company-names.ts: name, aliases, the parts of
 * "A(B)" / "A/B" names, industry abbreviations). The query is compared with every form; the
 * manufacturer takes its best form's score:
 *
 *   100  exact: the query equals a form up to case, accents, punctuation, spacing, legal forms and
 *        generic words ("texas instruments inc." = "Texas Instruments", "Nordic Semiconductor" =
 *        "Nordic Semicon", "TI" = Texas Instruments by abbreviation, "Wuerth" = "Würth")
 *    92  brand: the query is the leading whole words of a form ("Texas" -> Texas Instruments)
 *  <=95  words: IDF-weighted word match, any order, each query word credited exact 1, prefix,
 *        one/two edits (vocabulary.ts): 95 * queryCov * (0.5 + 0.5 * nameCov)
 *  <=90  prefix of the whole key: 70 + 25 * typed share ("stmicro" -> STMicroelectronics)
 *   88/80 whole key one/two edits away ("Littlefuse", "Texas Instrumnets")
 *
 * Spelling variants: the data holds truncated and misspelt records of big manufacturers beside
 * them ("texas", "Samsung", "Amphenol", "Littlefuse" beside "Texas Instruments", "Samsung
 * Electro-Mechanics", "Amphenol ICC", "Littelfuse"). So (a) when a matched manufacturer's name (legal
 * words aside) is the leading words of another's name with more parts, that one scores at least as
 * well; (b) a manufacturer whose whole name key (10+ characters) starts like, and is one edit (two
 * from 12 characters) from, a name of another with at least ten times its parts misspells it (found
 * once, at build time) and lends it its score. Among equals, part count decides.
 *
 * Ranking: confidence (descending), then part count (descending), then name. A query made only of
 * legal or generic words ("Inc", "Semiconductor") matches exact names only. Results under
 * MANUFACTURER_FLOOR are dropped.
 */
import type { Manufacturer } from '../manufacturers.ts';
import { formsOf, nameWords, type Form, type FormKind } from './company-names.ts';
import { GENERIC_COMPANY_WORDS, LEGAL_WORDS } from './synonyms.ts';
import { boundedDistance, charMask, Vocabulary, type TermHit } from './vocabulary.ts';
import { MAX_QUERY_TERMS } from './slots.ts';

export interface ManufacturerMatch {
  slug: string;
  confidence: number;
}

export interface ManufacturerMatcher {
  match(query: string, limit: number): ManufacturerMatch[];
}

export const MANUFACTURER_FLOOR = 30;
const BRAND = 92;
/** A misspelt record lends its score to a spelling this many times bigger (in parts)... */
const VARIANT_RATIO = 10;
/** ...when its key has at least this many characters (short names are too close to each other). */
const VARIANT_MIN_KEY = 10;

interface Entry {
  slug: string;
  name: string;
  partCount: number;
  forms: Form[];
  /** Core word ids per form. */
  terms: number[][];
}

interface KeyRef {
  key: string;
  mask: number;
  idx: number[];
}

/** Words of a written name without legal forms, joined: what leading-word variants compare. */
const leadWords = (f: Form) => f.words.words.filter((w) => !LEGAL_WORDS.has(w));

/** German umlauts written out ("Wuerth") compare equal to the folded letters ("Würth" -> wurth). */
const umlautFree = (key: string) => key.replace(/([aou])e/g, '$1');

const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => (m.get(k) ?? m.set(k, []).get(k)!).push(v);

export function createManufacturerMatcher(manufacturers: readonly Manufacturer[]): ManufacturerMatcher {
  const vocab = new Vocabulary(true);
  const exact = new Map<string, number[]>();
  const brand = new Map<string, number[]>();
  const lead = new Map<string, number[]>();
  const entries: Entry[] = manufacturers.map((m, idx) => {
    const forms = formsOf(m);
    for (const f of forms) {
      const w = f.words;
      for (const k of new Set([w.key, w.coreKey, umlautFree(w.key), umlautFree(w.coreKey)])) push(exact, k, idx);
      for (let n = 1; n < w.core.length; n++) push(brand, w.core.slice(0, n).join(' '), idx);
      if (f.kind !== 'name') continue;
      const lw = leadWords(f);
      for (let n = 1; n < lw.length; n++) push(lead, lw.slice(0, n).join(' '), idx);
    }
    return {
      slug: m.slug,
      name: m.name,
      partCount: m.part_count,
      forms,
      terms: forms.map((f) => [...new Set(f.words.core)].map((t) => vocab.add(t))),
    };
  });
  vocab.seal();
  const postings: Set<number>[] = Array.from({ length: vocab.size }, () => new Set());
  entries.forEach((e, idx) => e.terms.forEach((ts) => ts.forEach((t) => postings[t]!.add(idx))));
  const total = Math.max(entries.length, 1);
  const idf = postings.map((p) => Math.log(1 + total / Math.max(p.size, 1)));
  const maxIdf = Math.log(1 + total);
  const keys: KeyRef[] = [...exact].map(([key, idx]) => ({ key, mask: charMask(key), idx: [...new Set(idx)] }));
  keys.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const byLength = new Map<number, KeyRef[]>();
  for (const k of keys) push(byLength, k.key.length, k);
  const misspeltOf = findMisspellings(entries);

  function lowerBound(q: string): number {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid]!.key < q) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function match(query: string, limit: number): ManufacturerMatch[] {
    if (typeof query !== 'string' || !(limit > 0)) return [];
    const q = nameWords(query);
    if (!q.key) return [];
    const scores = new Map<number, number>();
    const raise = (idx: number, s: number) => {
      if ((scores.get(idx) ?? 0) < s) scores.set(idx, s);
    };
    for (const k of new Set([q.key, q.coreKey, umlautFree(q.key), umlautFree(q.coreKey)])) {
      for (const idx of exact.get(k) ?? []) raise(idx, 100);
    }
    const genericOnly = q.core.every((w) => LEGAL_WORDS.has(w) || GENERIC_COMPANY_WORDS.has(w));
    if (!genericOnly) {
      for (const idx of brand.get(q.core.join(' ')) ?? []) raise(idx, BRAND);
      scoreWords(q.core.slice(0, MAX_QUERY_TERMS), raise);
      scoreKeys(q.key, q.coreKey, raise);
      liftVariants(scores);
    }
    const out = [...scores].map(([idx, s]) => ({ e: entries[idx]!, confidence: Math.round(s) })).filter((r) => r.confidence >= MANUFACTURER_FLOOR);
    out.sort((a, b) => b.confidence - a.confidence || b.e.partCount - a.e.partCount || (a.e.name < b.e.name ? -1 : 1));
    return out.slice(0, limit).map((r) => ({ slug: r.e.slug, confidence: r.confidence }));
  }

  /** IDF-weighted word match against each form's core words. */
  function scoreWords(words: string[], raise: (idx: number, s: number) => void): void {
    const hits = words.map((w) => new Map(vocab.lookup(w).map((h: TermHit) => [h.id, h.credit])));
    const weights = hits.map((h, i) => {
      let best: [number, number] | null = null;
      for (const [id, c] of h) if (!best || c > best[1]) best = [id, c];
      return words[i]!.length === 1 ? 0.5 : best ? idf[best[0]]! : maxIdf;
    });
    const qTotal = weights.reduce((a, b) => a + b, 0);
    const cand = new Set<number>();
    for (const h of hits) for (const id of h.keys()) for (const idx of postings[id]!) cand.add(idx);
    for (const idx of cand) {
      let best = 0;
      for (const terms of entries[idx]!.terms) {
        let qn = 0;
        hits.forEach((h, i) => {
          let c = 0;
          for (const t of terms) c = Math.max(c, h.get(t) ?? 0);
          qn += weights[i]! * c;
        });
        let nn = 0;
        let nd = 0;
        for (const t of terms) {
          let c = 0;
          for (const h of hits) c = Math.max(c, h.get(t) ?? 0);
          nn += idf[t]! * c;
          nd += idf[t]!;
        }
        const queryCov = qTotal > 0 ? qn / qTotal : 0;
        const nameCov = nd > 0 ? nn / nd : 0;
        best = Math.max(best, 95 * queryCov * (0.5 + 0.5 * nameCov));
      }
      raise(idx, best);
    }
  }

  /** The whole query key as a prefix of a form's key, or a typo or two away from one. */
  function scoreKeys(key: string, coreKey: string, raise: (idx: number, s: number) => void): void {
    if (key.length >= 3) {
      for (let i = lowerBound(key); i < keys.length && keys[i]!.key.startsWith(key); i++) {
        const k = keys[i]!;
        if (k.key !== key) for (const idx of k.idx) raise(idx, Math.min(90, 70 + (25 * key.length) / k.key.length));
      }
    }
    for (const qk of new Set([key, coreKey])) {
      if (qk.length < 5 || /^\d+$/.test(qk)) continue;
      const max = qk.length >= 9 ? 2 : 1;
      const mask = charMask(qk);
      for (let len = qk.length - max; len <= qk.length + max; len++) {
        for (const k of byLength.get(len) ?? []) {
          const d = boundedDistance(qk, mask, k.key, k.mask, max);
          if (d < 1 || d > max) continue;
          for (const idx of k.idx) raise(idx, d === 1 ? 88 : 80);
        }
      }
    }
  }

  /** Spelling variants (see the header): bigger manufacturers score at least as well as their variants. */
  function liftVariants(scores: Map<number, number>): void {
    const lift = (from: number, to: number, s: number) => {
      if (to !== from && (scores.get(to) ?? 0) < s) scores.set(to, s);
    };
    for (const [idx, s] of [...scores]) {
      const a = entries[idx]!;
      for (const b of misspeltOf.get(idx) ?? []) lift(idx, b, s);
      for (const f of a.forms) {
        if (f.kind !== 'name') continue;
        for (const b of lead.get(leadWords(f).join(' ')) ?? []) if (entries[b]!.partCount > a.partCount) lift(idx, b, s);
      }
    }
  }

  return { match };
}

/** Manufacturer -> the much bigger manufacturers whose name it misspells (see the header, (b)). */
function findMisspellings(entries: readonly Entry[]): Map<number, number[]> {
  const keysOf = (kinds: FormKind[]) => {
    const out: { key: string; mask: number; idx: number }[] = [];
    entries.forEach((e, idx) => {
      for (const f of e.forms) {
        const key = f.words.key;
        if (kinds.includes(f.kind) && key.length >= VARIANT_MIN_KEY) out.push({ key, mask: charMask(key), idx });
      }
    });
    return out;
  };
  const big = keysOf(['name', 'part']).filter((k) => entries[k.idx]!.partCount >= VARIANT_RATIO);
  const out = new Map<number, number[]>();
  for (const a of keysOf(['name'])) {
    const floor = VARIANT_RATIO * Math.max(1, entries[a.idx]!.partCount);
    const max = a.key.length >= 12 ? 2 : 1;
    for (const b of big) {
      if (b.idx === a.idx || entries[b.idx]!.partCount < floor || b.key.slice(0, 2) !== a.key.slice(0, 2)) continue;
      const d = boundedDistance(a.key, a.mask, b.key, b.mask, max);
      if (d >= 1 && d <= max && !out.get(a.idx)?.includes(b.idx)) push(out, a.idx, b.idx);
    }
  }
  return out;
}
