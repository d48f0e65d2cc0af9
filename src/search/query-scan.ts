/**
 * The scanning half of query understanding (understand.ts): tokens, comparison words, packages,
 * MPN-like tokens, and the scan that finds them and the quantities (query-quantities.ts) in a query.
 * Which spec a quantity means is decided in understand.ts.
 */
import { normaliseMpn } from '../catalog/mpn.ts';
import { FAMILY_WORDS, SUBTYPE_PHRASES, type Family } from '../vocabulary/families.ts';
import { CHIP_SIZES, LETTER_PACKAGES, NAMED_PACKAGES, PACKAGE_FAMILIES, WORD_PACKAGE_FAMILIES } from '../vocabulary/packages.ts';
import { COMPARISONS, QUERY_STOPWORDS, type Comparison } from '../vocabulary/query-words.ts';
import { QUALIFIERS } from '../vocabulary/qualifiers.ts';
import type { ConstraintKind } from '../vocabulary/roles.ts';
import { VALUE_WORDS, type ValueWord } from '../vocabulary/value-words.ts';
import { readSuffix, parseQty, combine, parseRangeToken, type Qty, type Range } from './query-quantities.ts';

/** Longest family or value phrase, in words: the scan tries phrases this long first. */
const LONGEST_PHRASE = Math.max(...[...FAMILY_WORDS.keys(), ...VALUE_WORDS.keys()].map((k) => k.split(' ').length));

/** Only the start of a query is read: part searches are short, and this bounds the work on odd input. */
const MAX_CHARS = 512;
const MAX_TOKENS = 64;
const MAX_TOKEN_CHARS = 64;

// ---------------------------------------------------------------- tokens

type TokState = 'free' | 'used' | 'keep';

export interface Tok {
  raw: string;
  low: string;
  /** Lower case with hyphens/underscores as spaces, for phrase lookup ("n-channel" -> "n channel"). */
  key: string;
  /** free: a term unless something claims it; used: part of a constraint; keep: recognised but still a term (family words, MPNs). */
  state: TokState;
  /** Part of a family phrase that names a narrower kind than its family ("tantalum": SUBTYPE_PHRASES). */
  subtype?: true;
  /** First token after a comma or semicolon: a comparison word here binds forward when a value follows ("VCM 10, max 7V"). */
  clause?: true;
}

const SPLIT_RE = /[\s;|()[\]{}"'`\u201c\u201d\u2018\u2019]+|,(?!\d)|(?<!\d),/u;
/** SPLIT_RE keeping what it split on (a clause break is a comma or semicolon there). */
const SPLIT_KEEP_RE = new RegExp(`(${SPLIT_RE.source})`, 'u');
/**
 * A value's test conditions, as datasheets and catalogues write them ("100nA@16V", "100nA @ 16V",
 * "3.8ns@5V,50pF", "2V@(500mA)"): the quantity before "@" is the value; the conditions are not
 * constraints of their own. They end at a space, ";", "|", or a comma not followed by a quantity
 * ("100nA@16V,SOD-323" and "10uF@25V,0805" keep their package); with spaces around "@", only a number
 * or a bracket after it is a condition ("1A @ SOT-23" keeps the package).
 */
const CONDITION_RE = /(\d[^\s@]*)(?:@|\s+@\s*(?=[\d(])|@\s+(?=[\d(]))(?:\([^)]*\)|[^\s;|,()]|,(?=\d+(?:\.\d+)?[A-Za-zµΩ°%]))*/gu;
/** "Rds(on)", "Vgs(th)", "Vce(sat)": one word, not split at the brackets. */
const PAREN_WORD_RE = /\b([A-Za-z]{2,4})\((on|th|sat|max|min|typ|nom)\)/gi;
/** Tokens kept although they hold no letter or digit: range separators, tolerance signs, postfix "+". */
const SYMBOL_TOKENS: ReadonlySet<string> = new Set(['~', '～', '〜', '-', '–', '—', '..', '...', '±', '+/-', '+-', '+', '>', '<', '>=', '<=', '≥', '≤', '=>', '=<']);
const CMP_RE = /(>=|<=|=>|=<|≥|≤|>|<)/g;
/** "10kΩ±1%": the tolerance is a token of its own. */
const TOL_SPLIT_RE = /([^\s±])±/g;
const LEAD_TRIM_RE = /^[^\p{L}\p{N}±+\-−–.~<>≤≥]+/u;
const TRAIL_TRIM_RE = /[^\p{L}\p{N}%℃Ωµμ°+]+$/u;
const DOT_LEAD_RE = /^\.(?!\d)/;

/**
 * A voltage with its qualifier glued to the unit: "11Vrwm", "8.5Vr", "40Vds", "5Vin" (the qualifiers
 * that begin with the unit's letter are all voltages: Vds, Vce, Vrwm...).
 */
const GLUED_QUALIFIER_RE = /^([+-]?\d+(?:[.,]\d+)?[pnuµμmkKM]?)V([A-Za-z]{1,4})$/;

/** "11Vrwm" -> ["11V", "Vrwm"] when "V" and what follows it are a voltage qualifier; else [raw]. */
function splitGluedQualifier(raw: string): string[] {
  const m = GLUED_QUALIFIER_RE.exec(raw);
  if (!m) return [raw];
  return QUALIFIERS.get(`v${m[2]}`.toLowerCase())?.V !== undefined ? [`${m[1]}V`, `V${m[2]}`] : [raw];
}

export function tokenise(text: string): Tok[] {
  const s = text
    .slice(0, MAX_CHARS)
    .normalize('NFKC')
    .replace(CONDITION_RE, '$1')
    .replace(PAREN_WORD_RE, '$1$2')
    .replace(CMP_RE, ' $1 ')
    .replace(TOL_SPLIT_RE, '$1 ±');
  const out: Tok[] = [];
  const pieces = s.split(SPLIT_KEEP_RE);
  let clause = false;
  for (let n = 0; n < pieces.length; n++) {
    const piece = pieces[n];
    if (n % 2 === 1) {
      if (piece !== undefined && /[,;]/.test(piece)) clause = true;
      continue;
    }
    if (!piece) continue;
    const raw = SYMBOL_TOKENS.has(piece) ? piece : piece.replace(LEAD_TRIM_RE, '').replace(TRAIL_TRIM_RE, '').replace(DOT_LEAD_RE, '');
    if (!raw || raw.length > MAX_TOKEN_CHARS) continue;
    for (const part of splitGluedQualifier(raw)) {
      const low = part.toLowerCase();
      out.push({ raw: part, low, key: low.replace(/[-_]+/g, ' ').trim(), state: 'free', ...(clause && out.length > 0 ? { clause: true as const } : {}) });
      clause = false;
    }
    if (out.length >= MAX_TOKENS) break;
  }
  return out;
}

// ---------------------------------------------------------------- comparisons

/** Comparison words and symbols (phrase keys, lower case): vocabulary/query-words.json. */
export const OPS = COMPARISONS;

const RANGE_WORDS: ReadonlySet<string> = new Set(['to', '~', '-', '–', '—', '..', '...', '至', 'and', 'thru', 'through']);
const TOL_TOKENS: ReadonlySet<string> = new Set(['±', '+/-', '+-']);

/** Words never kept as terms. */
export const STOPWORDS = QUERY_STOPWORDS;

// ---------------------------------------------------------------- packages

const PKG_RE = new RegExp(
  `^(${[...PACKAGE_FAMILIES].sort((a, b) => b.length - a.length).join('|')})[-_]?(\\d{1,4})([A-Z]{0,3})(?:[-_](\\d{1,3})([A-Z]{0,2}))?([-_]?EP)?([-_]\\d{1,2}(?:\\.\\d{1,2})?MM)?$`,
);
export const LETTER_PACKAGE_CODES: ReadonlySet<string> = new Set(LETTER_PACKAGES.values());
/** Package families that are also ordinary words: never joined with a following number token ("to 220"). */
const NO_JOIN_FAMILIES: ReadonlySet<string> = WORD_PACKAGE_FAMILIES;
const PKG_NUMBER_RE = /^\d{1,4}(?:[-_]\d{1,3})?$/;

/** "sot23-5" -> "SOT-23-5", "soic8" -> "SOIC-8", "0603" -> "0603", "dpak" -> "DPAK"; null when not a package. */
function packageOf(raw: string): string | null {
  if (CHIP_SIZES.has(raw)) return raw;
  const low = raw.toLowerCase();
  const letter = LETTER_PACKAGES.get(low) ?? NAMED_PACKAGES.get(low);
  if (letter !== undefined) return letter;
  const up = raw.toUpperCase();
  const m = PKG_RE.exec(up);
  if (m === null) return null;
  const fam = m[1] as string;
  const num = m[2] as string;
  if (fam === 'SMD' && CHIP_SIZES.has(num) && m[3] === '' && m[4] === undefined) return num;   // "smd0805": the chip size
  const head = num.length === 4 ? `${fam}${num}` : `${fam}-${num}`;     // DFN1006: a size code, no hyphen
  const pins = m[4] !== undefined ? `-${m[4]}${m[5] ?? ''}` : '';
  const ep = m[6] !== undefined ? '-EP' : '';
  const width = m[7] !== undefined ? `-${m[7].slice(1)}` : '';          // body width: "SOP-16-4.4MM"
  return `${head}${m[3] ?? ''}${pins}${ep}${width}`;
}

// ---------------------------------------------------------------- MPNs

const MPN_CHARS_RE = /^[A-Za-z0-9][A-Za-z0-9\-_./+#]*$/;
const HAS_LETTER_RE = /[A-Za-z]/;
const HAS_DIGIT_RE = /\d/;
const LETTER_DIGIT_RE = /[A-Za-z]\d/;
const DIMENSION_RE = /^\d+(?:\.\d+)?(?:mm)?[x×*]\d+(?:\.\d+)?(?:[x×*]\d+(?:\.\d+)?)?(?:mm|p)?$/i;
/** Standards, interfaces and generations that look like part numbers but are not. */
const NOT_MPN_RE =
  /^(?:rs-?\d{3}[a-z]?|ip\d{2}|usb-?\d(?:\.\d)?|ddr\d[a-z]?|lpddr\d|cat\d[a-z]?|m\d(?:\.\d)?(?:x\d+)?|ul\d+.*|aec-?q\d{3}|ieee\d+.*|cortex-?[amr]\d+\+?|bt\d(?:\.\d)?|ble\d(?:\.\d)?|wi-?fi\d|802\.11.*|e\d{2,3}|rohs\d?|pcie?\d.*|gen\d|qc\d(?:\.\d)?|class-?\d|awg\d+|\d+awg|iec\d+.*|en\d+.*|iso\d+.*)$/i;

export function mpnOf(raw: string): string | null {
  if (raw.length < 4 || !MPN_CHARS_RE.test(raw)) return null;
  if (!HAS_LETTER_RE.test(raw) || !HAS_DIGIT_RE.test(raw)) return null;
  const startsWithLetter = HAS_LETTER_RE.test(raw.charAt(0));
  if (!startsWithLetter && !LETTER_DIGIT_RE.test(raw)) return null;          // "2000mAh", "8pin": a value and a word
  if (DIMENSION_RE.test(raw) || NOT_MPN_RE.test(raw)) return null;
  const key = normaliseMpn(raw);
  return key.length >= 4 ? key : null;
}

// ---------------------------------------------------------------- scan

export interface Item {
  start: number;
  end: number;
  single: Qty | null;
  range: Range | null;
  op: ConstraintKind | null;
  upTo: boolean;
  /** Token indexes of the operator words applied to this item (freed if the item is dropped). */
  opToks: number[];
}

interface PendingValue { start: number; end: number; word: ValueWord }

interface PendingPackage { code: string; start: number; end: number }

export interface Scan {
  toks: Tok[];
  items: Item[];
  values: PendingValue[];
  families: Family[];
  packages: PendingPackage[];
}

function phraseAt(toks: Tok[], i: number, len: number): string | null {
  if (i + len > toks.length) return null;
  if (len === 1) return (toks[i] as Tok).key;
  let s = (toks[i] as Tok).key;
  for (let j = 1; j < len; j++) s += ` ${(toks[i + j] as Tok).key}`;
  return s;
}

export function use(toks: Tok[], from: number, to: number, state: TokState): void {
  for (let j = from; j <= to; j++) (toks[j] as Tok).state = state;
}

/** A quantity (or range) starting at token i: [item fields, last token index], or null. */
function quantityAt(toks: Tok[], i: number): { single: Qty | null; range: Range | null; end: number; atLeast: boolean } | null {
  const t = toks[i] as Tok;
  const next = toks[i + 1];
  // "between 2.7 and 5.5V", "from -40 to 85C"
  if ((t.low === 'between' || t.low === 'from') && next !== undefined) {
    const a = parseQty(next.raw);
    const sep = toks[i + 2];
    const bt = toks[i + 3];
    if (a !== null && sep !== undefined && bt !== undefined && RANGE_WORDS.has(sep.low)) {
      const b = parseQty(bt.raw);
      const r = b === null ? null : combine(a, b, true);
      if (r !== null) return { single: null, range: r, end: i + 3, atLeast: false };
    }
    return null;
  }
  // ± 1%
  if (TOL_TOKENS.has(t.raw) && next !== undefined) {
    const q = parseQty(`±${next.raw}`);
    if (q !== null) return { single: q, range: null, end: i + 1, atLeast: false };
    return null;
  }
  let raw = t.raw;
  let atLeast = false;
  if (raw.length > 1 && raw.endsWith('+') && !raw.endsWith('/+')) { raw = raw.slice(0, -1); atLeast = true; }
  const r1 = atLeast ? null : parseRangeToken(raw);
  if (r1 !== null) return { single: null, range: r1, end: i, atLeast: false };
  let q = parseQty(raw);
  if (q === null) return null;
  let end = i;
  // "100 nF", "10 k", "50 V", "10k ohm", "85 °C", "1 %"
  if (!atLeast && next !== undefined && q.unit === null && !q.rNote) {
    const suf = readSuffix(next.raw, q.prefix !== null);
    if (suf !== null && (suf.unit !== null || suf.prefix !== null) && !FAMILY_WORDS.has(next.key)) {
      const joined = parseQty(`${raw}${next.raw}`);
      if (joined !== null) { q = joined; end = i + 1; }
    }
  }
  // "-40 to 85C", "2.7 ~ 5.5V", "10k - 100k"
  const sep = toks[end + 1];
  const bt = toks[end + 2];
  if (!atLeast && sep !== undefined && bt !== undefined && RANGE_WORDS.has(sep.low) && sep.low !== 'and') {
    let b = parseQty(bt.raw);
    let bEnd = end + 2;
    const after = toks[end + 3];
    if (b !== null && b.unit === null && !b.rNote && after !== undefined) {
      const suf = readSuffix(after.raw, b.prefix !== null);
      if (suf !== null && (suf.unit !== null || suf.prefix !== null)) {
        const joined = parseQty(`${bt.raw}${after.raw}`);
        if (joined !== null) { b = joined; bEnd = end + 3; }
      }
    }
    const r = b === null ? null : combine(q, b, true);
    if (r !== null) return { single: null, range: r, end: bEnd, atLeast: false };
  }
  return { single: q, range: null, end, atLeast };
}

export function scan(text: string): Scan {
  const toks = tokenise(text);
  const items: Item[] = [];
  const values: PendingValue[] = [];
  const families: Family[] = [];
  const packages: PendingPackage[] = [];
  let pending: { op: Comparison; at: number; toks: number[] } | null = null;

  for (let i = 0; i < toks.length;) {
    const t = toks[i] as Tok;

    // comparison words: "at least", ">=", "max", "or more"
    let matchedOp: Comparison | null = null;
    let opLen = 0;
    for (let len = Math.min(3, toks.length - i); len >= 1 && matchedOp === null; len--) {
      const o = OPS.get(phraseAt(toks, i, len) ?? '');
      if (o !== undefined) { matchedOp = o; opLen = len; }
    }
    if (matchedOp !== null) {
      const last = items[items.length - 1];
      const idx = Array.from({ length: opLen }, (_, k) => i + k);
      // After a comma, a word that can go either way binds to a value right after it ("VCM 10, max 7V"),
      // and only without one to the value before the comma ("1W, max").
      const forward = t.clause === true && matchedOp.prefixOk && [0, 1, 2].some((k) => i + opLen + k < toks.length && quantityAt(toks, i + opLen + k) !== null);
      if (matchedOp.postfix && last !== undefined && last.end === i - 1 && last.op === null && !forward) {
        last.op = matchedOp.kind; last.upTo = matchedOp.upTo; last.opToks.push(...idx);
        use(toks, i, i + opLen - 1, 'used');
      } else if (matchedOp.prefixOk) {
        pending = { op: matchedOp, at: i + opLen, toks: idx };
      }
      i += opLen;
      continue;
    }

    // chip sizes before numbers: "0603" is a package, not 603 Ω
    if (CHIP_SIZES.has(t.raw)) {
      packages.push({ code: t.raw, start: i, end: i });
      t.state = 'used';
      i++;
      continue;
    }

    const q = quantityAt(toks, i);
    if (q !== null) {
      const item: Item = { start: i, end: q.end, single: q.single, range: q.range, op: null, upTo: false, opToks: [] };
      if (q.atLeast) item.op = 'at_least';
      else if (pending !== null && i - pending.at <= 2) {
        item.op = pending.op.kind; item.upTo = pending.op.upTo; item.opToks = pending.toks;
        for (const k of pending.toks) (toks[k] as Tok).state = 'used';
      }
      pending = null;
      items.push(item);
      use(toks, i, q.end, 'used');
      i = q.end + 1;
      continue;
    }

    // value and family words, longest phrase first
    let matched = 0;
    for (let len = Math.min(LONGEST_PHRASE, toks.length - i); len >= 1 && matched === 0; len--) {
      const key = phraseAt(toks, i, len);
      if (key === null) continue;
      const fam = FAMILY_WORDS.get(key);
      const val = VALUE_WORDS.get(key);
      if (fam === undefined && val === undefined) continue;
      matched = len;
      if (fam !== undefined) {
        families.push(fam);
        use(toks, i, i + len - 1, 'keep');
        if (SUBTYPE_PHRASES.has(key)) for (let k = i; k < i + len; k++) (toks[k] as Tok).subtype = true;
      }
      if (val !== undefined) values.push({ start: i, end: i + len - 1, word: val });
    }
    if (matched > 0) { i += matched; continue; }

    // packages: "SOT-23-5", "soic8", "SOT 23"
    let pkg = packageOf(t.raw);
    let pkgEnd = i;
    const next = toks[i + 1];
    if (pkg === null && next !== undefined && PKG_NUMBER_RE.test(next.raw)) {
      const fam = t.raw.toUpperCase();
      if (PACKAGE_FAMILIES.includes(fam) && !NO_JOIN_FAMILIES.has(fam)) {
        pkg = packageOf(`${fam}-${next.raw}`);
        pkgEnd = i + 1;
      }
    }
    if (pkg !== null) {
      packages.push({ code: pkg, start: i, end: pkgEnd });
      use(toks, i, pkgEnd, 'used');
      i = pkgEnd + 1;
      continue;
    }
    i++;
  }
  return { toks, items, values, families, packages };
}
