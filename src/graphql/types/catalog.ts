/**
 * SupCompany and SupCategory from the catalogue snapshot: manufacturers and distributors, the category
 * tree. Ids are stable numbers (as strings) derived from slugs: a manufacturer's is its REST id, a
 * category's and a distributor's the hash of their slugs, so they survive re-ingests of the same data.
 */
import type { CategoryData } from '../../catalog/categories.ts';
import { stableId32 } from '../../catalog/ids.ts';
import type { Manufacturer } from '../../catalog/manufacturers.ts';
import { slugify } from '../../catalog/mpn.ts';
import type { CatalogView } from '../../catalog/view.ts';

export interface CompanyData {
  id: string;
  name: string;
  aliases: string[];
  displayFlag: null;
  homepageUrl: null;
  slug: string;
  isVerified: boolean;
  isBroker: boolean;
  isDistributorApi: boolean;
  isOctocartSupported: boolean;
}

const company = (id: number, name: string, slug: string, aliases: string[]): CompanyData => ({
  id: String(id),
  name,
  aliases,
  displayFlag: null,
  homepageUrl: null,
  slug,
  isVerified: false,
  isBroker: false,
  isDistributorApi: false,
  isOctocartSupported: false,
});

/** A part's manufacturer reference (or a registry entry) as a SupCompany. */
export function manufacturerCompany(view: CatalogView, m: { id: number; name: string; slug: string }): CompanyData {
  return company(m.id, m.name, m.slug, view.manufacturers.get(m.slug)?.aliases ?? []);
}

const sellers = new Map<string, Readonly<CompanyData>>();
/** A distributor named on offers as a SupCompany (kept: a catalogue names a handful). */
export function sellerCompany(name: string): Readonly<CompanyData> {
  let c = sellers.get(name);
  if (!c) {
    const slug = slugify(name);
    c = Object.freeze(company(stableId32(`seller:${slug}`), name, slug, []));
    if (sellers.size >= 10_000) sellers.clear();
    sellers.set(name, c);
  }
  return c;
}

export const categoryId = (slug: string) => String(stableId32(`cat:${slug}`));

/** A category of the snapshot's tree as a SupCategory. */
export class CategoryNode {
  constructor(
    private readonly view: CatalogView,
    private readonly c: CategoryData,
  ) {}
  get id() {
    return categoryId(this.c.slug);
  }
  get parentId() {
    return this.c.parent === null ? '0' : categoryId(this.c.parent);
  }
  get name() {
    return this.c.name;
  }
  get path() {
    return this.c.slug;
  }
  get numParts() {
    return this.c.part_count;
  }
  get ancestors() {
    const out: CategoryNode[] = [];
    for (let p = this.c.parent; p !== null;) {
      const d = this.view.tree.get(p);
      if (!d) break;
      out.unshift(new CategoryNode(this.view, d));
      p = d.parent;
    }
    return out;
  }
  get children() {
    return this.view.tree.children(this.c.slug).map((d) => new CategoryNode(this.view, d));
  }
  get relevantAttributes() {
    return [];
  }
  get blurb() {
    const d = this.c.description;
    return d ? { name: this.c.name, pathName: this.c.slug, description: d, content: d, metaDescription: d, metaTitle: this.c.name } : null;
  }
}

interface SnapshotIndex {
  categoryById: Map<string, string>;
  manufacturerById: Map<string, Manufacturer>;
}
const indexes = new WeakMap<CatalogView, SnapshotIndex>();

/** Categories and manufacturers of a snapshot by their Supply ids (kept with the snapshot). */
export function snapshotIndex(view: CatalogView): SnapshotIndex {
  let i = indexes.get(view);
  if (!i) {
    i = {
      categoryById: new Map(view.tree.flatten().map((c) => [categoryId(c.slug), c.slug])),
      manufacturerById: new Map(view.manufacturers.all().map((m) => [String(m.id), m])),
    };
    indexes.set(view, i);
  }
  return i;
}

/** A category by Supply id or path (the slug; leading and trailing slashes aside). */
export function findCategory(view: CatalogView, idOrPath: string, by: 'id' | 'path'): CategoryNode | null {
  const slug = by === 'id' ? snapshotIndex(view).categoryById.get(idOrPath) : idOrPath.replace(/^\/+|\/+$/g, '');
  const d = slug === undefined ? undefined : view.tree.get(slug);
  return d ? new CategoryNode(view, d) : null;
}
