/**
 * Small seeded PRNG (mulberry32) with the helpers the sample generator needs.
 * Never use Math.random in the sample generator: output must be byte-identical per seed.
 */

/** 32-bit FNV-1a hash, used to derive independent streams from labels. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An independent stream for a named purpose, so families do not disturb each other. */
  fork(label: string): Rng {
    return new Rng((Math.imul(this.state ^ 0x9e3779b9, 0x85ebca6b) ^ hash32(label)) >>> 0);
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Pick by weight: entries are [value, weight]. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }

  /** Log-uniform integer in [min, max] (stock levels, quantities). */
  logInt(min: number, max: number): number {
    return Math.round(Math.exp(this.float(Math.log(min), Math.log(max))));
  }

  /**
   * Weighted sample of k items without replacement (Efraimidis–Spirakis).
   * Returns the chosen indexes in ascending order, so output keeps the input's order.
   */
  sampleIndexes(weights: readonly number[], k: number): number[] {
    const keyed = weights.map((w, i) => ({ i, key: Math.log(Math.max(this.next(), 1e-12)) / Math.max(w, 1e-9) }));
    keyed.sort((a, b) => b.key - a.key || a.i - b.i);
    return keyed
      .slice(0, Math.max(0, Math.min(k, weights.length)))
      .map((x) => x.i)
      .sort((a, b) => a - b);
  }
}
