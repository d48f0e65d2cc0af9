/**
 * SupPartSeller, SupOffer and SupPricePoint from a part's offers: one seller per distributor (most stock
 * first), its offers as stored, prices converted into the currency the root field asks for.
 */
import type { DumpOffer, PartRecord } from '../../catalog/part.ts';
import type { Money } from '../currency.ts';
import { perRecord } from '../../search/record-memo.ts';
import { sellerCompany, type CompanyData } from './catalog.ts';

/** GraphQL's Int is 32-bit: larger stock levels are capped. */
const MAX_INT = 2_147_483_647;
export const clampInt = (n: number) => Math.max(-MAX_INT, Math.min(MAX_INT, Math.round(n)));

export interface OfferScope {
  record: PartRecord;
  money: Money;
  /** The part's URL on this service. */
  readonly partUrl: string;
  /** When the index version was loaded. */
  loadedAt: string;
}

export interface PricePoint {
  _cacheId: string;
  quantity: number;
  price: number;
  currency: string;
  convertedPrice: number;
  convertedCurrency: string;
  conversionRate: number;
}

export function pricePoint(cacheId: string, quantity: number, price: number, currency: string, money: Money): PricePoint {
  return { _cacheId: cacheId, quantity: clampInt(quantity), price, currency: currency.toUpperCase(), ...money.convert(price, currency) };
}

/** The offer's breaks by quantity (positive quantities and prices); kept with a stored (frozen) offer. */
const breaksOf = perRecord((o: DumpOffer): [number, number][] => (o.price_breaks ?? []).filter(([q, p]) => q > 0 && p > 0).sort((a, b) => a[0] - b[0]));

/** The unit price of an order of `quantity` at this offer: the break with the largest quantity not above it. */
export function offerPriceAt(o: DumpOffer, quantity: number): number | null {
  let price: number | null = null;
  for (const [q, p] of breaksOf(o)) if (q <= quantity) price = p;
  return price;
}

class OfferNode {
  constructor(
    private readonly scope: OfferScope,
    private readonly o: DumpOffer,
    private readonly index: number,
    /** The seller's `offers(priceBreaks:)`: the quantities to price instead of the breaks. */
    private readonly priceBreaks: readonly number[] | null,
  ) {}
  get _cacheId() {
    return `offer:${this.id}`;
  }
  /** The part's id and the offer's place among its offers (the dump's order, kept by every ingest). */
  get id() {
    return `${this.scope.record.id}.${this.index}`;
  }
  get sku() {
    return this.o.sku ?? '';
  }
  get eligibleRegion() {
    return null;
  }
  get inventoryLevel() {
    return clampInt(this.o.stock ?? 0);
  }
  get packaging() {
    return this.o.packaging ?? null;
  }
  get moq() {
    return this.o.moq ?? null;
  }
  get prices(): PricePoint[] {
    const { money } = this.scope;
    const id = (q: number) => `${this._cacheId}:${q}`;
    if (this.priceBreaks) {
      return this.priceBreaks.flatMap((q) => {
        const p = offerPriceAt(this.o, q);
        return p === null ? [] : [pricePoint(id(q), q, p, this.o.currency, money)];
      });
    }
    return breaksOf(this.o).map(([q, p]) => pricePoint(id(q), q, p, this.o.currency, money));
  }
  get clickUrl() {
    return this.scope.partUrl;
  }
  get internalUrl() {
    return this.scope.partUrl;
  }
  get updated() {
    return this.scope.loadedAt;
  }
  get factoryLeadDays() {
    return this.o.lead_time_days ?? null;
  }
  onOrderQuantity = null;
  factoryPackQuantity = null;
  orderMultiple = null;
  multipackQuantity = null;
  isCustomPricing = false;
}

export interface SellerData {
  _cacheId: string;
  company: Readonly<CompanyData>;
  country: null;
  offers(args: { priceBreaks?: number[] | null }): OfferNode[];
  isAuthorized: boolean;
  isBroker: boolean;
  isRfq: boolean;
  shipsToCountries: never[];
}

/** A part's offers by distributor (name as first written, offers with their index), most stock first; kept with a stored record. */
const sellerGroups = perRecord((r: PartRecord): { name: string; offers: [DumpOffer, number][] }[] => {
  const groups = new Map<string, { name: string; offers: [DumpOffer, number][]; stock: number }>();
  r.offers.forEach((o, i) => {
    const key = o.distributor.trim().toLowerCase();
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { name: o.distributor.trim(), offers: [], stock: 0 }));
    g.offers.push([o, i]);
    g.stock += o.stock ?? 0;
  });
  return [...groups.values()].sort((a, b) => b.stock - a.stock || a.name.localeCompare(b.name));
});

/** The part's sellers: its offers by distributor, most stock first. */
export function sellersOf(scope: OfferScope): SellerData[] {
  return sellerGroups(scope.record).map((g) => {
    const company = sellerCompany(g.name);
    return {
      _cacheId: `seller:${scope.record.id}:${company.slug}`,
      company,
      country: null,
      offers: (args: { priceBreaks?: number[] | null }) => g.offers.map(([o, i]) => new OfferNode(scope, o, i, args.priceBreaks ?? null)),
      isAuthorized: true,
      isBroker: false,
      isRfq: false,
      shipsToCountries: [],
    };
  });
}

/** The median over the offers of the unit price of an order of 1,000, in USD; null when no offer prices it. */
export function medianPrice1000(scope: OfferScope): PricePoint | null {
  const usd: number[] = [];
  for (const o of scope.record.offers) {
    const p = offerPriceAt(o, 1000);
    const x = p === null ? null : scope.money.toUsd(p, o.currency);
    if (x !== null) usd.push(x);
  }
  if (!usd.length) return null;
  usd.sort((a, b) => a - b);
  const mid = usd.length >> 1;
  const median = usd.length % 2 ? usd[mid]! : (usd[mid - 1]! + usd[mid]!) / 2;
  return pricePoint(`median:${scope.record.id}`, 1000, Math.round(median * 1e6) / 1e6, 'USD', scope.money);
}
