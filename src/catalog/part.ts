/**
 * The catalogue's part model: the dump record as data teams write it (FORMAT.md), and the normalised
 * record every engine stores and every API answer is built from. Engine-neutral.
 */
import type { PartStatus } from './status.ts';
import type { SiUnit } from './units.ts';

/** One spec as the dump carries it. */
export interface DumpSpec {
  name: string;
  value: string;
  num?: number | null;
  unit?: string | null;
}

export interface DumpOffer {
  distributor: string;
  sku?: string | null;
  stock?: number | null;
  moq?: number | null;
  currency: string;
  price_breaks: [number, number][];
  packaging?: string | null;
  lead_time_days?: number | null;
}

/** A part record of the dump format (FORMAT.md), after schema validation. */
/** The fields of a dump part record, in the order FORMAT.md documents them. */
export const DUMP_PART_FIELDS = [
  'source_id',
  'mpn',
  'manufacturer',
  'description',
  'long_description',
  'status',
  'category',
  'series',
  'package',
  'specs',
  'images',
  'documents',
  'offers',
  'aliases',
  'attributes',
] as const;

export interface DumpPart {
  mpn: string;
  manufacturer: string;
  description: string;
  long_description?: string | null;
  status?: string | null;
  category?: string[] | null;
  series?: string | null;
  package?: string | null;
  specs?: DumpSpec[] | null;
  images?: { url: string; caption?: string | null }[] | null;
  documents?: { name: string; type: string; url: string; text?: string | null }[] | null;
  offers?: DumpOffer[] | null;
  aliases?: string[] | null;
  source_id?: string | null;
  attributes?: Record<string, unknown> | null;
  [extra: string]: unknown;
}

export interface SlugName {
  slug: string;
  name: string;
}

/** SPEC.md CategoryRef. */
export interface CategoryRef extends SlugName {
  path: SlugName[];
}

export interface ManufacturerRef {
  id: number;
  name: string;
  slug: string;
}

/** A spec after unit parsing: display string kept as given, SI numbers beside it. */
export interface PartSpec {
  name: string;
  value: string;
  /** Single SI value; null for ranges and non-numeric values. */
  num: number | null;
  /** Range bounds in SI (equal to num for a single value). */
  min: number | null;
  max: number | null;
  unit: SiUnit | null;
  /**
   * The canonical attribute the spec's name means (vocabulary/attributes.json: "supply_voltage" for
   * "Voltage - supply" and "Supply Voltage"), assigned at ingest; null when the vocabulary does not know
   * the name. Absent on records stored before attributes were assigned: read it with specAttributeId.
   */
  attribute?: string | null;
}

/** The normalised part every engine stores (as a whole, for enrichment) and indexes (by fields). */
export interface PartRecord {
  id: number;
  mpn: string;
  mpn_norm: string;
  mpn_slug: string;
  /** `<manufacturer slug>/<mpn slug>`: the part detail route is `/v1/parts/{slug}`. */
  slug: string;
  manufacturer: ManufacturerRef;
  description: string;
  long_description: string | null;
  status: PartStatus;
  category: CategoryRef | null;
  series: string | null;
  package: string | null;
  specs: PartSpec[];
  images: { url: string; caption: string | null }[];
  documents: { name: string; type: string; url: string; text: string | null }[];
  offers: DumpOffer[];
  aliases: string[];
  aliases_norm: string[];
  source_id: string | null;
  attributes: Record<string, unknown>;
  /** Approved lists (lst_ ids) the part belongs to. */
  lists: string[];
  /** Total stock over all offers. */
  stock: number;
  /** Lowest unit price in USD over all offers and breaks; null when unknown. */
  min_price_usd: number | null;
}

/** What the ingest hands an engine: the record plus its embedding (null when lexical-only). */
export interface IndexedPart {
  record: PartRecord;
  embedding: Float32Array | null;
  /**
   * The key of the embedding (embeddings/key.ts: the model and the text), kept beside the vector so that
   * an engine can tell which vectors a new version shares with the live one (SQLite reuses the live
   * version's HNSW graph for those). Absent or null: not known.
   */
  vectorKey?: Uint8Array | null;
}
