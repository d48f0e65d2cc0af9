/**
 * The index definitions of index-mappings/ (parts.json, meta.json) turned into request bodies:
 * `_comment` keys stripped, the vector dimension injected (or the vector field dropped), and the
 * bulk-load settings laid over the serving ones.
 */
import fs from 'node:fs';
import { definitionHash } from './derive.ts';
import type { OpenSearchIndexLayout } from './options.ts';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../../util/project.ts';

const DIR = pathToFileURL(path.join(PROJECT_ROOT, 'index-mappings') + path.sep);

type Json = Record<string, unknown>;

export interface IndexBody {
  settings: { index: Json; analysis?: Json };
  mappings: { properties: Json } & Json;
}

function stripComments(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripComments);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Json)
        .filter(([k]) => k !== '_comment')
        .map(([k, x]) => [k, stripComments(x)]),
    );
  }
  return v;
}

const cache = new Map<string, IndexBody>();

function load(file: string): IndexBody {
  let body = cache.get(file);
  if (!body) {
    const raw = JSON.parse(fs.readFileSync(new URL(file, DIR), 'utf8')) as unknown;
    body = stripComments(raw) as IndexBody;
    cache.set(file, body);
  }
  // Callers mutate their copy.
  return structuredClone(body);
}

export const VECTOR_FIELD = 'embedding';
/** The stored record field of versions with vectors (paging.ts reads it). */
export const RECORD_FIELD = 'record_json';

/** Settings a load overrides at creation: no refreshes, no replicas. */
const LOAD_SETTINGS = { refresh_interval: '-1', number_of_replicas: 0, auto_expand_replicas: false };

/** Body creating a parts index version for a bulk load, with `layout.shards` primaries. */
export function partsIndexBody(embeddingDims: number | null, layout?: Pick<OpenSearchIndexLayout, 'shards'>): IndexBody {
  const body = load('parts.json');
  const props = body.mappings.properties;
  if (embeddingDims) {
    const vec = props[VECTOR_FIELD] as Json | undefined;
    if (!vec) throw new Error(`index-mappings/parts.json has no "${VECTOR_FIELD}" field`);
    vec.dimension = embeddingDims;
    body.settings.index.knn = true;
  } else {
    delete props[VECTOR_FIELD];
    delete body.settings.index.knn;
    // Lexical-only versions keep the record in _source (documents.ts).
    delete props[RECORD_FIELD];
    props.record = { type: 'object', enabled: false };
  }
  // The layout's shards are part of the definition: a version is cloned only from one with as many.
  if (layout) body.settings.index = { ...body.settings.index, number_of_shards: layout.shards };
  // The definition a version was built from, by hash: a version is derived only from one built alike (derive.ts).
  body.mappings._meta = { ...(body.mappings._meta as Json | undefined), definition: definitionHash(body) };
  body.settings.index = { ...body.settings.index, ...LOAD_SETTINGS };
  return body;
}

/** The settings a load overrides (no refreshes, no replicas), for a version cloned from the live one. */
export function partsLoadSettings(): Json {
  return { ...LOAD_SETTINGS };
}

/**
 * Settings put back on a loaded version before it goes live: the refresh interval of parts.json, and
 * `layout.replicas` (a number, or an auto-expand range), else parts.json's replicas.
 */
export function partsServingSettings(layout?: Pick<OpenSearchIndexLayout, 'replicas'>): Json {
  const s = load('parts.json').settings.index;
  const out: Json = { refresh_interval: s.refresh_interval ?? null };
  const replicas = layout?.replicas ?? (s.auto_expand_replicas ? String(s.auto_expand_replicas) : String(s.number_of_replicas ?? 1));
  if (/^\d+$/.test(replicas)) {
    out.auto_expand_replicas = false;
    out.number_of_replicas = Number(replicas);
  } else {
    out.auto_expand_replicas = replicas;
  }
  return out;
}

export function metaIndexBody(): IndexBody {
  return load('meta.json');
}
