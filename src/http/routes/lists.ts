/**
 * GET /v1/lists: the caller's own approved lists (most recently updated first), then the curated
 * lists. A caller never sees another account's user lists. Free, `parts:read`.
 */
import type { ApprovedListData } from '../../catalog/meta.ts';
import type { Account } from '../../accounts/port.ts';
import type { AuthState } from '../middleware/guard.ts';
import type { RouteSpec } from '../route.ts';
import { requestIdSchema } from '../schemas.ts';
import type { AppServices } from '../../service/app-services.ts';
import { approvedListSchema } from './catalog-schemas.ts';

export const NOTICE_NO_OWN_LISTS =
  'You have no approved lists of your own yet; the curated lists below can be used in list_filter. Lists are managed outside this API (partsearch lists create / import).';
export const NOTICE_NO_LISTS = 'No approved lists are available yet. Lists are managed outside this API (partsearch lists create / import).';

/** Whether a list belongs to an account (FORMAT.md names the owner by account name; ids work too). */
export const ownedBy = (l: ApprovedListData, a: Pick<Account, 'id' | 'name'>) => l.kind === 'user' && (l.account === a.id || l.account === a.name);

/** The lists a caller may see and filter by: its own, then curated. */
export function visibleLists(lists: readonly ApprovedListData[], a: Pick<Account, 'id' | 'name'>): ApprovedListData[] {
  const own = lists.filter((l) => ownedBy(l, a)).sort((x, y) => y.updated_at.localeCompare(x.updated_at) || x.name.localeCompare(y.name));
  const curated = lists.filter((l) => l.kind === 'curated').sort((x, y) => x.name.localeCompare(y.name));
  return [...own, ...curated];
}

export function presentList(l: ApprovedListData) {
  return l.kind === 'curated'
    ? { list_id: l.list_id, name: l.name, kind: l.kind, member_count: l.member_count, slug: l.slug, description: l.description, updated_at: l.updated_at }
    : { list_id: l.list_id, name: l.name, kind: l.kind, member_count: l.member_count, updated_at: l.updated_at };
}

export function listRoutes(s: AppServices): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/v1/lists',
      operationId: 'listApprovedLists',
      summary: 'Approved lists the caller can search within',
      tags: ['lists'],
      access: 'parts:read',
      responses: {
        200: {
          description: "The caller's own lists (most recently updated first), then curated lists.",
          schema: {
            type: 'object',
            required: ['lists', 'notice', 'request_id'],
            properties: { lists: { type: 'array', items: approvedListSchema }, notice: { type: ['string', 'null'] }, request_id: requestIdSchema },
          },
        },
      },
      handler: async (ctx) => {
        const { account } = ctx.state.auth as AuthState;
        const view = await s.catalog.get();
        const lists = visibleLists(view?.lists ?? [], account);
        const hasOwn = lists.some((l) => l.kind === 'user');
        return {
          lists: lists.map(presentList),
          notice: lists.length === 0 ? NOTICE_NO_LISTS : hasOwn ? null : NOTICE_NO_OWN_LISTS,
          request_id: ctx.state.requestId,
        };
      },
    },
  ];
}
