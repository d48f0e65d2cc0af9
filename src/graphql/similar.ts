/**
 * SupPart.similarParts: the parts of the same category most like a part by its description (BM25 over
 * the catalogue's text fields, the part itself left out), at most SIMILAR_PARTS. One request's
 * similarParts are gathered while the sibling fields resolve and searched together, concurrently, one
 * search per distinct part (the records come with the searches: no further read per part).
 */
import type { PartRecord } from '../catalog/part.ts';
import type { GraphQLContext } from './context.ts';

export const SIMILAR_PARTS = 5;
/** Characters of a description used as the search text. */
const TEXT_CHARS = 200;

export interface SimilarLoader {
  load(record: PartRecord): Promise<PartRecord[]>;
}

export function createSimilarLoader(ctx: Pick<GraphQLContext, 's'>): SimilarLoader {
  const done = new Map<number, Promise<PartRecord[]>>();
  let pending: { record: PartRecord; resolve: (r: PartRecord[]) => void; reject: (e: unknown) => void }[] = [];
  const search = async (r: PartRecord): Promise<PartRecord[]> => {
    const text = `${r.description} ${r.package ?? ''}`.slice(0, TEXT_CHARS).trim() || r.mpn;
    const found = await ctx.s.engine.textSearch({
      text,
      filters: r.category ? { categories: [r.category.slug] } : {},
      limit: SIMILAR_PARTS + 1,
      offset: 0,
      exactTotal: false,
      records: true,
    });
    const others = found.hits.filter((h) => h.id !== r.id).slice(0, SIMILAR_PARTS);
    const records = others.every((h) => h.record) ? others.map((h) => h.record!) : await ctx.s.engine.getParts(others.map((h) => h.id));
    return records;
  };
  const flush = () => {
    const batch = pending;
    pending = [];
    for (const p of batch) search(p.record).then(p.resolve, p.reject);
  };
  return {
    load(record) {
      let p = done.get(record.id);
      if (!p) {
        p = new Promise<PartRecord[]>((resolve, reject) => {
          if (!pending.length) queueMicrotask(flush);
          pending.push({ record, resolve, reject });
        });
        done.set(record.id, p);
      }
      return p;
    },
  };
}
