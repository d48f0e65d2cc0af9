/**
 * Candidates by the parsed spec values (agentic search): the parts whose specs hold the asked values,
 * read through the engines' spec filters, so that a part whose text never spells the value as the
 * query does ("4.7kΩ" for "4.7k", "10000pF" for "10nF") still reaches the ranking.
 *
 * A constraint's canonical attributes are those the catalogue holds (CatalogView.specNameIndex: every
 * spelling of each attribute among the catalogue's names); a constraint none of whose attributes the
 * catalogue holds is left out. An index version that stores each spec's attribute ('spec_attributes') is
 * filtered by attribute; an older one by the names the catalogue stores those attributes under, so
 * "Allowable voltage" and "Voltage Rated" meet either way. Ranges follow the engine filter semantics (a
 * part's [min, max] within the bounds, in the constraint's unit or as a plain number): `equals` within its
 * window, `at_least` from its value up, `at_most` up to it. Text values (dielectric, tolerance) are left
 * to the ranking.
 */
import type { SpecFilter } from '../engines/port.ts';
import type { SpecNameIndex } from '../vocabulary/attributes.ts';
import type { QueryUnderstanding } from './understand.ts';

export { specNameIndex, type SpecNameIndex } from '../vocabulary/attributes.ts';

/** The spec filters of a query's quantity constraints, on the names the catalogue uses (empty when none resolves). */
export function specFilters(u: QueryUnderstanding, index: SpecNameIndex): SpecFilter[] {
  const out: SpecFilter[] = [];
  for (const c of u.specs) {
    const held = c.attributes.filter((a) => index.names.has(a));
    if (held.length === 0) continue;
    const key = index.byAttribute ? { attribute: held } : { name: [...new Set(held.flatMap((a) => index.names.get(a) ?? []))] };
    const range: { gte?: number; lte?: number } = {};
    if (c.kind !== 'at_most' && Number.isFinite(c.lo)) range.gte = c.lo;
    if (c.kind !== 'at_least' && Number.isFinite(c.hi)) range.lte = c.hi;
    if (range.gte === undefined && range.lte === undefined) continue;
    out.push({ ...key, range, unit: c.unit });
  }
  return out;
}
