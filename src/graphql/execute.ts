/**
 * Execution of the Supply schema's operations: compiled once per document and operation by graphql-jit
 * (a document's resolution as straight-line code instead of graphql-js walking it field by field: the
 * answers are the same, built several times faster), kept with the document (documents are kept by
 * src/http/routes/graphql.ts's cache). An operation graphql-jit cannot compile runs on graphql-js's `execute`. Variables are
 * coerced by graphql-js first (graphql-jit would leave out the defaults of input object fields).
 *
 * Below the root, a field without arguments is a property (or getter) of its source object, read as it
 * is; a field with arguments is a method, called with them, the context and the info (graphql-js's
 * default resolution of a function): `withSourceResolvers` gives those fields, the root's, and the fields
 * whose getters answer a promise that resolution explicitly, since compiled code reads properties, waits
 * only for resolvers, and calls nothing else.
 */
import {
  execute as graphqlExecute,
  getOperationAST,
  getVariableValues,
  isObjectType,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql/index.js';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

type Source = Record<string, unknown>;

/** A field of the source object: its value, or the answer of its method. */
const sourceField: GraphQLFieldResolver<Source, unknown> = (source, args, context, info) => {
  const v = source[info.fieldName];
  return typeof v === 'function' ? (v as (a: unknown, c: unknown, i: unknown) => unknown).call(source, args, context, info) : v;
};

/**
 * Gives the root's fields, every field with arguments and the `promised` fields ("Type.field": getters
 * answering a promise, which compiled code would not wait for) the resolution through the source object
 * explicitly (introspection aside).
 */
export function withSourceResolvers(schema: GraphQLSchema, promised: ReadonlySet<string>): GraphQLSchema {
  const root = schema.getQueryType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (type === root || field.args.length || promised.has(`${type.name}.${field.name}`))
        field.resolve ??= sourceField as GraphQLFieldResolver<unknown, unknown>;
    }
  }
  return schema;
}

const compiled = new WeakMap<object, Map<string, CompiledQuery | null>>();

/** graphql-http's `execute`: the compiled operation when graphql-jit compiles it, else graphql-js's. */
export function execute(args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  let byOperation = compiled.get(args.document);
  if (!byOperation) compiled.set(args.document, (byOperation = new Map()));
  const name = args.operationName ?? '';
  let q = byOperation.get(name);
  if (q === undefined) {
    const c = compileQuery(args.schema, args.document, args.operationName ?? undefined);
    q = isCompiledQuery(c) ? c : null;
    byOperation.set(name, q);
  }
  if (q === null) return graphqlExecute(args);
  // Variables as graphql-js coerces them: graphql-jit leaves out the defaults of input object fields
  // (SupPartMatchQuery's start and limit), which the clients rely on.
  const op = getOperationAST(args.document, args.operationName);
  const vars = getVariableValues(args.schema, op?.variableDefinitions ?? [], (args.variableValues ?? {}) as Record<string, unknown>);
  if (vars.errors) return { errors: vars.errors };
  return q.query(args.rootValue, args.contextValue, vars.coerced);
}
