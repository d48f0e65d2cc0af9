/**
 * Deterministic generator of a realistic sample electronic-components catalogue in the dump format
 * (see FORMAT.md of the catalogue dumps), so the quick start, demos and tests need no external data.
 *
 * Families (src/sample/families) enumerate real part-numbering schemes; a seeded PRNG decides which
 * candidates are used and all per-part facts that vary (status, stock, prices...). Same seed and size,
 * same bytes. The families hold about 8,000 distinct candidates; larger requests are capped there.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FAMILIES } from './families/index.ts';
import type { Candidate, Family } from './model.ts';
import { IMAGE_HOST, buildPart, type SamplePart } from './record.ts';
import { assignLibrariesAndLists, type SampleList } from './lists.ts';
import { Rng } from './rng.ts';
import { CATEGORY_TREE, MANUFACTURERS, categoryPaths } from './tables.ts';

/** A category of the dump's categories file, with its children. */
export interface SampleCategory {
  name: string;
  description?: string;
  children?: SampleCategory[];
}

export interface SampleCatalogue {
  parts: object[]; // dump-format part records
  manufacturers: { name: string; aliases: string[]; logo?: string }[];
  categories: SampleCategory[];
  lists: {
    name: string;
    kind: 'curated' | 'user';
    slug?: string;
    description?: string;
    account?: string;
    members: { mpn: string; manufacturer: string }[];
  }[];
}

export interface SampleOptions {
  seed?: number;
  parts?: number;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_PARTS = 2500;

/**
 * Splits `total` over families by weight (largest remainder). Active families are capped at their
 * candidate count; what they cannot fill goes to the passive families, as in real catalogues.
 */
export function allocate(families: readonly Family[], poolSizes: readonly number[], total: number): number[] {
  const weightSum = families.reduce((s, f) => s + f.weight, 0);
  const exact = families.map((f) => (total * f.weight) / weightSum);
  const quotas = exact.map(Math.floor);
  let left = total - quotas.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder) if (left-- > 0) quotas[i]!++;

  let excess = 0;
  quotas.forEach((qt, i) => {
    if (qt > poolSizes[i]!) {
      excess += qt - poolSizes[i]!;
      quotas[i] = poolSizes[i]!;
    }
  });
  // Hand the excess to families with room left: passives first, then anything else.
  for (const passiveOnly of [true, false]) {
    while (excess > 0) {
      const open = families.map((_, i) => i).filter((i) => quotas[i]! < poolSizes[i]! && (!passiveOnly || families[i]!.passive));
      if (open.length === 0) break;
      const w = open.reduce((s, i) => s + families[i]!.weight, 0);
      let given = 0;
      for (const i of open) {
        const share = Math.min(poolSizes[i]! - quotas[i]!, Math.max(1, Math.floor((excess * families[i]!.weight) / w)), excess - given);
        quotas[i]! += share;
        given += share;
      }
      excess -= given;
      if (given === 0) break;
    }
  }
  return quotas;
}

const POOLS = new Map<Family, readonly Candidate[]>();

/** Candidate lists are pure functions of the tables, so they are built once per process. */
function candidatesOf(family: Family): readonly Candidate[] {
  let pool = POOLS.get(family);
  if (!pool) POOLS.set(family, (pool = family.candidates()));
  return pool;
}

/** Pinned candidates first, then a popularity-weighted sample; returned in the family's own order. */
function select(pool: readonly Candidate[], quota: number, rng: Rng): Candidate[] {
  const pinned = pool.map((_, i) => i).filter((i) => pool[i]!.pinned);
  const chosen = new Set(pinned.slice(0, quota));
  const rest = pool.map((_, i) => i).filter((i) => !chosen.has(i));
  const picked = rng.sampleIndexes(
    rest.map((i) => pool[i]!.weight ?? 1),
    quota - chosen.size,
  );
  for (const j of picked) chosen.add(rest[j]!);
  return [...chosen].sort((a, b) => a - b).map((i) => pool[i]!);
}

export function generateSampleCatalogue(opts: SampleOptions = {}): SampleCatalogue {
  const seed = opts.seed ?? DEFAULT_SEED;
  const total = Math.max(0, Math.floor(opts.parts ?? DEFAULT_PARTS));
  const root = new Rng(seed);
  const known = categoryPaths();

  const pools = FAMILIES.map(candidatesOf);
  const quotas = allocate(
    FAMILIES,
    pools.map((p) => p.length),
    total,
  );

  const parts: SamplePart[] = [];
  const identities = new Set<string>();
  // Library weights: a family's share of Basic/Preferred slots follows its size; within the family,
  // popular candidates (common values, pinned parts) are favoured.
  const basicWeight: number[] = [];
  const preferredWeight: number[] = [];
  FAMILIES.forEach((family, fi) => {
    for (const path of [family.category, ...(family.altCategory ? [family.altCategory.path] : [])]) {
      if (!known.has(path.join(' > '))) throw new Error(`sample: family ${family.id} uses unknown category ${path.join(' > ')}`);
    }
    const chosen = select(pools[fi]!, quotas[fi]!, root.fork(`select:${family.id}`));
    const rng = root.fork(`parts:${family.id}`);
    const score = chosen.map((c) => (c.weight ?? 1) * (c.pinned ? 2 : 1));
    const sum1 = score.reduce((a, b) => a + b, 0);
    const sum2 = score.reduce((a, b) => a + b * b, 0);
    chosen.forEach((c, k) => {
      const identity = `${c.manufacturer}\u0000${c.mpn}`;
      if (identities.has(identity)) throw new Error(`sample: duplicate part ${c.manufacturer} ${c.mpn}`);
      identities.add(identity);
      const category = family.altCategory && rng.chance(family.altCategory.share) ? family.altCategory.path : family.category;
      parts.push(buildPart(c, [...category], parts.length, rng, family.passive));
      basicWeight.push((score[k]! ** 2 / sum2) * chosen.length);
      preferredWeight.push((score[k]! / sum1) * chosen.length);
    });
  });

  const lists: SampleList[] = assignLibrariesAndLists(parts, { basic: basicWeight, preferred: preferredWeight }, root.fork('lists'));

  return {
    parts,
    manufacturers: MANUFACTURERS.map((m) => ({
      name: m.name,
      aliases: [...m.aliases],
      ...(m.logo ? { logo: `${IMAGE_HOST}/logos/${m.slug}.png` } : {}),
    })),
    categories: JSON.parse(JSON.stringify(CATEGORY_TREE)),
    lists,
  };
}

export async function writeSampleCatalogue(
  dir: string,
  opts: SampleOptions = {},
): Promise<{ partsFile: string; manufacturersFile: string; categoriesFile: string; listsFile: string; parts: number }> {
  const catalogue = generateSampleCatalogue(opts);
  await mkdir(dir, { recursive: true });
  const partsFile = path.join(dir, 'parts.jsonl');
  const manufacturersFile = path.join(dir, 'manufacturers.json');
  const categoriesFile = path.join(dir, 'categories.json');
  const listsFile = path.join(dir, 'lists.json');
  const json = (x: unknown) => `${JSON.stringify(x, null, 2)}\n`;
  await writeFile(partsFile, catalogue.parts.map((p) => `${JSON.stringify(p)}\n`).join(''), 'utf8');
  await writeFile(manufacturersFile, json(catalogue.manufacturers), 'utf8');
  await writeFile(categoriesFile, json(catalogue.categories), 'utf8');
  await writeFile(listsFile, json(catalogue.lists), 'utf8');
  return { partsFile, manufacturersFile, categoriesFile, listsFile, parts: catalogue.parts.length };
}
