/**
 * Depth and cost of an operation, judged before execution so that a query too deep or too large is
 * refused with a clear error instead of being run (README "GraphQL"):
 *
 *   depth: fields nested in fields, fragments expanded; at most MAX_DEPTH.
 *   cost: an estimate of the values the answer holds, each search weighted SEARCH_COST: every field
 *     counts once per object it is selected on, and a list multiplies what is selected under it by
 *     its expected length: the arguments' (limit, ids, queries, size) where they say, the catalogue's
 *     (categories, manufacturers, attributes; a category's mean number of children) where it knows,
 *     else a typical length (LIST_SIZES). At most MAX_COST.
 *
 * Introspection (__schema, __type) is bounded by the schema and exempt: tools send deep ones.
 */
import {
  getArgumentValues,
  getVariableValues,
  getNamedType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
  getOperationAST,
} from 'graphql/index.js';
import type { CatalogView } from '../catalog/view.ts';
import { included } from './selection.ts';

export const MAX_DEPTH = 12;
export const MAX_COST = 1_000_000;
/** What one search of the engine counts for. */
export const SEARCH_COST = 100;

/** Typical lengths of lists whose arguments do not say. */
const LIST_SIZES: Readonly<Record<string, number>> = {
  'SupPart.sellers': 5,
  'SupPartSeller.offers': 3,
  'SupOffer.prices': 10,
  'SupPart.specs': 30,
  'SupPart.similarParts': 5,
  'SupPart.descriptions': 2,
  'SupPart.images': 5,
  'SupPart.documentCollections': 3,
  'SupDocumentCollection.documents': 5,
  'SupPart.akaMpns': 3,
  'SupPartResultSet.specsViewAttributeGroups': 5,
  'SupAttributeGroup.attributes': 30,
  'SupPartResultSet.suggestedCategories': 5,
  'SupPartResultSet.suggestedFilters': 10,
  'SupPartResultSet.allFilters': 100,
  'SupPartResultSet.appliedFilters': 5,
  'SupPartResultSet.inStockAgg': 2,
  'SupSpecAgg.buckets': 10,
};
/** Lists the catalogue never fills (CAD, companions, reference designs, countries). */
const EMPTY_LISTS = new Set([
  'SupPart.companionProducts',
  'SupPart.referenceDesigns',
  'SupPartResultSet.cadAgg',
  'SupPartResultSet.cadLevelAgg',
  'SupPartSeller.shipsToCountries',
  'SupCategory.relevantAttributes',
]);
const DEFAULT_LIST = 10;

export interface OperationCost {
  depth: number;
  cost: number;
}

/** Arguments that size lists (listOf): where one comes from a variable, the cost depends on the variables. */
const SIZING_ARGUMENTS = new Set(['limit', 'ids', 'paths', 'slugs', 'queries', 'size', 'attributeNames', 'attributeSelection', 'priceBreaks']);
/** Fields whose `q` sizes their list (a name match answers at most 20; none, the whole registry). */
const SIZED_BY_Q = new Set(['supCategories', 'supManufacturers']);

/** Whether a value in a document holds a variable. */
const holdsVariable = (v: ValueNode): boolean =>
  v.kind === Kind.VARIABLE ||
  (v.kind === Kind.LIST && v.values.some(holdsVariable)) ||
  (v.kind === Kind.OBJECT && v.fields.some((f) => holdsVariable(f.value)));

/** Costs of operations whose cost their variables cannot change, by document and operation name (sized by the catalogue as it was when first judged). */
const fixedCosts = new WeakMap<DocumentNode, Map<string, OperationCost>>();

type Args = Record<string, unknown>;
const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
const num = (v: unknown, dflt: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : dflt);

/**
 * Expected length of a list field, and the searches it runs per object it is selected on. `parent` carries
 * the arguments of the enclosing root field (a result set's `limit`, a match's queries).
 */
function listOf(key: string, args: Args, parent: Args, view: CatalogView | null): { size: number; searches: number } {
  switch (key) {
    case 'SupPartResultSet.results':
      return { size: num(parent.limit, 10), searches: 0 };
    case 'SupPartMatch.parts':
      return { size: Math.max(3, ...((parent.queries as { limit?: number }[] | undefined) ?? []).map((q) => num(q?.limit, 3))), searches: 0 };
    case 'Query.supMultiMatch':
      return { size: count(args.queries), searches: count(args.queries) };
    case 'Query.supParts':
      return { size: count(args.ids), searches: 1 };
    case 'Query.supCategories':
      return { size: args.ids || args.paths ? count(args.ids) + count(args.paths) : args.q ? 20 : (view?.tree.size() ?? 1000), searches: 0 };
    case 'Query.supManufacturers':
      return { size: args.ids || args.slugs ? count(args.ids) + count(args.slugs) : args.q ? 20 : (view?.manufacturers.all().length ?? 1000), searches: 0 };
    case 'Query.supAttributes':
      return { size: view?.specUnits.size ?? 1000, searches: 0 };
    case 'Query.supSellers':
      return { size: args.ids || args.slugs ? count(args.ids) + count(args.slugs) : (view?.meta.sellers?.length ?? 100), searches: 0 };
    case 'SupCategory.children': {
      const n = view?.tree.size() ?? 1;
      return { size: Math.max(1, Math.ceil((n - (view?.tree.roots().length ?? 0)) / n)), searches: 0 };
    }
    case 'SupCategory.ancestors':
      return { size: 5, searches: 0 };
    case 'SupPartResultSet.specAggs':
      return {
        size: count(args.attributeNames) + (args.attributeSelection === 'ALL' ? 50 : args.attributeSelection === 'WITH_SUGGESTED' ? 10 : 0),
        searches: 1,
      };
    case 'SupPartResultSet.manufacturerAgg':
    case 'SupPartResultSet.categoryAgg':
    case 'SupPartResultSet.distributorAgg':
      return { size: num(args.size, 10), searches: 1 };
    case 'SupSpecAgg.buckets':
      return { size: num(parent.size, 10), searches: 0 };
    case 'SupOffer.prices':
      return { size: count(parent.priceBreaks) || LIST_SIZES[key]!, searches: 0 };
    case 'SupPart.sellers':
      return { size: num(args.limit, LIST_SIZES[key]!), searches: 0 };
    case 'SupPart.similarParts':
      return { size: LIST_SIZES[key]!, searches: 1 };
    default:
      return { size: EMPTY_LISTS.has(key) ? 0 : (LIST_SIZES[key] ?? DEFAULT_LIST), searches: 0 };
  }
}

/** Fields that run one search per object they are selected on. */
const SEARCH_FIELDS = new Set(['Query.supSearch', 'Query.supSearchMpn', 'SupPart.counts']);

/** The depth and cost of the operation (see the module comment); fragments expanded where spread. */
export function operationCost(
  schema: GraphQLSchema,
  doc: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
  view: CatalogView | null,
): OperationCost {
  const fixed = fixedCosts.get(doc)?.get(operationName ?? '');
  if (fixed) return fixed;
  const op = getOperationAST(doc, operationName);
  const fragments = new Map<string, FragmentDefinitionNode>();
  let variable = false;
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  // The variables as execution will read them (a single value given for a list is a list of one), so
  // that the estimate reads the arguments' shapes as declared; variables that do not coerce fail at
  // execution with their own errors, and the estimate goes by the defaults meanwhile.
  const coerced = op ? getVariableValues(schema, op.variableDefinitions ?? [], (variables ?? {}) as Record<string, unknown>) : undefined;
  const vars = (coerced && 'coerced' in coerced ? coerced.coerced : {}) as Record<string, unknown>;
  let depth = 0;
  // Per object selected: its cost; `parent` carries the arguments that size lists below (see listOf).
  const walk = (set: SelectionSetNode, type: GraphQLObjectType, level: number, parent: Args, spreading: Set<string>): number => {
    let cost = 0;
    for (const sel of set.selections) {
      // @skip and @include on a variable make the selection, hence the cost, the variables' too.
      variable ||= (sel.directives ?? []).some((d) => (d.arguments ?? []).some((a) => holdsVariable(a.value)));
      if (!included(sel, vars)) continue;
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
        if (isObjectType(t)) cost += walk(sel.selectionSet, t, level, parent, spreading);
        continue;
      }
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments.get(sel.name.value);
        const t = f && schema.getType(f.typeCondition.name.value);
        // A cycle is a validation error already; this only keeps the walk finite.
        if (f && isObjectType(t) && !spreading.has(f.name.value)) cost += walk(f.selectionSet, t, level, parent, new Set([...spreading, f.name.value]));
        continue;
      }
      const name = sel.name.value;
      if (name.startsWith('__')) continue; // introspection and __typename
      depth = Math.max(depth, level);
      const def = type.getFields()[name] as GraphQLField<unknown, unknown> | undefined;
      if (!def) continue;
      variable ||= (sel.arguments ?? []).some(
        (a) => (SIZING_ARGUMENTS.has(a.name.value) || (a.name.value === 'q' && SIZED_BY_Q.has(name))) && holdsVariable(a.value),
      );
      let args: Args = {};
      try {
        args = getArgumentValues(def, sel, vars);
      } catch {
        // Bad arguments fail at execution with their own error; size the field by the defaults meanwhile.
      }
      const key = `${type.name}.${name}`;
      const child = getNamedType(def.type);
      const list = /\[/.test(String(def.type)) || key.startsWith('Query.') ? listOf(key, args, parent, view) : { size: 1, searches: 0 };
      const size = key.startsWith('Query.') && !/\[/.test(String(def.type)) ? 1 : list.size;
      const searches = SEARCH_FIELDS.has(key) ? 1 : list.searches;
      const scope = key.startsWith('Query.')
        ? args
        : {
            ...parent,
            ...(key === 'SupPartSeller.offers' ? { priceBreaks: args.priceBreaks } : {}),
            ...(key === 'SupPartResultSet.specAggs' ? { size: args.size } : {}),
          };
      const below = sel.selectionSet && isObjectType(child) ? walk(sel.selectionSet, child, level + 1, scope, spreading) : 0;
      cost += 1 + size * below + searches * SEARCH_COST;
    }
    return cost;
  };
  const root = schema.getQueryType();
  if (!op || !root) return { depth: 0, cost: 0 };
  const cost = walk(op.selectionSet, root, 1, {}, new Set());
  const out = { depth, cost };
  if (!variable) {
    let byName = fixedCosts.get(doc);
    if (!byName) fixedCosts.set(doc, (byName = new Map()));
    byName.set(operationName ?? '', out);
  }
  return out;
}
