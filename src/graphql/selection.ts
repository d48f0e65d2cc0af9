/**
 * What a GraphQL operation selects, read from its document: the size limits checked before execution
 * (operationShape) and whether a resolver's parts are asked for at all (selectsPath). Both honour
 * @skip and @include, as execution does, and expand fragments wherever they are spread.
 */
import {
  getDirectiveValues,
  getOperationAST,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type InlineFragmentNode,
  type SelectionSetNode,
} from 'graphql/index.js';

type Variables = Readonly<Record<string, unknown>> | null | undefined;

/** Whether execution includes a selection: no @skip(if: true), no @include(if: false). */
export function included(node: FieldNode | FragmentSpreadNode | InlineFragmentNode, variables: Variables): boolean {
  const vars = (variables ?? {}) as Record<string, unknown>;
  if (getDirectiveValues(GraphQLSkipDirective, node, vars)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, vars)?.if !== false;
}

export interface OperationShape {
  /** Root field names selected (an alias counts once each). */
  roots: string[];
  /** Selections with fragments expanded wherever they are spread. */
  fields: number;
  /** Root fields and aggregation fields (each may run a search). */
  expensive: number;
}

/** Fields of a result set computed by the engine over the whole set. */
const AGGREGATIONS = new Set(['specAggs', 'manufacturerAgg', 'categoryAgg', 'inStockAgg', 'suggestedCategories', 'suggestedFilters', 'allFilters']);

/**
 * The shape of the operation `operationName` selects (see OperationShape). Each fragment's totals are
 * computed once and added per spread, so fragments spread inside each other cost a walk of each
 * fragment, not of the expansion (which grows exponentially with nesting); totals only grow, and
 * callers compare them with their limits.
 */
export function operationShape(doc: DocumentNode, operationName: string | null | undefined, variables: Variables): OperationShape {
  const op = getOperationAST(doc, operationName);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  // Per fragment and level (root or nested): its totals. A fragment being walked counts 0 when spread
  // within itself (validation has refused cycles already; this only keeps the walk finite).
  const memo = new Map<string, OperationShape>();
  const walk = (set: SelectionSetNode, root: boolean): OperationShape => {
    const out: OperationShape = { roots: [], fields: 0, expensive: 0 };
    const add = (s: OperationShape) => {
      out.fields += s.fields;
      out.expensive += s.expensive;
      if (root) out.roots.push(...s.roots);
    };
    for (const sel of set.selections) {
      if (!included(sel, variables)) continue;
      out.fields++;
      if (sel.kind === Kind.FIELD) {
        if (root && sel.name.value !== '__typename') out.roots.push(sel.name.value);
        if ((root && sel.name.value !== '__typename') || AGGREGATIONS.has(sel.name.value)) out.expensive++;
        if (sel.selectionSet) add(walk(sel.selectionSet, false));
      } else if (sel.kind === Kind.INLINE_FRAGMENT) add(walk(sel.selectionSet, root));
      else {
        const key = `${sel.name.value}|${root}`;
        let s = memo.get(key);
        if (!s) {
          memo.set(key, { roots: [], fields: 0, expensive: 0 });
          const f = fragments.get(sel.name.value);
          s = f ? walk(f.selectionSet, root) : { roots: [], fields: 0, expensive: 0 };
          memo.set(key, s);
        }
        add(s);
      }
    }
    return out;
  };
  return op ? walk(op.selectionSet, true) : { roots: [], fields: 0, expensive: 0 };
}

/**
 * Whether the selection sets of `fields` select the path of field names (`['results', 'part']`: results,
 * and part within them), through fragments, as execution would include them.
 */
export function selectsPath(
  fields: readonly FieldNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: Variables,
  path: readonly string[],
): boolean {
  if (path.length === 0) return true;
  const [name, ...rest] = path as [string, ...string[]];
  const matches: FieldNode[] = [];
  const seen = new Set<string>();
  const collect = (set: SelectionSetNode | undefined) => {
    for (const sel of set?.selections ?? []) {
      if (!included(sel, variables)) continue;
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value === name) matches.push(sel);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) collect(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        collect(fragments[sel.name.value]?.selectionSet);
      }
    }
  };
  for (const f of fields) collect(f.selectionSet);
  return matches.length > 0 && selectsPath(matches, fragments, variables, rest);
}
