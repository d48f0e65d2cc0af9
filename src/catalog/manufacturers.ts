/**
 * Manufacturer registry: canonical manufacturers with aliases, resolution of any spelling to one
 * record ("TI", "TEXAS INSTRUMENTS", "Texas Instruments Inc." -> Texas Instruments), stable slugs and
 * ids. Built from the manufacturers file and extended by names first seen on parts.
 */
import { nameKey, slugify } from './mpn.ts';
import { stableId32 } from './ids.ts';

export interface Manufacturer {
  id: number;
  slug: string;
  name: string;
  aliases: string[];
  logo: string | null;
  part_count: number;
}

/** Legal-form and filler suffixes dropped when a name does not resolve as written. */
const SUFFIXES = [
  'incorporated',
  'inc',
  'corporation',
  'corp',
  'company',
  'co',
  'limited',
  'ltd',
  'llc',
  'gmbh',
  'ag',
  'sa',
  'plc',
  'bv',
  'nv',
  'kk',
  'spa',
  'group',
  'holdings',
  'international',
  'intl',
];
const SUFFIX_RE = new RegExp(`(?:${SUFFIXES.join('|')})$`);

function keys(name: string): string[] {
  const k = nameKey(name);
  const out = [k];
  let cur = k;
  for (let i = 0; i < 3; i++) {
    const next = cur.replace(SUFFIX_RE, '');
    if (next === cur || next.length < 2) break;
    out.push(next);
    cur = next;
  }
  return out;
}

export class ManufacturerRegistry {
  private readonly byKey = new Map<string, Manufacturer>();
  private readonly bySlug = new Map<string, Manufacturer>();
  private readonly ordered: Manufacturer[] = [];

  static from(
    entries: readonly { name: string; aliases?: string[] | null; logo?: string | null; slug?: string; id?: number; part_count?: number }[],
  ): ManufacturerRegistry {
    const reg = new ManufacturerRegistry();
    for (const e of entries) reg.add(e.name, e.aliases ?? [], e.logo ?? null, e.slug, e.id, e.part_count);
    return reg;
  }

  /** Adds a manufacturer (or merges aliases into the one the name already resolves to). */
  add(name: string, aliases: readonly string[] = [], logo: string | null = null, slug?: string, id?: number, partCount = 0): Manufacturer {
    const existing = this.lookup(name);
    if (existing) {
      for (const a of aliases) this.addAlias(existing, a);
      if (logo && !existing.logo) existing.logo = logo;
      return existing;
    }
    let s = slug ?? slugify(name);
    if (!slug) for (let n = 2; this.bySlug.has(s); n++) s = `${slugify(name)}-${n}`;
    const m: Manufacturer = { id: id ?? stableId32(`mfr:${s}`), slug: s, name: name.trim(), aliases: [], logo, part_count: partCount };
    this.bySlug.set(s, m);
    this.ordered.push(m);
    for (const k of keys(name)) if (k && !this.byKey.has(k)) this.byKey.set(k, m);
    for (const a of aliases) this.addAlias(m, a);
    return m;
  }

  private addAlias(m: Manufacturer, alias: string): void {
    const a = alias.trim();
    if (!a || a === m.name || m.aliases.includes(a)) return;
    m.aliases.push(a);
    for (const k of keys(a)) if (k && !this.byKey.has(k)) this.byKey.set(k, m);
  }

  /** The manufacturer a name or alias resolves to, or undefined. */
  lookup(name: string): Manufacturer | undefined {
    for (const k of keys(name)) {
      const m = this.byKey.get(k);
      if (m) return m;
    }
    return undefined;
  }

  /** Resolves a name, creating the manufacturer when it is not known (FORMAT.md). */
  resolve(name: string): Manufacturer {
    return this.lookup(name) ?? this.add(name);
  }

  get(slug: string): Manufacturer | undefined {
    return this.bySlug.get(slug);
  }

  all(): readonly Manufacturer[] {
    return this.ordered;
  }

  toJSON(): Manufacturer[] {
    return this.ordered.map((m) => ({ ...m, aliases: [...m.aliases] }));
  }
}
