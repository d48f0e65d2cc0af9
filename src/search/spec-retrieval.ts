/**
 * Candidates by the parsed spec values (agentic search): the parts whose specs hold the asked values,
 * read through the engines' spec filters, so that a part whose text never spells the value as the
 * query does ("4.7kΩ" for "4.7k", "10000pF" for "10nF") still reaches the ranking.
 *
 * A constraint's spec names (the vocabulary's display names) are matched against the names the
 * catalogue actually uses (CatalogMeta.specs) by specNameKey, so "Allowable voltage" and "Voltage Rated"
 * meet; a constraint none of whose names the catalogue uses is left out. Ranges follow the engine filter
 * semantics (a part's [min, max] within the bounds, in the constraint's unit or as a plain number):
 * `equals` within its window, `at_least` from its value up, `at_most` up to it. Text values (dielectric, tolerance) are left to the ranking.
 */
import type { SpecFilter } from '../engines/port.ts';
import { specNameKey } from './spec-vocabulary.ts';
import type { QueryUnderstanding } from './understand.ts';

/** specNameKey -> the catalogue's spec names with that key. */
export type SpecNameIndex = ReadonlyMap<string, readonly string[]>;

export function specNameIndex(names: Iterable<string>): SpecNameIndex {
  const out = new Map<string, string[]>();
  for (const name of names) {
    const key = specNameKey(name);
    if (!key) continue;
    const list = out.get(key);
    if (list) {
      if (!list.includes(name)) list.push(name);
    } else out.set(key, [name]);
  }
  return out;
}

/** The spec filters of a query's quantity constraints, on the names the catalogue uses (empty when none resolves). */
export function specFilters(u: QueryUnderstanding, index: SpecNameIndex): SpecFilter[] {
  const out: SpecFilter[] = [];
  for (const c of u.specs) {
    const names = [...new Set(c.names.flatMap((n) => index.get(specNameKey(n)) ?? []))];
    if (names.length === 0) continue;
    const range: { gte?: number; lte?: number } = {};
    if (c.kind !== 'at_most' && Number.isFinite(c.lo)) range.gte = c.lo;
    if (c.kind !== 'at_least' && Number.isFinite(c.hi)) range.lte = c.hi;
    if (range.gte === undefined && range.lte === undefined) continue;
    out.push({ name: names, range, unit: c.unit });
  }
  return out;
}
