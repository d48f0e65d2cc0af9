/**
 * Values derived from a part record, kept with the record: records that come from the engines' caches
 * are frozen and shared by every request (engines/sqlite/records.ts RecordCache), so what the ranking
 * derives from them (its words, its package text, its spec names) is derived once, not per request.
 * A record that is not frozen may still change: its values are computed each time.
 */
export function perRecord<R extends object, T>(compute: (r: R) => T): (r: R) => T {
  const kept = new WeakMap<R, T>();
  return (r) => {
    if (!Object.isFrozen(r)) return compute(r);
    let v = kept.get(r);
    if (v === undefined) {
      v = compute(r);
      kept.set(r, v);
    }
    return v;
  };
}
