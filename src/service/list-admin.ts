/**
 * Approved-list management outside the API (the `partsearch lists` command): import a lists file,
 * create a user list, add or remove members. Engine-neutral: memberships are resolved against the
 * live index version and written through the engine port; the lists themselves live in the
 * catalogue snapshot (catalog/lists.ts: definitions and ids).
 */
import { ManufacturerRegistry } from '../catalog/manufacturers.ts';
import type { ApprovedListData, CatalogMeta } from '../catalog/meta.ts';
import { slugify } from '../catalog/mpn.ts';
import { legacyIds } from '../catalog/normalise.ts';
import { listIdFor, ListError, memberPartId, parseMemberRef, type ListDefinition, type ListMember } from '../catalog/lists.ts';
import type { CatalogWriter, SearchReader } from '../engines/port.ts';

/** Where lists are kept: the live snapshot and list memberships, and the parts a member names. */
export type ListStore = CatalogWriter & Pick<SearchReader, 'getParts'>;

async function liveMeta(engine: ListStore): Promise<CatalogMeta> {
  const meta = await engine.meta();
  if (!meta) throw new ListError('no catalogue is loaded: ingest parts before managing lists');
  return meta;
}

/** Resolves members against the live parts: matched ids and the members that match no part. */
async function resolveMembers(engine: ListStore, registry: ManufacturerRegistry, members: readonly ListMember[], legacy: boolean) {
  const ids = members.map((m) => memberPartId(registry, m, legacy));
  const present = new Set((await engine.getParts([...new Set(ids)])).map((p) => p.id));
  const matched: number[] = [];
  const unmatched: ListMember[] = [];
  members.forEach((m, i) => (present.has(ids[i]!) ? matched.push(ids[i]!) : unmatched.push(m)));
  return { matched: [...new Set(matched)], unmatched };
}

async function save(engine: ListStore, meta: CatalogMeta, lists: ApprovedListData[], changed: ApprovedListData[]): Promise<void> {
  for (const l of changed) await engine.setListMembership(l.list_id, l.member_ids);
  await engine.saveMeta({ ...meta, lists });
}

export interface ImportReport {
  lists: { list_id: string; name: string; kind: string; member_count: number; unmatched: ListMember[] }[];
}

/** Imports a lists file: each list replaces the list with the same id; other lists are kept. */
export async function importLists(engine: ListStore, defs: readonly ListDefinition[]): Promise<ImportReport> {
  const meta = await liveMeta(engine);
  const registry = ManufacturerRegistry.from(meta.manufacturers);
  const now = new Date().toISOString();
  const changed: ApprovedListData[] = [];
  for (const d of defs) {
    if (d.kind === 'user' && !d.account) throw new ListError(`user list "${d.name}" needs an account`);
    const { matched, unmatched } = await resolveMembers(engine, registry, d.members, legacyIds(meta.features));
    changed.push({
      list_id: listIdFor(d),
      name: d.name,
      kind: d.kind,
      slug: d.kind === 'curated' ? (d.slug ?? slugify(d.name)) : null,
      description: d.description ?? null,
      account: d.kind === 'user' ? (d.account ?? null) : null,
      member_ids: matched,
      member_count: matched.length,
      unmatched,
      updated_at: now,
    });
  }
  const ids = new Set(changed.map((l) => l.list_id));
  await save(engine, meta, [...meta.lists.filter((l) => !ids.has(l.list_id)), ...changed], changed);
  return { lists: changed.map((l) => ({ list_id: l.list_id, name: l.name, kind: l.kind, member_count: l.member_count, unmatched: l.unmatched })) };
}

export async function createUserList(engine: ListStore, account: string, name: string): Promise<ApprovedListData> {
  const meta = await liveMeta(engine);
  const list_id = listIdFor({ kind: 'user', name, account });
  if (meta.lists.some((l) => l.list_id === list_id)) throw new ListError(`account "${account}" already has a list named "${name}" (${list_id})`);
  const list: ApprovedListData = {
    list_id,
    name,
    kind: 'user',
    slug: null,
    description: null,
    account,
    member_ids: [],
    member_count: 0,
    unmatched: [],
    updated_at: new Date().toISOString(),
  };
  await save(engine, meta, [...meta.lists, list], [list]);
  return list;
}

/** Adds or removes one member; refuses a part that does not exist (so nothing is silently ignored). */
export async function editMembers(engine: ListStore, listId: string, op: 'add' | 'remove', ref: string): Promise<ApprovedListData> {
  const meta = await liveMeta(engine);
  const list = meta.lists.find((l) => l.list_id === listId);
  if (!list) throw new ListError(`no list "${listId}"`);
  const member = parseMemberRef(ref);
  const registry = ManufacturerRegistry.from(meta.manufacturers);
  const legacy = legacyIds(meta.features);
  const id = memberPartId(registry, member, legacy);
  let ids = list.member_ids;
  if (op === 'add') {
    const { matched } = await resolveMembers(engine, registry, [member], legacy);
    if (matched.length === 0) throw new ListError(`${ref} matches no part in the catalogue`);
    ids = [...new Set([...ids, id])];
  } else {
    if (!ids.includes(id)) throw new ListError(`${ref} is not a member of ${listId}`);
    ids = ids.filter((x) => x !== id);
  }
  const updated: ApprovedListData = { ...list, member_ids: ids, member_count: ids.length, updated_at: new Date().toISOString() };
  await save(
    engine,
    meta,
    meta.lists.map((l) => (l.list_id === listId ? updated : l)),
    [updated],
  );
  return updated;
}
