/**
 * A search hit whose part record is read when `record` is first read (a getter on the prototype, so
 * hits keep one shape; object spread and JSON leave it out), then kept. Both adapters return such
 * hits to a caller that asks for records: agentic search ranks 200-odd candidates and reads about half
 * of their records, so the others are never parsed (SQLite: the stored JSON text; OpenSearch: the
 * record in the search answer).
 */
import type { PartRecord } from '../catalog/part.ts';

type HitFields = { id: number; score?: number; category?: string | null };

class LazyRecordHit {
  readonly id: number;
  readonly score: number;
  declare readonly category?: string | null;
  #read: (() => PartRecord | undefined) | PartRecord | undefined;
  constructor(h: HitFields, read: () => PartRecord | undefined) {
    this.id = h.id;
    this.score = h.score ?? 0;
    if ('category' in h) (this as { category?: string | null }).category = h.category;
    this.#read = read;
  }
  get record(): PartRecord | undefined {
    if (typeof this.#read === 'function') this.#read = this.#read();
    return this.#read;
  }
}

/**
 * The hit with its record read by `read` when first asked for, or the hit itself when `read` is
 * undefined. Only `id`, `score` and `category` of `base` are kept. `read` may find no record (the
 * SQLite adapter's on-demand reads, records.ts withRecordsOnDemand): `record` is then undefined.
 */
export function withRecord<T extends HitFields>(base: T, read: (() => PartRecord | undefined) | undefined): T & { record?: PartRecord } {
  return read ? (new LazyRecordHit(base, read) as unknown as T & { record?: PartRecord }) : base;
}
