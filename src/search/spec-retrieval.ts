/**
 * Candidates by the parsed spec values (agentic search): the parts whose specs hold the asked values,
 * read through the engines' spec filters, so that a part whose text never spells the value as the
 * query does ("4.7kΩ" for "4.7k", "10000pF" for "10nF") still reaches the ranking.
 *
 * A constraint's canonical attributes are turned into the spec names the catalogue stores them under
 * (the index of CatalogView.specNameIndex: every spelling of each attribute among the catalogue's
 * names), so "Allowable voltage" and "Voltage Rated" meet; a constraint none of whose attributes the
 * catalogue holds is left out. Ranges follow the engine filter semantics (a part's [min, max] within the
 * bounds, in the constraint's unit or as a plain number): `equals` within its window, `at_least` from
 * its value up, `at_most` up to it. Text values (dielectric, tolerance) are left to the ranking.
 */
import type { SpecFilter } from '../engines/port.ts';
import { namesByAttribute, type NamesByAttribute } from '../vocabulary/attributes.ts';
import type { QueryUnderstanding } from './understand.ts';

/** Attribute id -> the catalogue's spec names under it. */
export type SpecNameIndex = NamesByAttribute;

/** The catalogue's spec names by attribute (`unitOf`: a name's stored unit, for names it disambiguates). */
export const specNameIndex = namesByAttribute;

/** The spec filters of a query's quantity constraints, on the names the catalogue uses (empty when none resolves). */
export function specFilters(u: QueryUnderstanding, index: SpecNameIndex): SpecFilter[] {
  const out: SpecFilter[] = [];
  for (const c of u.specs) {
    const names = [...new Set(c.attributes.flatMap((a) => index.get(a) ?? []))];
    if (names.length === 0) continue;
    const range: { gte?: number; lte?: number } = {};
    if (c.kind !== 'at_most' && Number.isFinite(c.lo)) range.gte = c.lo;
    if (c.kind !== 'at_least' && Number.isFinite(c.hi)) range.lte = c.hi;
    if (range.gte === undefined && range.lte === undefined) continue;
    out.push({ name: names, range, unit: c.unit });
  }
  return out;
}
