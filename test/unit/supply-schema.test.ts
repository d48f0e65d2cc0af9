/**
 * The Supply schema of /graphql against the public one (../shared/reference/nexar-supply.graphql): every
 * type and field this service declares under a public name has the public arguments, types, defaults and
 * nullability; and every collected client document (test/fixtures/supply-api-documents.json) is valid
 * against both, so the documents are the public API's and this schema accepts them as written. Skips the
 * comparison with a message when the reference is absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, isEnumType, isInputObjectType, isObjectType, isScalarType, parse, validate, type GraphQLSchema } from 'graphql/index.js';
import { describe, expect, it } from 'vitest';
import { graphqlSchema } from '../../src/graphql/schema.ts';
import { noteSkip, SHARED_CATALOG } from '../support/fixtures.ts';
import { SUPPLY_DOCUMENTS } from '../support/supply-documents.ts';

const REFERENCE = path.resolve(SHARED_CATALOG, '..', '..', 'reference', 'nexar-supply.graphql');
const present = fs.existsSync(REFERENCE);
if (!present) noteSkip('Supply schema against the public one', `no reference at ${REFERENCE}`);

/** Arguments (or input fields) as "name: Type = default" lines. */
const signature = (args: readonly { name: string; type: unknown; defaultValue?: unknown }[]) =>
  args.map((a) => `${a.name}: ${String(a.type)}${a.defaultValue === undefined ? '' : ` = ${JSON.stringify(a.defaultValue)}`}`);

describe('the Supply schema', () => {
  const { schema } = graphqlSchema();

  it('holds at least 15 documents of at least 6 public tools, each with its source', () => {
    expect(SUPPLY_DOCUMENTS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(SUPPLY_DOCUMENTS.map((d) => d.tool)).size).toBeGreaterThanOrEqual(6);
    for (const d of SUPPLY_DOCUMENTS)
      expect(d, d.id).toMatchObject({
        repository: expect.stringMatching(/^[\w.-]+\/[\w.-]+$/),
        path: expect.any(String),
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      });
  });

  it('accepts every collected document as written', () => {
    const invalid = SUPPLY_DOCUMENTS.flatMap((d) => validate(schema, parse(d.query)).map((e) => `${d.id}: ${e.message}`));
    expect(invalid).toEqual([]);
  });

  describe.skipIf(!present)('against the public schema', () => {
    const reference: GraphQLSchema = present ? buildSchema(fs.readFileSync(REFERENCE, 'utf8')) : schema;

    it('every collected document is valid against the public schema too (they are its clients)', () => {
      const invalid = SUPPLY_DOCUMENTS.flatMap((d) => validate(reference, parse(d.query)).map((e) => `${d.id}: ${e.message}`));
      expect(invalid).toEqual([]);
    });

    it('declares each public type and field it has with the public arguments, types, defaults and nullability', () => {
      const differences: string[] = [];
      for (const type of Object.values(schema.getTypeMap())) {
        if (type.name.startsWith('__')) continue;
        const ref = reference.getType(type.name);
        if (!ref) {
          if (!isScalarType(type)) differences.push(`${type.name}: not a public type`);
          continue;
        }
        if (isObjectType(type) && isObjectType(ref)) {
          const refFields = ref.getFields();
          for (const f of Object.values(type.getFields())) {
            const r = refFields[f.name];
            if (!r) continue; // an addition of this service (errorString, q)
            if (String(f.type) !== String(r.type)) differences.push(`${type.name}.${f.name}: ${String(f.type)}, public ${String(r.type)}`);
            const ours = new Set(signature(f.args));
            for (const a of signature(r.args)) if (!ours.has(a)) differences.push(`${type.name}.${f.name}(${a}): missing or different`);
          }
        } else if (isInputObjectType(type) && isInputObjectType(ref)) {
          const ours = signature(Object.values(type.getFields()));
          expect(ours, type.name).toEqual(signature(Object.values(ref.getFields())));
        } else if (isEnumType(type) && isEnumType(ref)) {
          expect(
            type.getValues().map((v) => v.name),
            type.name,
          ).toEqual(ref.getValues().map((v) => v.name));
        }
      }
      expect(differences).toEqual([]);
    });

    it('declares every field of the public SupPart, SupPartResultSet, SupPartMatch, SupCompany, SupCategory, SupSpec and SupOffer', () => {
      const missing: string[] = [];
      for (const name of [
        'SupPart',
        'SupPartResultSet',
        'SupPartResult',
        'SupPartMatch',
        'SupCompany',
        'SupCategory',
        'SupSpec',
        'SupAttribute',
        'SupPartSeller',
        'SupOffer',
        'SupPricePoint',
      ]) {
        const ours = schema.getType(name);
        const ref = reference.getType(name);
        if (!isObjectType(ours) || !isObjectType(ref)) throw new Error(`${name} is not an object type on both sides`);
        for (const f of Object.keys(ref.getFields())) if (!ours.getFields()[f]) missing.push(`${name}.${f}`);
      }
      expect(missing.sort()).toEqual([]);
    });
  });
});
