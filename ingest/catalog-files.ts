/**
 * Reading and validating the side files of a dump: manufacturers, categories and approved lists
 * (FORMAT.md). A file that cannot be read or does not match its schema stops the ingest with a
 * message naming the file and the first problems.
 */
import fs from 'node:fs';
import { categoriesFileSchema, listsFileSchema, manufacturersFileSchema } from '../src/catalog/dump-schema.ts';
import type { CategoryFileNode } from '../src/catalog/categories.ts';
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

export { listIdFor, memberPartId } from '../src/catalog/lists.ts';
