/**
 * Dump record -> PartRecord: manufacturer resolution, identity and ids, slugs, category path,
 * unit-aware specs, lifecycle status, offer roll-ups. Pure apart from growing the registry and tree
 * with names they have not seen.
 */
import { stableId53 } from './ids.ts';
import type { CategoryTree } from './categories.ts';
import type { ManufacturerRegistry } from './manufacturers.ts';
import { mpnIdentity, mpnSlug, normaliseMpn } from './mpn.ts';
import { DUMP_PART_FIELDS, type DumpPart, type DumpSpec, type PartRecord, type PartSpec } from './part.ts';
import { normaliseStatus } from './status.ts';
import { normaliseUnit, parseSpecValue } from './units.ts';
import { attributeIdOf } from '../vocabulary/attributes.ts';

const KNOWN_FIELDS: ReadonlySet<string> = new Set(DUMP_PART_FIELDS);

/**
 * A part's id: of its identity, the manufacturer (after alias resolution) and the MPN as written
 * (mpnIdentity). `legacy`: of the manufacturer and the search key, as ingests before the 'mpn_identity'
 * index feature did (several parts sharing a key were one part then, the later record replacing the
 * earlier): for lookups in index versions without that feature.
 */
export function partId(manufacturerSlug: string, mpn: string, legacy = false): number {
  return stableId53(legacy ? `part:${manufacturerSlug}|${normaliseMpn(mpn)}` : `part:${manufacturerSlug}|=${mpnIdentity(mpn)}`);
}

/** Whether ids of an index version with these features are the legacy ones (partId). */
export function legacyIds(features: readonly string[] | undefined): boolean {
  return !(features ?? []).includes('mpn_identity');
}

/** A dump spec as engines store it: SI numbers parsed from it, and its canonical attribute (src/vocabulary/attributes.ts). */
export function normaliseSpec(s: DumpSpec): PartSpec {
  const name = s.name.trim();
  const value = s.value.trim();
  let spec: Omit<PartSpec, 'attribute'>;
  if (typeof s.num === 'number' && Number.isFinite(s.num)) {
    const unit = s.unit ? normaliseUnit(s.unit) : null;
    spec = { name, value, num: s.num, min: s.num, max: s.num, unit };
  } else {
    const parsed = parseSpecValue(value, s.unit ? normaliseUnit(s.unit) : null);
    spec = parsed
      ? { name, value, num: parsed.value, min: parsed.min, max: parsed.max, unit: parsed.unit }
      : { name, value, num: null, min: null, max: null, unit: null };
  }
  return { ...spec, attribute: attributeIdOf(name, spec.unit ?? s.unit ?? null) };
}

export class PartNormaliser {
  constructor(
    private readonly manufacturers: ManufacturerRegistry,
    private readonly categories: CategoryTree,
    /** Part id -> lst_ ids of the lists the part is a member of. */
    private readonly membership: ReadonlyMap<number, string[]> = new Map(),
  ) {}

  normalise(d: DumpPart): PartRecord {
    const mfr = this.manufacturers.resolve(d.manufacturer);
    const mpn = d.mpn.trim();
    const mpnNorm = normaliseMpn(mpn);
    const slugPart = mpnSlug(mpn);
    const categorySlug = d.category?.length ? this.categories.resolvePath(d.category) : null;
    const attributes: Record<string, unknown> = { ...(d.attributes ?? {}) };
    for (const [k, v] of Object.entries(d)) if (!KNOWN_FIELDS.has(k) && !(k in attributes)) attributes[k] = v;
    const offers = d.offers ?? [];
    let stock = 0;
    let minPrice: number | null = null;
    for (const o of offers) {
      stock += o.stock ?? 0;
      if (o.currency?.toUpperCase() !== 'USD') continue;
      for (const [, price] of o.price_breaks ?? []) if (price > 0 && (minPrice === null || price < minPrice)) minPrice = price;
    }
    const aliases = [...new Set((d.aliases ?? []).map((a) => a.trim()).filter((a) => a && a !== mpn))];
    const id = partId(mfr.slug, mpn);
    return {
      id,
      mpn,
      mpn_norm: mpnNorm,
      mpn_slug: slugPart,
      slug: `${mfr.slug}/${slugPart}`,
      manufacturer: { id: mfr.id, name: mfr.name, slug: mfr.slug },
      description: d.description.trim(),
      long_description: d.long_description?.trim() || null,
      status: normaliseStatus(d.status),
      category: categorySlug ? this.categories.ref(categorySlug) : null,
      series: d.series?.trim() || null,
      package: d.package?.trim() || null,
      specs: (d.specs ?? []).map(normaliseSpec),
      images: (d.images ?? []).map((i) => ({ url: i.url, caption: i.caption ?? null })),
      documents: (d.documents ?? []).map((x) => ({ name: x.name ?? '', type: x.type ?? 'document', url: x.url, text: x.text ?? null })),
      offers,
      aliases,
      aliases_norm: [...new Set(aliases.map(normaliseMpn).filter((a) => a && a !== mpnNorm))],
      source_id: d.source_id ?? null,
      attributes,
      // List ids distinct and sorted (JavaScript's default order) on every engine: OpenSearch reads them
      // back from doc values, which are both.
      lists: [...new Set(this.membership.get(id) ?? [])].sort(),
      stock,
      min_price_usd: minPrice,
    };
  }
}

/** Text a part is embedded from: MPN, manufacturer, descriptions, category and key specs. */
export function embeddingText(r: PartRecord): string {
  const parts = [`${r.mpn} ${r.manufacturer.name}`, r.description];
  if (r.category) parts.push(r.category.path.map((p) => p.name).join(' > '));
  if (r.package) parts.push(`package ${r.package}`);
  const specs = r.specs.slice(0, 10).map((s) => `${s.name} ${s.value}`);
  if (specs.length) parts.push(specs.join(', '));
  if (r.long_description) parts.push(r.long_description);
  return parts.join('. ');
}
