/** Turns a family candidate into a dump-format part record, making the seeded per-part choices. */
import type { Candidate, ManufacturerInfo, Spec } from './model.ts';
import type { Rng } from './rng.ts';
import { manufacturer as manufacturerInfo } from './tables.ts';
import { pinsOf, slug } from './units.ts';
import { DUMP_PART_FIELDS } from '../catalog/part.ts';

export interface Offer {
  distributor: string;
  sku?: string;
  stock?: number;
  moq?: number;
  currency: string;
  price_breaks: [number, number][];
  packaging?: string;
  lead_time_days?: number;
}

/** A part in the dump format (FORMAT.md). */
export interface SamplePart {
  source_id: string;
  mpn: string;
  manufacturer: string;
  description: string;
  long_description?: string;
  status?: string;
  category: string[];
  series?: string;
  package: string;
  specs: Spec[];
  images?: { url: string; caption?: string }[];
  documents?: { name: string; type: string; url: string }[];
  offers: Offer[];
  aliases?: string[];
  attributes: { library_type: 'Basic' | 'Preferred' | 'Extended'; rohs: boolean | null; pins: number };
}

export const IMAGE_HOST = 'https://img.partsearch.example';
export const DOCS_HOST = 'https://docs.partsearch.example';

/** Lifecycle mix for active parts; passives skip engineering samples (nobody samples a 10k resistor). */
const STATUSES: readonly (readonly [string | undefined, number])[] = [
  ['active', 0.855],
  ['Active', 0.02],
  ['nrnd', 0.04],
  ['obsolete', 0.025],
  ['ltb', 0.02],
  ['engineering_sample', 0.01],
  ['unknown', 0.02],
  [undefined, 0.01], // absent: ingest defaults to unknown
];
const PASSIVE_STATUSES = STATUSES.map(([s, w]) => (s === 'engineering_sample' ? (['active', w] as const) : ([s, w] as const)));

const BREAK_QTY = [1, 10, 100, 1000] as const;

const sig4 = (n: number) => parseFloat(n.toPrecision(4));

/** Four decreasing price breaks interpolated geometrically between the 1-off and 1000-off prices. */
export function priceBreaks(p1: number, p1000: number): [number, number][] {
  return BREAK_QTY.map((qty, i) => [qty, sig4(p1 * (p1000 / p1) ** (i / 3))]);
}

function offer(distributor: 'LCSC' | 'DigiKey' | 'Mouser', c: Candidate, mfr: ManufacturerInfo, index: number, rng: Rng): Offer {
  const unit = c.price * rng.float(0.9, 1.12);
  const reel = c.packaging === 'Tape & Reel (TR)';
  const compactMpn = c.mpn.replace(/\s+/g, '');
  let sku: string;
  let p1: number;
  let p1000: number;
  let packaging = c.packaging;
  if (distributor === 'LCSC') {
    sku = `C${100000 + index * 13 + rng.int(0, 12)}`;
    p1 = unit;
    p1000 = unit * rng.float(0.45, 0.65);
  } else {
    sku = distributor === 'DigiKey' ? `${mfr.digikey}-${compactMpn}${reel ? 'CT' : ''}-ND` : `${mfr.mouser}-${compactMpn}`;
    p1 = Math.max(unit * 1.6, 0.1);
    p1000 = Math.max(unit * 0.9, p1 * rng.float(0.06, 0.12));
    if (reel) packaging = 'Cut Tape (CT)';
  }
  const stock = rng.chance(0.12) ? 0 : rng.logInt(10, c.price < 0.05 ? 4_000_000 : c.price < 1 ? 200_000 : 8_000);
  return {
    distributor,
    sku,
    stock,
    moq: 1,
    currency: 'USD',
    price_breaks: priceBreaks(p1, p1000),
    ...(packaging ? { packaging } : {}),
    lead_time_days: stock === 0 ? rng.int(28, 120) : rng.int(5, 70),
  };
}

function offers(c: Candidate, mfr: ManufacturerInfo, index: number, rng: Rng): Offer[] {
  const available: ('LCSC' | 'DigiKey' | 'Mouser')[] = ['LCSC'];
  if (mfr.digikey) available.push('DigiKey');
  if (mfr.mouser) available.push('Mouser');
  const count = Math.min(
    available.length,
    rng.weighted([
      [1, 0.4],
      [2, 0.35],
      [3, 0.25],
    ] as const),
  );
  const chosen = new Set<string>();
  // LCSC carries most of this sample (as in the real dumps); the others are added by chance.
  const order = rng.chance(0.8) ? available : [...available].reverse();
  for (const d of order) if (chosen.size < count) chosen.add(d);
  return available.filter((d) => chosen.has(d)).map((d) => offer(d, c, mfr, index, rng));
}

export function buildPart(c: Candidate, category: string[], index: number, rng: Rng, passive = false): SamplePart {
  const mfr = manufacturerInfo(c.manufacturer);
  const displayName = mfr.aliases.length > 0 && rng.chance(0.06) ? rng.pick(mfr.aliases) : mfr.name;
  const status = c.status ?? rng.weighted(passive ? PASSIVE_STATUSES : STATUSES);
  const rohs: boolean | null =
    status === 'obsolete' && rng.chance(0.4)
      ? false
      : rng.weighted([
          [true, 0.88],
          [null, 0.1],
          [false, 0.02],
        ] as const);
  const part: SamplePart = {
    source_id: `sample:${index + 1}`,
    mpn: c.mpn,
    manufacturer: displayName,
    description: rohs === true ? `${c.description} ROHS` : c.description,
    ...(rng.chance(0.3) && c.longDescription ? { long_description: c.longDescription } : {}),
    ...(status !== undefined ? { status } : {}),
    category,
    ...(c.series ? { series: c.series } : {}),
    package: c.package,
    specs: c.specs.map((spec) => ({ ...spec })),
    offers: [],
    attributes: { library_type: 'Extended', rohs, pins: c.pins ?? pinsOf(c.package) },
  };
  if (rng.chance(0.92)) {
    part.images = [{ url: `${IMAGE_HOST}/parts/${mfr.slug}/${slug(c.mpn)}.jpg`, ...(rng.chance(0.3) ? { caption: `${c.mpn} (${c.package})` } : {}) }];
  }
  if (rng.chance(0.97)) {
    const key = slug(c.datasheet ?? c.mpn);
    part.documents = [{ name: `${c.mpn} datasheet`, type: 'datasheet', url: `${DOCS_HOST}/${mfr.slug}/${key}.pdf` }];
    if (c.price > 0.3 && rng.chance(0.15)) {
      part.documents.push({ name: `${c.series ?? c.mpn} application note`, type: 'application_note', url: `${DOCS_HOST}/${mfr.slug}/${key}-appnote.pdf` });
    }
  }
  part.offers = offers(c, mfr, index, rng);
  if (c.aliases?.length) part.aliases = [...c.aliases];
  // Keep the documented field order: optional blocks were filled in after the required ones.
  return reorder(part);
}

const FIELD_ORDER: readonly (keyof SamplePart)[] = DUMP_PART_FIELDS;

function reorder(p: SamplePart): SamplePart {
  const out: Record<string, unknown> = {};
  for (const k of FIELD_ORDER) if (p[k] !== undefined) out[k] = p[k];
  return out as unknown as SamplePart;
}
