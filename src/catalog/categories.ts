/**
 * Category tree: names -> full path slugs (`capacitors/tantalum-capacitors`), parent/children links,
 * and subtree-inclusive part counts. Sibling names that slug alike (the real data has both
 * "RMS-To-DC Converters" and "RMS-to-DC Converters") get `-2`, `-3`, ... in file order, so slugs are
 * stable across re-ingests of the same tree. Paths on parts that the tree lacks are added to it.
 */
import { nameKey, slugify } from './mpn.ts';
import type { CategoryRef, SlugName } from './part.ts';

export interface CategoryData {
  slug: string;
  name: string;
  description: string | null;
  parent: string | null;
  children: string[];
  depth: number;
  /** Parts classified exactly here. */
  own_count: number;
  /** Parts in this subtree (subtree-inclusive). */
  part_count: number;
}

export interface CategoryFileNode {
  name: string;
  description?: string | null;
  children?: CategoryFileNode[];
}

export class CategoryTree {
  private readonly nodes = new Map<string, CategoryData>();
  private readonly rootSlugs: string[] = [];
  /** parent slug ('' for roots) -> exact name / name key -> child slug */
  private readonly childByName = new Map<string, Map<string, string>>();

  static fromFile(roots: readonly CategoryFileNode[]): CategoryTree {
    const t = new CategoryTree();
    const walk = (n: CategoryFileNode, parent: string | null) => {
      const slug = t.addChild(parent, n.name, n.description ?? null);
      for (const c of n.children ?? []) walk(c, slug);
    };
    for (const r of roots) walk(r, null);
    return t;
  }

  /** Rebuilds a tree from its flat serialised form (see toJSON). */
  static fromData(data: readonly CategoryData[]): CategoryTree {
    const t = new CategoryTree();
    for (const d of data) {
      const node: CategoryData = { ...d, children: [] };
      t.nodes.set(d.slug, node);
      if (d.parent === null) t.rootSlugs.push(d.slug);
      else t.nodes.get(d.parent)?.children.push(d.slug);
      t.index(d.parent, d.name, d.slug);
    }
    return t;
  }

  private index(parent: string | null, name: string, slug: string): void {
    const key = parent ?? '';
    let m = this.childByName.get(key);
    if (!m) this.childByName.set(key, (m = new Map()));
    if (!m.has(`=${name}`)) m.set(`=${name}`, slug);
    const k = `~${nameKey(name)}`;
    if (!m.has(k)) m.set(k, slug);
  }

  private addChild(parent: string | null, name: string, description: string | null): string {
    const base = (parent ? `${parent}/` : '') + slugify(name);
    let slug = base;
    for (let n = 2; this.nodes.has(slug); n++) slug = `${base}-${n}`;
    const node: CategoryData = {
      slug,
      name: name.trim(),
      description,
      parent,
      children: [],
      depth: parent ? (this.nodes.get(parent)?.depth ?? 0) + 1 : 0,
      own_count: 0,
      part_count: 0,
    };
    this.nodes.set(slug, node);
    if (parent === null) this.rootSlugs.push(slug);
    else this.nodes.get(parent)?.children.push(slug);
    this.index(parent, node.name, slug);
    return slug;
  }

  private findChild(parent: string | null, name: string): string | undefined {
    const m = this.childByName.get(parent ?? '');
    return m?.get(`=${name.trim()}`) ?? m?.get(`~${nameKey(name)}`);
  }

  /** The slug of a path of names (root first), adding missing nodes; null for an empty path. */
  resolvePath(names: readonly string[]): string | null {
    let parent: string | null = null;
    for (const raw of names) {
      const name = raw.trim();
      if (!name) continue;
      parent = this.findChild(parent, name) ?? this.addChild(parent, name, null);
    }
    return parent;
  }

  get(slug: string): CategoryData | undefined {
    return this.nodes.get(slug);
  }

  roots(): CategoryData[] {
    return this.rootSlugs.map((s) => this.nodes.get(s)!);
  }

  children(slug: string): CategoryData[] {
    return (this.nodes.get(slug)?.children ?? []).map((s) => this.nodes.get(s)!);
  }

  /** Every node, depth-first in tree order; with `under`, that subtree only (without its root). */
  flatten(under?: string): CategoryData[] {
    const out: CategoryData[] = [];
    const walk = (slug: string) => {
      const n = this.nodes.get(slug)!;
      out.push(n);
      for (const c of n.children) walk(c);
    };
    if (under === undefined) for (const r of this.rootSlugs) walk(r);
    else for (const c of this.nodes.get(under)?.children ?? []) walk(c);
    return out;
  }

  size(): number {
    return this.nodes.size;
  }

  /** Breadcrumb root -> slug inclusive. */
  path(slug: string): SlugName[] {
    const out: SlugName[] = [];
    for (let n = this.nodes.get(slug); n; n = n.parent ? this.nodes.get(n.parent) : undefined) {
      out.unshift({ slug: n.slug, name: n.name });
    }
    return out;
  }

  ref(slug: string): CategoryRef | null {
    const n = this.nodes.get(slug);
    return n ? { slug: n.slug, name: n.name, path: this.path(slug) } : null;
  }

  /** Sets own counts from `counts` (slug -> parts classified there) and sums them up the tree. */
  setCounts(counts: ReadonlyMap<string, number>): void {
    for (const n of this.nodes.values()) n.own_count = counts.get(n.slug) ?? 0;
    const sum = (slug: string): number => {
      const n = this.nodes.get(slug)!;
      n.part_count = n.own_count + n.children.reduce((a, c) => a + sum(c), 0);
      return n.part_count;
    };
    for (const r of this.rootSlugs) sum(r);
  }

  toJSON(): CategoryData[] {
    return this.flatten().map((n) => ({ ...n, children: [...n.children] }));
  }
}
