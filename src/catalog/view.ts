/**
 * The in-memory view of the live catalogue snapshot: category tree, manufacturer registry, name
 * matchers and approved lists, rebuilt when the snapshot changes (new index version, rollback or a
 * list edit). The snapshot is re-read at most once a second, so lookups cost no engine round trip.
 */
import { CategoryTree } from './categories.ts';
import { ManufacturerRegistry } from './manufacturers.ts';
import { createCategoryMatcher, type CategoryMatcher } from './match/categories.ts';
import { withFunctions } from './match/functions.ts';
import { createManufacturerMatcher, type ManufacturerMatcher } from './match/manufacturers.ts';
import type { ApprovedListData, CatalogMeta } from './meta.ts';
import type { SiUnit } from './units.ts';
import { specNameIndex, type SpecNameIndex } from '../vocabulary/attributes.ts';

export interface CatalogView {
  readonly meta: CatalogMeta;
  readonly tree: CategoryTree;
  readonly manufacturers: ManufacturerRegistry;
  readonly lists: readonly ApprovedListData[];
  /** Spec name -> SI unit of its numeric values (null: text only); empty when the snapshot predates it. */
  readonly specUnits: ReadonlyMap<string, SiUnit | null>;
  /** Spec names whose numeric values are plain numbers ("Number of channels": "2"): ranges compare as stored. */
  unitlessNumericSpecs(): ReadonlySet<string>;
  /** Whether the snapshot says which specs are unitless (ingested since it was recorded). */
  knowsUnitless(): boolean;
  categoryMatcher(): CategoryMatcher;
  manufacturerMatcher(): ManufacturerMatcher;
  /** The catalogue's spec attributes and names (agentic search's candidates by spec value). */
  specNameIndex(): SpecNameIndex;
}

export interface CatalogProvider {
  /** The current view, or null when nothing has been loaded. */
  get(): Promise<CatalogView | null>;
  /** Forget the cached snapshot (after this process changed it). */
  invalidate(): void;
}

function fingerprint(m: CatalogMeta): string {
  return `${m.version}|${m.created_at}|${m.embedding.pending ?? 0}|${m.lists.map((l) => `${l.list_id}:${l.updated_at}`).join(',')}`;
}

/** The view of one catalogue snapshot (matchers and indexes built on first use). */
export function buildView(meta: CatalogMeta): CatalogView {
  const tree = CategoryTree.fromData(meta.categories);
  const manufacturers = ManufacturerRegistry.from(meta.manufacturers);
  let cm: CategoryMatcher | null = null;
  let mm: ManufacturerMatcher | null = null;
  let sn: SpecNameIndex | null = null;
  let un: ReadonlySet<string> | null = null;
  let knows: boolean | undefined;
  const specUnits = new Map((meta.specs ?? []).map((x) => [x.name, x.unit as SiUnit | null]));
  return {
    meta,
    tree,
    manufacturers,
    lists: meta.lists,
    specUnits,
    categoryMatcher: () => (cm ??= withFunctions(createCategoryMatcher(meta.categories), meta.categories)),
    manufacturerMatcher: () => (mm ??= createManufacturerMatcher(meta.manufacturers)),
    specNameIndex: () => (sn ??= specNameIndex(specUnits.keys(), (name) => specUnits.get(name), (meta.features ?? []).includes('spec_attributes'))),
    unitlessNumericSpecs: () => (un ??= new Set((meta.specs ?? []).filter((x) => x.unit === null && x.unitless === true).map((x) => x.name))),
    knowsUnitless: () => (knows ??= (meta.specs ?? []).some((x) => x.unitless !== undefined)),
  };
}

/** Where the snapshot is read from: the engine's live version (SearchReader.meta). */
export interface SnapshotSource {
  meta(): Promise<CatalogMeta | null>;
}

export function createCatalogProvider(engine: SnapshotSource, ttlMs = 1000): CatalogProvider {
  let view: CatalogView | null = null;
  let key = '';
  let checkedAt = 0;
  let inflight: Promise<CatalogView | null> | null = null;
  async function refresh(): Promise<CatalogView | null> {
    const meta = await engine.meta();
    checkedAt = Date.now();
    if (!meta) {
      view = null;
      key = '';
      return null;
    }
    const k = fingerprint(meta);
    if (k !== key || !view) {
      view = buildView(meta);
      key = k;
    }
    return view;
  }
  return {
    async get() {
      if (view && Date.now() - checkedAt < ttlMs) return view;
      inflight ??= refresh().finally(() => (inflight = null));
      return inflight;
    },
    invalidate() {
      checkedAt = 0;
    },
  };
}
