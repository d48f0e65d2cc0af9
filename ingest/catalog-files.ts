/**
 * Reading and validating the side files of a dump: manufacturers, categories and approved lists
 * (FORMAT.md). A file that cannot be read or does not match its schema stops the ingest with a
 * message naming the file and the first problems.
 */
import fs from 'node:fs';
import { categoriesFileSchema, listsFileSchema, manufacturersFileSchema } from '../src/catalog/dump-schema.ts';
import type { CategoryFileNode } from '../src/catalog/categories.ts';
import { opaqueId } from '../src/catalog/ids.ts';
import type { ManufacturerRegistry } from '../src/catalog/manufacturers.ts';
import { normaliseMpn, slugify } from '../src/catalog/mpn.ts';
import { partId } from '../src/catalog/normalise.ts';
import { ajv, describeErrors } from '../src/validation.ts';

export class IngestInputError extends Error {
  override name = 'IngestInputError';
}

export interface ManufacturersFileEntry {
  name: string;
  aliases?: string[];
  logo?: string | null;
}

export interface ListsFileEntry {
  name: string;
  kind: 'curated' | 'user';
  slug?: string | null;
  description?: string | null;
  account?: string | null;
  members: { mpn: string; manufacturer: string }[];
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new IngestInputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new IngestInputError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
}

function readValidated<T>(file: string, schema: object): T {
  const data = readJson(file);
  const validate = ajv.getSchema((schema as { $id: string }).$id) ?? ajv.compile(schema);
  if (!validate(data)) {
    throw new IngestInputError(`${file} does not match its format (FORMAT.md): ${describeErrors(validate.errors).slice(0, 5).join('; ')}`);
  }
  return data as T;
}

export const readManufacturersFile = (file: string) => readValidated<ManufacturersFileEntry[]>(file, manufacturersFileSchema);
export const readCategoriesFile = (file: string) => readValidated<CategoryFileNode[]>(file, categoriesFileSchema);
export const readListsFile = (file: string) => readValidated<ListsFileEntry[]>(file, listsFileSchema);

/** Opaque, stable list handle: from the slug for curated lists, from account and name for user lists. */
export function listIdFor(l: Pick<ListsFileEntry, 'kind' | 'slug' | 'name' | 'account'>): string {
  return l.kind === 'curated'
    ? opaqueId('lst_', `curated:${l.slug ?? slugify(l.name)}`)
    : opaqueId('lst_', `user:${l.account ?? ''}:${slugify(l.name)}`);
}

/** The part id a list member refers to (without creating manufacturers). */
export function memberPartId(registry: ManufacturerRegistry, m: { mpn: string; manufacturer: string }): number {
  const slug = registry.lookup(m.manufacturer)?.slug ?? slugify(m.manufacturer);
  return partId(slug, normaliseMpn(m.mpn));
}
