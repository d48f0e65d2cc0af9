/**
 * The canonical spec attributes (vocabulary/attributes.json) as the API lists them (REST GET
 * /v1/attributes): each with the spec names this catalogue stores it under, so that a client can see
 * which attribute a dump's spelling belongs to and which attributes it can filter and count by.
 */
import { ATTRIBUTES } from '../vocabulary/attributes.ts';
import type { CatalogDeps } from './deps.ts';

export interface AttributeEntry {
  id: string;
  name: string;
  shortname: string;
  group: string;
  value_type: 'number' | 'text';
  /** The SI unit values are compared in; null for text attributes and counts. */
  unit: { symbol: string; name: string | null } | null;
  /** The spec names of the live catalogue with this attribute (empty: the catalogue holds none). */
  spec_names: string[];
}

export async function listAttributes(deps: CatalogDeps): Promise<{ attributes: AttributeEntry[] }> {
  const names = (await deps.catalog.get())?.specNameIndex().names;
  return {
    attributes: ATTRIBUTES.map((a) => ({
      id: a.id,
      name: a.name,
      shortname: a.shortname,
      group: a.group,
      value_type: a.valueType,
      unit: a.unit === null ? null : { symbol: a.unit, name: a.unitsName },
      spec_names: [...(names?.get(a.id) ?? [])],
    })),
  };
}
