/**
 * SupPart from a part record: every field from the record and the catalogue snapshot, without a read
 * of its own (similarParts aside, which the request batches: similar.ts). What the catalogue cannot
 * know is null, an empty list, or the equivalent the schema's description names.
 */
import { stableId32 } from '../../catalog/ids.ts';
import type { PartRecord } from '../../catalog/part.ts';
import { perObject } from '../../search/record-memo.ts';
import { attributeIndex, CASE_PACKAGE, fieldAttribute, LIFECYCLE_STATUS, LIFECYCLE_VALUES, type AttributeData, type AttributeIndex } from '../attributes.ts';
import { capWarning, take, warn, type GraphQLContext } from '../context.ts';
import type { Money } from '../currency.ts';
import { findCategory, manufacturerCompany } from './catalog.ts';
import { clampInt, medianPrice1000, sellersOf, type OfferScope } from './offers.ts';

/** A spec as SupSpec shows it. */
export interface SpecData {
  attribute: AttributeData;
  value: string;
  siValue: string;
  valueType: string;
  units: string;
  unitsName: string;
  unitsSymbol: string;
  displayValue: string;
}

/** What a part's fields need besides its record: the request and the root field's currency. */
export interface PartScope {
  ctx: GraphQLContext;
  money: Money;
}

const textSpec = (attribute: AttributeData, value: string): SpecData => ({
  attribute,
  value,
  siValue: value,
  valueType: 'text',
  units: '',
  unitsName: '',
  unitsSymbol: '',
  displayValue: value,
});

/** A record's specs with their attributes, then its package and lifecycle status; kept per record and snapshot. */
const specsOf = perObject((_r: PartRecord) => new Map<AttributeIndex, SpecData[]>());
function specs(r: PartRecord, index: AttributeIndex): SpecData[] {
  const byIndex = specsOf(r);
  let out = byIndex.get(index);
  if (out) return out;
  out = r.specs.map((s) => {
    const attribute = index.ofSpec(s);
    const n = s.num === null ? s.value : String(s.num);
    return {
      attribute,
      value: n,
      siValue: n,
      valueType: s.num === null ? 'text' : 'number',
      units: s.unit ?? '',
      unitsName: s.unit ? attribute.unitsName || s.unit : '',
      unitsSymbol: s.unit ?? '',
      displayValue: s.value,
    };
  });
  if (r.package && !out.some((s) => s.attribute.id === CASE_PACKAGE)) out.push(textSpec(fieldAttribute(CASE_PACKAGE), r.package));
  out.push(textSpec(fieldAttribute(LIFECYCLE_STATUS), LIFECYCLE_VALUES[r.status]));
  byIndex.set(index, out);
  return out;
}

const host = (url: string) => {
  try {
    const u = new URL(url);
    return { name: u.host, origin: u.origin };
  } catch {
    return { name: '', origin: '' };
  }
};

const MIME_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  htm: 'text/html',
  html: 'text/html',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};
/** By the URL's extension; application/octet-stream when it has none known. */
const mimeType = (url: string) => MIME_TYPES[/\.([a-z0-9]+)$/i.exec(url.replace(/[?#].*$/, ''))?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** "application_note" -> "Application Notes". */
const collectionName = (type: string) => {
  const words =
    type
      .replace(/[_-]+/g, ' ')
      .trim()
      .replace(/\b\w/g, (c) => c.toUpperCase()) || 'Documents';
  return words.endsWith('s') ? words : `${words}s`;
};

function document(d: PartRecord['documents'][number]) {
  const h = host(d.url);
  return { name: d.name, pageCount: null, createdAt: null, url: d.url, creditString: h.name, creditUrl: h.origin, mimeType: mimeType(d.url) };
}

function image(url: string) {
  const h = host(url);
  return { url, urlLargest: url, url55px: url, url75px: url, url90px: url, creditString: h.name, creditUrl: h.origin };
}

export class PartNode {
  constructor(
    readonly record: PartRecord,
    private readonly scope: PartScope,
  ) {}
  /** What the part's offers show (its URL computed when one asks for it). */
  private get offers(): OfferScope {
    const partUrl = () => this.octopartUrl;
    return {
      record: this.record,
      money: this.scope.money,
      get partUrl() {
        return partUrl();
      },
      loadedAt: this.scope.ctx.loadedAt,
    };
  }
  get _cacheId() {
    return `part:${this.record.id}`;
  }
  get id() {
    return String(this.record.id);
  }
  get v3uid() {
    return this.id;
  }
  get name() {
    return `${this.record.manufacturer.name} ${this.record.mpn}`;
  }
  get mpn() {
    return this.record.mpn;
  }
  get genericMpn() {
    return this.record.mpn;
  }
  get manufacturer() {
    return manufacturerCompany(this.scope.ctx.view, this.record.manufacturer);
  }
  manufacturerUrl = null;
  freeSampleUrl = null;
  cad = null;
  cadRequestUrl = null;
  circuitMakerInternal = null;
  extras = null;
  altiumInternalId = '';
  get shortDescription() {
    return this.record.description;
  }
  get slug() {
    return this.record.slug;
  }
  get octopartUrl() {
    return `${this.scope.ctx.baseUrl}/v1/parts/${this.record.slug.split('/').map(encodeURIComponent).join('/')}`;
  }
  get akaMpns() {
    return this.record.aliases;
  }
  get descriptions() {
    const r = this.record;
    const source = r.source_id?.includes(':') ? r.source_id.slice(0, r.source_id.indexOf(':')).toUpperCase() : 'partsearch';
    const texts = [r.description, r.long_description].filter((t): t is string => Boolean(t));
    return texts.map((text) => ({ text, creditString: source, creditUrl: this.octopartUrl }));
  }
  get documentCollections() {
    const groups = new Map<string, ReturnType<typeof document>[]>();
    for (const d of this.record.documents) {
      const name = collectionName(d.type);
      groups.set(name, [...(groups.get(name) ?? []), document(d)]);
    }
    return [...groups].map(([name, documents]) => ({ name, documents }));
  }
  get bestDatasheet() {
    const d = this.record.documents.find((x) => x.type.toLowerCase() === 'datasheet');
    return d ? document(d) : null;
  }
  get images() {
    return this.record.images.map((i) => image(i.url));
  }
  get bestImage() {
    const i = this.record.images[0];
    return i ? image(i.url) : null;
  }
  get specs() {
    return specs(this.record, attributeIndex(this.scope.ctx.view));
  }
  get category() {
    return this.record.category ? findCategory(this.scope.ctx.view, this.record.category.slug, 'path') : null;
  }
  get series() {
    const { series, manufacturer } = this.record;
    return series ? { id: String(stableId32(`series:${manufacturer.slug}:${series}`)), name: series, url: this.octopartUrl } : null;
  }
  get companionProducts() {
    return [];
  }
  get referenceDesigns() {
    return [];
  }
  sellers(args: { includeBrokers?: boolean; authorizedOnly?: boolean; limit?: number | null; start?: number | null }) {
    const all = sellersOf(this.offers);
    const start = Math.max(0, args.start ?? 0);
    return all.slice(start, args.limit === null || args.limit === undefined ? undefined : start + Math.max(0, args.limit));
  }
  get medianPrice1000() {
    return medianPrice1000(this.offers);
  }
  get totalAvail() {
    return clampInt(this.record.stock);
  }
  get avgAvail() {
    const sellers = new Set(this.record.offers.map((o) => o.distributor.trim().toLowerCase())).size;
    return sellers ? this.record.stock / sellers : 0;
  }
  get estimatedFactoryLeadDays() {
    const days = this.record.offers.map((o) => o.lead_time_days).filter((d): d is number => typeof d === 'number');
    return days.length ? Math.max(...days) : null;
  }
  /** Numbers of related objects; similar_parts is what similarParts returns (its search runs once per part and request). */
  get counts() {
    return this.countsWithSimilar();
  }
  private async countsWithSimilar() {
    const r = this.record;
    return {
      specs: r.specs.length,
      images: r.images.length,
      descriptions: r.long_description ? 2 : 1,
      documents: r.documents.length,
      datasheets: r.documents.filter((d) => d.type.toLowerCase() === 'datasheet').length,
      sellers: new Set(r.offers.map((o) => o.distributor.trim().toLowerCase())).size,
      offers: r.offers.length,
      similar_parts: (await this.scope.ctx.similar.load(r)).length,
    };
  }
  /** Paid parts like any other: taken from the allowance, the rest left out with a warning. */
  get similarParts() {
    return this.loadSimilar();
  }
  private async loadSimilar() {
    const found = await this.scope.ctx.similar.load(this.record);
    const k = take(this.scope.ctx, found.length);
    if (k < found.length) warn(this.scope.ctx, capWarning(`similarParts of part ${this.record.id}`, k, found.length));
    return found.slice(0, k).map((r) => new PartNode(r, this.scope));
  }
}
