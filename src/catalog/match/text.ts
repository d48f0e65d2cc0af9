/**
 * Text normalisation shared by the name matchers: folding (NFKC, accents off, lower case), word
 * splitting, a few glue rules for electronics spellings, and light stemming.
 *
 * - fold: "Würth ＥＬＥＫＴＲＯＮＩＫ" -> "wurth elektronik".
 * - words: splits on anything that is not a letter or digit. With `camel`, also splits glued words
 *   where both halves have 2+ letters ("OpAmps" -> op amps, "InputAmplifiers", "PhotoMOS") but not
 *   "GaN", "SiC", "eMMC". Glues "DC-DC", "AC/DC", "RS-485", "I/O", "D-Sub", "USB-C" into one word.
 * - stem: plural and -ing endings off, final e off ("Switches" -> switch, "Sensing"/"Sense" -> sens,
 *   "Batteries" -> battery, "MCUs" -> mcu; words under four letters keep their s: "TVS", "MOS"). Applied
 *   alike to names, queries and the synonym tables.
 */

const COMBINING = /[\u0300-\u036f]/g;

export function fold(s: string): string {
  return s.normalize('NFKC').normalize('NFKD').replace(COMBINING, '').toLowerCase();
}

/** Inserts a space inside glued CamelCase words when both halves have at least two letters. */
function splitCamel(s: string): string {
  const isLower = (c: string) => c !== c.toUpperCase();
  const isUpper = (c: string) => c !== c.toLowerCase();
  return s.replace(/\p{L}+/gu, (run) => {
    const cuts: number[] = [];
    for (let i = 1; i < run.length; i++) if (isLower(run[i - 1]!) && isUpper(run[i]!)) cuts.push(i);
    if (cuts.length === 0) return run;
    let out = '';
    let start = 0;
    cuts.forEach((cut, n) => {
      const next = cuts[n + 1] ?? run.length;
      if (cut - start >= 2 && next - cut >= 2) {
        out += `${run.slice(start, cut)} `;
        start = cut;
      }
    });
    return out + run.slice(start);
  });
}

const GLUE: [RegExp, string][] = [
  [/\b(ac|dc)\s*[-/]?\s*(ac|dc)\b/g, '$1$2'],
  [/\b(rs|rj)\s*-?\s*(\d{2,3})\b/g, '$1$2'],
  [/\bi\s*\/\s*o\b/g, 'io'],
  [/\bi\s*2\s*c\b/g, 'i2c'],
  [/\bwi\s*-\s*fi\b/g, 'wifi'],
  [/\b([a-z])-([a-z]{2,})\b/g, '$1$2'],
  [/\b([a-z]{2,})-([a-z])\b/g, '$1$2'],
];

/** Lower-case words of `s`, letters and digits only (any script). */
export function words(s: string, camel = false): string[] {
  let t = s.normalize('NFKC');
  if (camel) t = splitCamel(t);
  t = fold(t);
  for (const [re, to] of GLUE) t = t.replace(re, to);
  return t.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/** Words whose final s is not a plural. */
const KEEP = new Set(['plus', 'series', 'status', 'lens', 'chassis', 'this', 'less', 'canbus', 'modbus', 'fieldbus']);

export function stem(w: string): string {
  if (w === 'ics') return 'ic';
  if (w.length < 4 || /^\d/.test(w) || KEEP.has(w)) return w;
  let s = w;
  if (s.length > 4 && s.endsWith('ies')) s = `${s.slice(0, -3)}y`;
  else if (s.length > 4 && /(?:ches|shes|sses|xes|zzes)$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss')) s = s.slice(0, -1);
  if (s.length >= 7 && s.endsWith('ing')) s = s.slice(0, -3);
  if (s.length >= 4 && s.endsWith('e') && !s.endsWith('ee')) s = s.slice(0, -1);
  return s;
}

/** Stemmed words (stopwords dropped when a set is given). */
export function terms(s: string, opts: { camel?: boolean; stopwords?: ReadonlySet<string> } = {}): string[] {
  const out: string[] = [];
  for (const w of words(s, opts.camel)) {
    if (opts.stopwords?.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}
