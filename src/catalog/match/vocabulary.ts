/**
 * A term dictionary with tolerant lookup: a query word finds the known terms it could mean, each
 * with a credit in (0, 1]:
 *
 *   exact                                   1
 *   prefix (query word of 3+ chars)         0.5 + 0.4 * query length / term length ("capac" -> capacitor 0.72)
 *   reverse prefix (opt-in; term 4+ chars   0.5 + 0.4 * term length / query length ("intertechnology"
 *     is a prefix of the query word)          -> "intertech"), for names that abbreviate
 *   one edit (query word of 5+ chars)       0.85 ("shottky" -> schottky, "zenner" -> zener)
 *   two edits (query word of 8+ chars)      0.7  ("potentiomter" -> potentiometer)
 *
 * Edits are optimal-string-alignment (an adjacent swap is one edit). Lookups scan only the terms of
 * plausible length (fuzzy) and a sorted range (prefix), so they stay cheap at a few thousand terms.
 */
import { editDistance } from '../edit-distance.ts';

/** Bit set of the characters of `s` (a-z, 0-9 folded onto 32 bits); edits change at most 2 bits each. */
export function charMask(s: string): number {
  let m = 0;
  for (let i = 0; i < s.length; i++) m |= 1 << (s.charCodeAt(i) % 32);
  return m;
}

function popCount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

/** Edit distance of two strings up to `max`, or max + 1; skips the table when the masks rule it out. */
export function boundedDistance(a: string, aMask: number, b: string, bMask: number, max: number): number {
  if (Math.abs(a.length - b.length) > max || popCount(aMask ^ bMask) > 2 * max) return max + 1;
  return editDistance(a, b, max);
}

export interface TermHit {
  id: number;
  credit: number;
}

export class Vocabulary {
  readonly terms: string[] = [];
  private readonly ids = new Map<string, number>();
  private sorted: number[] = [];
  private byLength: number[][] = [];
  private masks: number[] = [];
  private dirty = false;

  constructor(private readonly reversePrefix = false) {}

  add(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.ids.set(term, id);
      this.dirty = true;
    }
    return id;
  }

  id(term: string): number | undefined {
    return this.ids.get(term);
  }

  get size(): number {
    return this.terms.length;
  }

  /** Builds the lookup indexes now (otherwise the first lookup after an add does). */
  seal(): void {
    if (!this.dirty) return;
    this.sorted = this.terms.map((_, i) => i).sort((a, b) => (this.terms[a]! < this.terms[b]! ? -1 : 1));
    this.byLength = [];
    this.terms.forEach((t, i) => (this.byLength[t.length] ??= []).push(i));
    this.masks = this.terms.map(charMask);
    this.dirty = false;
  }

  /** Known terms that `q` may stand for, best credit per term. */
  lookup(q: string): TermHit[] {
    this.seal();
    const hits = new Map<number, number>();
    const put = (id: number, credit: number) => {
      if ((hits.get(id) ?? 0) < credit) hits.set(id, credit);
    };
    const exact = this.ids.get(q);
    if (exact !== undefined) put(exact, 1);
    if (q.length >= 3) {
      for (let i = this.lowerBound(q); i < this.sorted.length; i++) {
        const id = this.sorted[i]!;
        const t = this.terms[id]!;
        if (!t.startsWith(q)) break;
        if (t !== q) put(id, 0.5 + (0.4 * q.length) / t.length);
      }
    }
    if (this.reversePrefix && q.length >= 5) {
      for (let n = q.length - 1; n >= 4; n--) {
        const id = this.ids.get(q.slice(0, n));
        if (id !== undefined) put(id, 0.5 + (0.4 * n) / q.length);
      }
    }
    if (q.length >= 5 && !/^\d+$/.test(q)) {
      const max = q.length >= 8 ? 2 : 1;
      const qMask = charMask(q);
      for (let len = Math.max(4, q.length - max); len <= q.length + max; len++) {
        for (const id of this.byLength[len] ?? []) {
          const d = boundedDistance(q, qMask, this.terms[id]!, this.masks[id]!, max);
          if (d > max || d === 0) continue;
          put(id, d === 1 ? 0.85 : 0.7);
        }
      }
    }
    return [...hits].map(([id, credit]) => ({ id, credit }));
  }

  private lowerBound(q: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.terms[this.sorted[mid]!]! < q) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
