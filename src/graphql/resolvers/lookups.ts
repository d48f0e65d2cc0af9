/**
 * supParts (paid: one unit per part returned; one read for all ids) and the free lookups of the
 * catalogue snapshot: supCategories, supManufacturers, supAttributes, supSellers (no engine read).
 */
import type { GraphQLResolveInfo } from 'graphql/index.js';
import { validationError } from '../../errors.ts';
import { listArg } from '../args.ts';
import { attributeIndex } from '../attributes.ts';
import { capWarning, moneyFor, take, warn, type GraphQLContext } from '../context.ts';
import { CategoryNode, findCategory, manufacturerCompany, sellerCompany, snapshotIndex } from '../types/catalog.ts';
import { PartNode } from '../types/part.ts';

/** Most ids of one supParts. */
export const MAX_PART_IDS = 50;
/** Most names matched by `q` (supCategories, supManufacturers). */
const MATCH_LIMIT = 20;

export async function supParts(args: { ids: string[]; currency: string }, ctx: GraphQLContext, _info: GraphQLResolveInfo) {
  const ids = listArg('ids', args.ids, MAX_PART_IDS);
  const bad = ids.findIndex((id) => !/^[0-9]{1,16}$/.test(id));
  if (bad >= 0) throw validationError([{ loc: ['ids', bad], msg: 'must be a part id (digits)', type: 'value_error', input: ids[bad] }]);
  const byId = new Map((await ctx.s.parts.byIds(ids.map(Number))).map((p) => [String(p.id), p]));
  const found = ids.map((id) => byId.get(id) ?? null);
  const n = found.filter((p) => p !== null).length;
  let k = take(ctx, n);
  if (k < n) warn(ctx, `${capWarning('supParts', k, n)} The others are null.`);
  const money = moneyFor(ctx, args.currency);
  return found.map((p) => (p && k-- > 0 ? new PartNode(p, { ctx, money }) : null));
}

export function supCategories(args: { ids?: string[] | null; paths?: string[] | null; q?: string | null }, ctx: GraphQLContext) {
  const { view } = ctx;
  if (args.ids || args.paths) {
    const byId = listArg('ids', args.ids, 1000).map((id) => findCategory(view, id, 'id'));
    const byPath = listArg('paths', args.paths, 1000).map((p) => findCategory(view, p, 'path'));
    return [...byId, ...byPath].filter((c) => c !== null);
  }
  if (args.q?.trim()) {
    return view
      .categoryMatcher()
      .match(args.q, MATCH_LIMIT)
      .map((m) => findCategory(view, m.slug, 'path'))
      .filter((c) => c !== null);
  }
  return view.tree.flatten().map((c) => new CategoryNode(view, c));
}

export function supManufacturers(
  args: { ids?: string[] | null; slugs?: string[] | null; minNumberOfActiveParts?: number | null; q?: string | null },
  ctx: GraphQLContext,
) {
  const { view } = ctx;
  const byId = snapshotIndex(view).manufacturerById;
  let makers;
  if (args.ids || args.slugs) {
    makers = [...listArg('ids', args.ids, 1000).map((id) => byId.get(id)), ...listArg('slugs', args.slugs, 1000).map((s) => view.manufacturers.get(s))];
  } else if (args.q?.trim()) {
    makers = view
      .manufacturerMatcher()
      .match(args.q, MATCH_LIMIT)
      .map((m) => view.manufacturers.get(m.slug));
  } else makers = [...view.manufacturers.all()].sort((a, b) => a.name.localeCompare(b.name));
  const min = args.minNumberOfActiveParts ?? 0;
  return makers.filter((m) => m !== undefined && m.part_count >= min).map((m) => manufacturerCompany(view, m!));
}

export function supAttributes(_args: unknown, ctx: GraphQLContext) {
  return attributeIndex(ctx.view).all();
}

export function supSellers(args: { ids?: string[] | null; slugs?: string[] | null }, ctx: GraphQLContext) {
  const all = (ctx.view.meta.sellers ?? []).map((s) => sellerCompany(s.name));
  if (!args.ids && !args.slugs) return all;
  const ids = new Set(listArg('ids', args.ids, 1000));
  const slugs = new Set(listArg('slugs', args.slugs, 1000));
  return all.filter((c) => ids.has(c.id) || slugs.has(c.slug));
}
