/**
 * Rule-judged MPN fixtures from a catalogue (used by test/relevance/build-*-suites.ts). Deterministic:
 * the same parts and seed give the same queries. Query kinds and their judging rules (RULES):
 *
 *   exact    the MPN as stored
 *   lower    the MPN in lower case
 *   punct    the MPN with every character that is not a letter or digit removed (MPNs that have some)
 *   variant  the MPN without its last 1-2 letters/digits (a packaging/ordering suffix)
 *   prefix   the first 4+ characters of the MPN key (3-5 characters short of the whole key)
 *   typo     one-character typo inside the MPN (substitution, transposition, deletion or doubling, never
 *            in the first two or last character), only when the result is no part's MPN
 *   short-typo  one edit (substitution, adjacent transposition, deletion or doubling) anywhere but the
 *            first character of a 4-7 character key (LM358 -> LM538, TL431 -> TL413), only when the result
 *            is no part's key, starts or sits inside none, and the target is the only key one edit away
 */
import { normaliseMpn } from '../catalog/mpn.ts';
import { Rng } from '../sample/rng.ts';
import type { Grade, RelevanceQuery } from './format.ts';

/** What the builders need of a part. */
export interface MpnPart {
  slug: string;
  mpn: string;
  key: string;
  aliasKeys: readonly string[];
  /** Grouping for stratified sampling (category slug or "-"). */
  group: string;
}

export type MpnKind = 'exact' | 'lower' | 'punct' | 'variant' | 'prefix' | 'typo' | 'short-typo';

export const MPN_RULES: Record<MpnKind, string> = {
  exact:
    'query = the MPN as stored. grade 3: every part whose MPN key (normaliseMpn) or alternate-MPN key equals the query key (the target and the same MPN from other manufacturers); grade 1: parts whose MPN key extends the query key by 1-4 characters (packaging/ordering variants).',
  lower: 'query = the MPN in lower case. Judged as exact: grade 3 same key (any manufacturer, or alias), grade 1 keys extending it by 1-4 characters.',
  punct:
    'query = the MPN with punctuation and spaces removed. Judged as exact: grade 3 same key (any manufacturer, or alias), grade 1 keys extending it by 1-4 characters.',
  variant:
    'query = the MPN without its last 1-2 letters/digits. grade 3: parts whose key equals the query key; grade 2: the target part (the full MPN) and any other part with the same key as the target; grade 1: every other part whose key starts with the query key.',
  prefix:
    'query = the first characters of the MPN key (3-5 short of the whole key, at least 4). grade 3: parts whose key equals the query key; grade 2: keys extending the query key by 1-4 characters; grade 1: keys extending it by more.',
  'short-typo':
    "query = the key (letters and digits) of a 4-7 character MPN with one edit anywhere but its first character (substitution, adjacent transposition, deletion or doubled character: LM358 -> LM538, TL431 -> TL413), chosen so it is no part's key, no key starts with or contains it, and the target key is the only catalogue key one edit away from it. grade 3: parts whose key (or alias key) equals the target key (all manufacturers).",
  typo: "query = the MPN with one typo inside (substitution, adjacent transposition, deletion or doubled character; not in the first two or the last character), chosen so it is no part's key and the target key is the only catalogue key one edit away from it. grade 3: parts whose key (or alias key) equals the target key (all manufacturers).",
};

export class MpnCatalogue {
  readonly byKey = new Map<string, MpnPart[]>();
  /** Sorted distinct keys (MPN keys and alias keys) for prefix scans. */
  private readonly keys: string[];

  constructor(readonly parts: readonly MpnPart[]) {
    for (const p of parts) {
      for (const k of new Set([p.key, ...p.aliasKeys])) {
        const list = this.byKey.get(k);
        if (list) list.push(p);
        else this.byKey.set(k, [p]);
      }
    }
    this.keys = [...this.byKey.keys()].sort();
  }

  /** Whether any key (MPN or alias) contains `part`. */
  anyContains(part: string): boolean {
    return this.keys.some((k) => k.includes(part));
  }

  /** Parts whose key or an alias key starts with `prefix`, with the matching key. */
  withPrefix(prefix: string): { key: string; part: MpnPart }[] {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keys[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: { key: string; part: MpnPart }[] = [];
    for (let i = lo; i < this.keys.length && this.keys[i]!.startsWith(prefix); i++)
      for (const part of this.byKey.get(this.keys[i]!)!) out.push({ key: this.keys[i]!, part });
    return out;
  }
}

function setMax(j: Record<string, Grade>, slug: string, g: Grade): void {
  if ((j[slug] ?? -1) < g) j[slug] = g;
}

/** grade 3 same key; grade 1 for keys extending it by 1-4 characters (when `variants`). */
function judgeExact(cat: MpnCatalogue, key: string, variants: boolean): Record<string, Grade> {
  const j: Record<string, Grade> = {};
  if (variants) for (const { key: k, part } of cat.withPrefix(key)) if (k.length > key.length && k.length - key.length <= 4) setMax(j, part.slug, 1);
  for (const p of cat.byKey.get(key) ?? []) setMax(j, p.slug, 3);
  return j;
}

const isAlnum = (c: string) => /[\p{L}\p{N}]/u.test(c);

/** The stored MPN cut right after its n-th letter/digit (keeps the punctuation as written before it). */
function cutAfterAlnum(mpn: string, n: number): string {
  let seen = 0;
  for (let i = 0; i < mpn.length; i++) {
    if (isAlnum(mpn[i]!)) seen++;
    if (seen === n) return mpn.slice(0, i + 1);
  }
  return mpn;
}

const DIGITS = '0123456789';
const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

const ALPHABET = `${DIGITS}ABCDEFGHIJKLMNOPQRSTUVWXYZ`;

/** Every key one edit (deletion, substitution, insertion, adjacent transposition) away from `k`. */
export function oneEditAway(k: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= k.length; i++) {
    if (i < k.length) out.add(k.slice(0, i) + k.slice(i + 1));
    if (i + 1 < k.length) out.add(k.slice(0, i) + k[i + 1] + k[i] + k.slice(i + 2));
    for (const c of ALPHABET) {
      if (i < k.length) out.add(k.slice(0, i) + c + k.slice(i + 1));
      out.add(k.slice(0, i) + c + k.slice(i));
    }
  }
  out.delete(k);
  return [...out];
}

function typoOf(mpn: string, rng: Rng, cat: MpnCatalogue): string | null {
  const key = normaliseMpn(mpn);
  for (let attempt = 0; attempt < 12; attempt++) {
    const chars = [...mpn];
    const alnumAt = chars.map((c, i) => (isAlnum(c) ? i : -1)).filter((i) => i >= 0);
    if (alnumAt.length < 6) return null;
    // Not in the first two or the last letter/digit.
    const k = rng.int(2, alnumAt.length - 2);
    const at = alnumAt[k]!;
    const c = chars[at]!;
    const op = rng.pick(['sub', 'swap', 'del', 'dup'] as const);
    if (op === 'sub') {
      const pool = /\d/.test(c) ? DIGITS : LETTERS;
      let r = pool[rng.int(0, pool.length - 1)]!;
      if (r === c.toUpperCase()) r = pool[(pool.indexOf(r) + 1) % pool.length]!;
      chars[at] = /[a-z]/.test(c) ? r.toLowerCase() : r;
    } else if (op === 'swap') {
      const next = alnumAt[k + 1]!;
      if (chars[next]!.toUpperCase() === c.toUpperCase()) continue;
      [chars[at], chars[next]] = [chars[next]!, c];
    } else if (op === 'del') chars.splice(at, 1);
    else chars.splice(at, 0, c);
    const q = chars.join('');
    const qk = normaliseMpn(q);
    if (qk === key || cat.byKey.has(qk)) continue;
    // Unambiguous: the target's key is the only catalogue key one edit away from the typo.
    if (oneEditAway(qk).some((k) => k !== key && cat.byKey.has(k))) continue;
    return q;
  }
  return null;
}

/** A one-edit typo of a short key anywhere but its first character, or null when none qualifies (MPN_RULES['short-typo']). */
function shortTypoOf(key: string, rng: Rng, cat: MpnCatalogue): string | null {
  if (key.length < 4 || key.length > 7) return null;
  for (let attempt = 0; attempt < 16; attempt++) {
    const chars = [...key];
    const op = rng.pick(['sub', 'swap', 'del', 'dup'] as const);
    const at = rng.int(1, chars.length - (op === 'swap' ? 2 : 1));
    const c = chars[at]!;
    if (op === 'sub') {
      const pool = /\d/.test(c) ? DIGITS : LETTERS;
      let r = pool[rng.int(0, pool.length - 1)]!;
      if (r === c) r = pool[(pool.indexOf(r) + 1) % pool.length]!;
      chars[at] = r;
    } else if (op === 'swap') {
      if (chars[at + 1] === c) continue;
      [chars[at], chars[at + 1]] = [chars[at + 1]!, c];
    } else if (op === 'del') chars.splice(at, 1);
    else chars.splice(at, 0, c);
    const q = chars.join('');
    if (q === key || cat.byKey.has(q) || cat.withPrefix(q).length > 0 || cat.anyContains(q)) continue;
    if (oneEditAway(q).some((k) => k !== key && cat.byKey.has(k))) continue;
    return q;
  }
  return null;
}

export interface MpnSuiteOptions {
  suite: string;
  seed: number;
  counts: Record<MpnKind, number>;
}

/**
 * Targets are drawn round-robin over the groups (categories) so every family is represented, a random
 * part within the group, each part at most once per kind; ineligible parts are skipped.
 */
export function buildMpnSuite(parts: readonly MpnPart[], o: MpnSuiteOptions): RelevanceQuery[] {
  const cat = new MpnCatalogue(parts);
  const groups = new Map<string, MpnPart[]>();
  for (const p of parts) {
    const list = groups.get(p.group);
    if (list) list.push(p);
    else groups.set(p.group, [p]);
  }
  const groupNames = [...groups.keys()].sort();
  const out: RelevanceQuery[] = [];
  const usedQueries = new Set<string>();

  const kinds: MpnKind[] = ['exact', 'lower', 'punct', 'variant', 'prefix', 'typo', 'short-typo'];
  for (const kind of kinds) {
    const rng = new Rng(o.seed).fork(`${o.suite}:${kind}`);
    const used = new Set<string>();
    let made = 0;
    let g = rng.int(0, groupNames.length - 1);
    let misses = 0;
    while (made < o.counts[kind] && misses < groupNames.length * 50) {
      const pool = groups.get(groupNames[g++ % groupNames.length]!)!;
      const p = rng.pick(pool);
      const built = used.has(p.slug) ? null : makeQuery(kind, p, cat, rng);
      if (!built || usedQueries.has(`${kind}:${normaliseMpn(built.query)}`)) {
        misses++;
        continue;
      }
      used.add(p.slug);
      usedQueries.add(`${kind}:${normaliseMpn(built.query)}`);
      made++;
      out.push({
        id: `${kind}-${String(made).padStart(3, '0')}`,
        suite: o.suite,
        kind,
        query: built.query,
        endpoint: 'mpn',
        rule: `${MPN_RULES[kind]} Target: ${p.slug}.`,
        judgments: built.judgments,
      });
    }
  }
  return out;
}

function makeQuery(kind: MpnKind, p: MpnPart, cat: MpnCatalogue, rng: Rng): { query: string; judgments: Record<string, Grade> } | null {
  const key = p.key;
  if (key.length < 3) return null;
  switch (kind) {
    case 'exact':
      return { query: p.mpn, judgments: judgeExact(cat, key, true) };
    case 'lower':
      if (p.mpn.toLowerCase() === p.mpn) return null;
      return { query: p.mpn.toLowerCase(), judgments: judgeExact(cat, key, true) };
    case 'punct': {
      if ([...p.mpn].every(isAlnum)) return null;
      return { query: [...p.mpn].filter(isAlnum).join(''), judgments: judgeExact(cat, key, true) };
    }
    case 'variant': {
      if (key.length < 6) return null;
      const drop = rng.int(1, 2);
      const query = cutAfterAlnum(p.mpn, key.length - drop);
      const qk = normaliseMpn(query);
      if (qk.length !== key.length - drop) return null;
      const j: Record<string, Grade> = {};
      for (const { part } of cat.withPrefix(qk)) setMax(j, part.slug, 1);
      for (const t of cat.byKey.get(key) ?? []) setMax(j, t.slug, 2);
      for (const t of cat.byKey.get(qk) ?? []) setMax(j, t.slug, 3);
      return { query, judgments: j };
    }
    case 'prefix': {
      if (key.length < 8) return null;
      const qk = key.slice(0, Math.max(4, key.length - rng.int(3, 5)));
      const j: Record<string, Grade> = {};
      for (const { key: k, part } of cat.withPrefix(qk)) setMax(j, part.slug, k === qk ? 3 : k.length - qk.length <= 4 ? 2 : 1);
      return { query: qk, judgments: j };
    }
    case 'short-typo': {
      const query = shortTypoOf(key, rng, cat);
      if (!query) return null;
      const j: Record<string, Grade> = {};
      for (const t of cat.byKey.get(key) ?? []) setMax(j, t.slug, 3);
      return { query, judgments: j };
    }
    case 'typo': {
      const query = typoOf(p.mpn, rng, cat);
      if (!query) return null;
      const j: Record<string, Grade> = {};
      for (const t of cat.byKey.get(key) ?? []) setMax(j, t.slug, 3);
      return { query, judgments: j };
    }
  }
}
