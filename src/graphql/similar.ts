/**
 * SupPart.similarParts (and counts.similar_parts): the use case similarParts (src/service/supply-match.ts)
 * for each distinct part of one request, at most SIMILAR_PARTS each. The parts asked for while sibling
 * fields resolve are searched together, concurrently, once each (the records come with the searches: no
 * further read per part).
 */
import type { PartRecord } from '../catalog/part.ts';
import { similarParts } from '../service/supply-match.ts';
import type { GraphQLContext } from './context.ts';

export const SIMILAR_PARTS = 5;
export interface SimilarLoader {
  load(record: PartRecord): Promise<PartRecord[]>;
}

export function createSimilarLoader(ctx: Pick<GraphQLContext, 's'>): SimilarLoader {
  const done = new Map<number, Promise<PartRecord[]>>();
  let pending: { record: PartRecord; resolve: (r: PartRecord[]) => void; reject: (e: unknown) => void }[] = [];
  const search = (r: PartRecord) => similarParts(ctx.s, r, SIMILAR_PARTS);
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
