/**
 * The approved lists a caller may see and filter by (REST GET /v1/lists, the PartFilters list_filter of
 * every search): its own user lists (most recently updated first), then the curated lists. A caller
 * never sees another account's user lists.
 */
import type { Account } from '../accounts/port.ts';
import type { ApprovedListData } from '../catalog/meta.ts';
import type { CatalogDeps } from './deps.ts';

/** Who sees lists: an account, by id and by name (FORMAT.md names a user list's owner by account name). */
export type ListViewer = Pick<Account, 'id' | 'name'>;

export const NOTICE_NO_OWN_LISTS =
  'You have no approved lists of your own yet; the curated lists below can be used in list_filter. Lists are managed outside this API (partsearch lists create / import).';
export const NOTICE_NO_LISTS = 'No approved lists are available yet. Lists are managed outside this API (partsearch lists create / import).';

/** Whether a list belongs to an account (FORMAT.md names the owner by account name; ids work too). */
export const ownedBy = (l: ApprovedListData, a: ListViewer) => l.kind === 'user' && (l.account === a.id || l.account === a.name);

/** The lists a caller may see and filter by: its own, then curated. */
export function visibleLists(lists: readonly ApprovedListData[], a: ListViewer): ApprovedListData[] {
  const own = lists.filter((l) => ownedBy(l, a)).sort((x, y) => y.updated_at.localeCompare(x.updated_at) || x.name.localeCompare(y.name));
  const curated = lists.filter((l) => l.kind === 'curated').sort((x, y) => x.name.localeCompare(y.name));
  return [...own, ...curated];
}

export function presentList(l: ApprovedListData) {
  return l.kind === 'curated'
    ? { list_id: l.list_id, name: l.name, kind: l.kind, member_count: l.member_count, slug: l.slug, description: l.description, updated_at: l.updated_at }
    : { list_id: l.list_id, name: l.name, kind: l.kind, member_count: l.member_count, updated_at: l.updated_at };
}

/** GET /v1/lists: the lists the caller sees, and a notice when it has none of its own, or none at all. */
export async function listsFor(deps: CatalogDeps, viewer: ListViewer) {
  const view = await deps.catalog.get();
  const lists = visibleLists(view?.lists ?? [], viewer);
  const hasOwn = lists.some((l) => l.kind === 'user');
  return { lists: lists.map(presentList), notice: lists.length === 0 ? NOTICE_NO_LISTS : hasOwn ? null : NOTICE_NO_OWN_LISTS };
}
