/**
 * Optimal-string-alignment distance (Damerau-Levenshtein with adjacent swaps), capped at `max`+1.
 *
 * Three rows of the table in one reused buffer, characters compared as UTF-16 code units: no
 * allocation per call (category matching and fuzzy MPN search call this for every plausible term).
 */
let rows = new Int32Array(3 * 64);

export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  const w = n + 1;
  if (rows.length < 3 * w) rows = new Int32Array(6 * w);
  const r = rows;
  // Offsets of the rows i-2, i-1 and i in the buffer, rotated after each row.
  let p2 = 0;
  let p = w;
  let c = 2 * w;
  for (let j = 0; j <= n; j++) r[p + j] = j;
  for (let i = 1; i <= a.length; i++) {
    const ai = a.charCodeAt(i - 1);
    const aPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    r[c] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = r[p + j]! + 1;
      const ins = r[c + j - 1]! + 1;
      if (ins < v) v = ins;
      const sub = r[p + j - 1]! + (ai === bj ? 0 : 1);
      if (sub < v) v = sub;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && aPrev === bj) {
        const swap = r[p2 + j - 2]! + 1;
        if (swap < v) v = swap;
      }
      r[c + j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = p2;
    p2 = p;
    p = c;
    c = t;
  }
  return Math.min(r[p + n]!, max + 1);
}
