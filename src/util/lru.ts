/**
 * A map that keeps its most recently used entries within a budget: at most `budget` in all, each entry
 * weighing `weigh(value)` (1 by default, so `budget` is a count). Reading an entry (get) makes it the
 * most recently used; storing one (set) drops the least recently used until it fits. A budget of 0 or
 * less keeps nothing. An entry heavier than the whole budget is kept alone.
 */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();
  #used = 0;
  constructor(
    readonly budget: number,
    readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }

  /** Whether `key` is kept, without making it the most recently used. */
  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Keeps `value` under `key` (the most recently used) and returns it. */
  set(key: K, value: V): V {
    this.delete(key);
    if (this.budget <= 0) return value;
    const w = this.weigh(value);
    for (const [k, old] of this.#map) {
      if (this.#used + w <= this.budget) break;
      this.#map.delete(k);
      this.#used -= this.weigh(old);
    }
    this.#map.set(key, value);
    this.#used += w;
    return value;
  }

  delete(key: K): boolean {
    const old = this.#map.get(key);
    if (old === undefined && !this.#map.has(key)) return false;
    this.#map.delete(key);
    this.#used -= this.weigh(old as V);
    return true;
  }

  clear(): void {
    this.#map.clear();
    this.#used = 0;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The kept entries' weight in all. */
  get used(): number {
    return this.#used;
  }
}
