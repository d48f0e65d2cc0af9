/**
 * SupPartResultSet: the answer of supSearch and supSearchMpn. The root resolver has decided the page
 * (capped to what the account can pay for) before this node exists; the aggregations are computed when
 * selected, from the set's counts (aggregate.ts), and are free.
 */
import type { PartRecord } from '../../catalog/part.ts';
import { formatSi, parseWholeQuantity } from '../../catalog/units.ts';
import { attributeIndex, type AttributeData } from '../attributes.ts';
import type { SetCounts } from '../../service/supply-counts.ts';
import type { GraphQLContext } from '../context.ts';
import type { AppliedFilter } from '../filters.ts';
import { findCategory, manufacturerCompany, sellerCompany } from './catalog.ts';
import { PartNode, type PartScope } from './part.ts';

export interface ResultSetInput {
  scope: PartScope;
  /** Parts in the whole set. */
  hits: number;
  /** The page shown (already capped). */
  page: readonly PartRecord[];
  /** Per part id: the alternate MPN the query matched, when it was one. */
  akaMpn?: ReadonlyMap<number, string>;
  counts: SetCounts;
  applied: AppliedFilter[];
  categorySlug: string | null;
  warnings: string[];
}

const MAX_BUCKETS = 100;
const bucketSize = (n: number) => Math.max(0, Math.min(MAX_BUCKETS, n));

export class ResultSetNode {
  constructor(private readonly r: ResultSetInput) {}
  private get ctx(): GraphQLContext {
    return this.r.scope.ctx;
  }
  private get attributes() {
    return attributeIndex(this.ctx.view);
  }
  get hits() {
    return this.r.hits;
  }
  get total() {
    return this.r.hits;
  }
  get warnings() {
    return this.r.warnings;
  }
  get results() {
    return this.r.page.map((record) => ({
      _cacheId: `result:${record.id}`,
      part: new PartNode(record, this.r.scope),
      explain: '',
      akaMpn: this.r.akaMpn?.get(record.id) ?? null,
      description: record.description,
    }));
  }
  get specsViewAttributeGroups() {
    const groups = new Map<string, Map<string, AttributeData>>();
    for (const record of this.r.page) {
      for (const s of record.specs) {
        const a = this.attributes.ofSpec(s);
        let g = groups.get(a.group);
        if (!g) groups.set(a.group, (g = new Map()));
        g.set(a.shortname, a);
      }
    }
    return [...groups].map(([name, attrs]) => ({ name, attributes: [...attrs.values()] }));
  }
  /** The set's attributes, most parts first (each shortname once). */
  private async presentAttributes(): Promise<AttributeData[]> {
    const f = await this.r.counts.facets([], 1);
    const out = new Map<string, AttributeData>();
    for (const name of Object.keys(f.specNames)) {
      const a = this.attributes.ofName(name);
      if (!a) continue;
      if (!out.has(a.shortname)) out.set(a.shortname, a);
    }
    return [...out.values()];
  }
  get allFilters() {
    return this.presentAttributes();
  }
  get suggestedFilters() {
    return this.presentAttributes().then((all) => all.slice(0, 10));
  }
  async specAggs(args: { attributeNames: string[]; attributeSelection: 'EXPLICIT' | 'WITH_SUGGESTED' | 'ALL'; size: number }) {
    const wanted = args.attributeNames.map((n) => this.attributes.byKey(n)).filter((a) => a !== undefined);
    if (args.attributeSelection !== 'EXPLICIT') {
      const extra = (await this.presentAttributes()).slice(0, args.attributeSelection === 'ALL' ? 50 : 10);
      for (const a of extra) if (!wanted.some((w) => w.attribute.id === a.id)) wanted.push(this.attributes.byKey(a.id)!);
    }
    // Only attributes held in specs are aggregated (case_package and lifecyclestatus are part fields).
    const withSpecs = wanted.filter((w) => w.specNames.length);
    const size = bucketSize(args.size);
    const f = await this.r.counts.facets(
      withSpecs.flatMap((w) => w.specNames),
      size,
    );
    return withSpecs.map(({ attribute: a, specNames }) => {
      const counts = new Map<string, number>();
      let min: number | null = null;
      let max: number | null = null;
      for (const n of specNames) {
        const v = f.specValues[n];
        if (!v) continue;
        for (const b of v.values) counts.set(b.value, (counts.get(b.value) ?? 0) + b.count);
        if (v.min !== null) min = min === null ? v.min : Math.min(min, v.min);
        if (v.max !== null) max = max === null ? v.max : Math.max(max, v.max);
      }
      const buckets = [...counts]
        .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
        .slice(0, size)
        .map(([displayValue, count]) => ({ displayValue, floatValue: a.unit ? (parseWholeQuantity(displayValue, a.unit)?.value ?? null) : null, count }));
      return {
        attribute: a,
        buckets,
        min,
        max,
        siMin: min === null ? null : String(min),
        siMax: max === null ? null : String(max),
        displayMin: min === null ? null : formatSi(min, a.unit),
        displayMax: max === null ? null : formatSi(max, a.unit),
        valueType: a.valueType,
        units: a.unitsSymbol || null,
        unitsName: a.unitsName || null,
        unitsSymbol: a.unitsSymbol || null,
      };
    });
  }
  async manufacturerAgg(args: { size: number }) {
    const f = await this.r.counts.facets([], bucketSize(args.size));
    return f.manufacturers.slice(0, bucketSize(args.size)).flatMap((m) => {
      const maker = this.ctx.view.manufacturers.get(m.slug);
      return maker ? [{ company: manufacturerCompany(this.ctx.view, maker), count: m.count }] : [];
    });
  }
  async categoryAgg(args: { size: number }) {
    const f = await this.r.counts.facets([], bucketSize(args.size));
    return f.categories.slice(0, bucketSize(args.size)).flatMap((c) => {
      const category = findCategory(this.ctx.view, c.slug, 'path');
      return category ? [{ category, count: c.count }] : [];
    });
  }
  get suggestedCategories() {
    return this.categoryAgg({ size: 5 });
  }
  distributorAgg(args: { size: number }) {
    const counts = new Map<string, { name: string; count: number }>();
    for (const r of this.r.page) {
      for (const name of new Set(r.offers.map((o) => o.distributor.trim()))) {
        const e = counts.get(name.toLowerCase()) ?? { name, count: 0 };
        e.count++;
        counts.set(name.toLowerCase(), e);
      }
    }
    return [...counts.values()]
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
      .slice(0, bucketSize(args.size))
      .map((e) => ({ company: sellerCompany(e.name), count: e.count }));
  }
  get inStockAgg() {
    return this.r.counts.inStock().then((inStock) => [
      { isInStock: true, count: inStock },
      { isInStock: false, count: Math.max(0, this.r.hits - inStock) },
    ]);
  }
  get cadAgg() {
    return [];
  }
  get cadLevelAgg() {
    return [];
  }
  get appliedCategory() {
    return this.r.categorySlug ? findCategory(this.ctx.view, this.r.categorySlug, 'path') : null;
  }
  get appliedFilters() {
    return this.r.applied;
  }
}
