/**
 * Approved lists as the catalogue defines them: their definitions, members and ids. List ids are opaque
 * and derived from the curated slug or from account and name, so they are stable across restarts,
 * re-imports and re-ingests. Managing them against the live index: service/list-admin.ts.
 */
import { ManufacturerRegistry } from './manufacturers.ts';
import { slugify } from './mpn.ts';
import { partId } from './normalise.ts';
import { opaqueId } from './ids.ts';

export interface ListMember {
  mpn: string;
  manufacturer: string;
}

export interface ListDefinition {
  name: string;
  kind: 'curated' | 'user';
  slug?: string | null;
  description?: string | null;
  account?: string | null;
  members: ListMember[];
}

export class ListError extends Error {
  override name = 'ListError';
}

/** Opaque, stable list handle: from the slug for curated lists, from account and name for user lists. */
export function listIdFor(l: Pick<ListDefinition, 'kind' | 'slug' | 'name' | 'account'>): string {
  return l.kind === 'curated' ? opaqueId('lst_', `curated:${l.slug ?? slugify(l.name)}`) : opaqueId('lst_', `user:${l.account ?? ''}:${slugify(l.name)}`);
}

/** The part id a member refers to (without creating manufacturers); `legacy`: in an index version of legacy ids (partId). */
export function memberPartId(registry: ManufacturerRegistry, m: ListMember, legacy = false): number {
  const slug = registry.lookup(m.manufacturer)?.slug ?? slugify(m.manufacturer);
  return partId(slug, m.mpn, legacy);
}

/** "MANUFACTURER/MPN" (the MPN may itself contain "/": the first "/" splits). */
export function parseMemberRef(ref: string): ListMember {
  const i = ref.indexOf('/');
  if (i <= 0 || i === ref.length - 1) throw new ListError(`"${ref}" is not MANUFACTURER/MPN`);
  return { manufacturer: ref.slice(0, i).trim(), mpn: ref.slice(i + 1).trim() };
}
