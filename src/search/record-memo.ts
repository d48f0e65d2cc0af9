/**
 * Values derived from a part record, kept with the record object (a WeakMap: they go when it goes).
 *
 * `perRecord`: for values of the record alone, kept across requests. Records that come from the engines'
 * caches are frozen and shared by every request (engines/sqlite/records.ts RecordCache), so what the
 * ranking derives from them (its words, its package text, its spec names) is derived once, not per
 * request. A record that is not frozen may still change: its values are computed each time.
 *
 * `perObject`: kept whatever the object, for a memo that lives no longer than the objects it is asked
 * about stay unchanged (one request's ranking keys, which depend on its query too).
 */
export function perObject<R extends object, T>(compute: (r: R) => T): (r: R) => T {
  const kept = new WeakMap<R, T>();
  return (r) => {
    let v = kept.get(r);
    if (v === undefined) {
      v = compute(r);
      kept.set(r, v);
    }
    return v;
  };
}

export function perRecord<R extends object, T>(compute: (r: R) => T): (r: R) => T {
  const kept = perObject(compute);
  return (r) => (Object.isFrozen(r) ? kept(r) : compute(r));
}
