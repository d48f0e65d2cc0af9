/**
 * Reads a vocabulary data file (vocabulary/<name>.json at the project's root) and checks it against its
 * JSON Schema (vocabulary/schema/<name>.schema.json) before anything uses it: a malformed file stops the
 * process at start-up with the file, the field and the reason, never a wrong answer later.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ajv, describeErrors } from '../validation.ts';
import { PROJECT_ROOT } from '../util/project.ts';

/** The folder that holds the vocabulary data files and their schemas. */
export const VOCABULARY_DIR = path.join(PROJECT_ROOT, 'vocabulary');

/** A vocabulary file that is not valid JSON, fails its schema or breaks one of its own rules. */
export class VocabularyError extends Error {
  constructor(file: string, problems: readonly string[]) {
    super(`vocabulary/${file}: ${problems.slice(0, 10).join('; ')}${problems.length > 10 ? ` (and ${problems.length - 10} more)` : ''}`);
    this.name = 'VocabularyError';
  }
}

function readJson(file: string): unknown {
  const full = path.join(VOCABULARY_DIR, file);
  try {
    return JSON.parse(fs.readFileSync(full, 'utf8'));
  } catch (e) {
    throw new VocabularyError(file, [(e as Error).message]);
  }
}

/** The schema-checked contents of vocabulary/<name>.json. */
export function loadVocabularyFile<T>(name: string): T {
  const schema = readJson(path.join('schema', `${name}.schema.json`)) as { $id?: string };
  const data = readJson(`${name}.json`);
  const validate = (schema.$id !== undefined ? ajv.getSchema(schema.$id) : undefined) ?? ajv.compile(schema);
  if (!validate(data)) throw new VocabularyError(`${name}.json`, describeErrors(validate.errors));
  return data as T;
}
