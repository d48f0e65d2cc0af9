/**
 * Compact hash map from part ids (positive integers below 2^53) to non-negative integers, in typed
 * arrays with open addressing: about 24 bytes a part instead of ~70 for a Map, so ingest memory stays
 * small on large dumps. `IdSet` is the same with no values.
 */
export class IdMap {
  private keys: Float64Array;
  private values: Float64Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 1 << 16) {
    let cap = 1;
    while (cap < capacity * 2) cap <<= 1;
    this.keys = new Float64Array(cap);
    this.values = new Float64Array(cap);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  private slot(id: number): number {
    // Mix high and low halves; ids are already hash-like.
    let h = (id % 0x100000000) ^ Math.floor(id / 0x100000000);
    h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
    let i = (h ^ (h >>> 16)) & this.mask;
    while (this.keys[i] !== 0 && this.keys[i] !== id) i = (i + 1) & this.mask;
    return i;
  }

  get(id: number): number | undefined {
    const i = this.slot(id);
    return this.keys[i] === id ? this.values[i] : undefined;
  }

  has(id: number): boolean {
    return this.keys[this.slot(id)] === id;
  }

  set(id: number, value: number): void {
    if (id <= 0) throw new RangeError('ids must be positive');
    const i = this.slot(id);
    if (this.keys[i] !== id) {
      this.keys[i] = id;
      this.count++;
    }
    this.values[i] = value;
    if (this.count * 2 > this.mask) this.grow();
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.values = new Float64Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    this.count = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) this.set(keys[i]!, values[i]!);
  }
}

export class IdSet {
  private readonly map = new IdMap();
  get size(): number {
    return this.map.size;
  }
  add(id: number): void {
    this.map.set(id, 1);
  }
  has(id: number): boolean {
    return this.map.has(id);
  }
}
