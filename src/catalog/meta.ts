/** The catalogue snapshot stored beside each index version: taxonomy, manufacturers, lists, stats. */
import type { CategoryData } from './categories.ts';
import type { Manufacturer } from './manufacturers.ts';

export interface ApprovedListData {
  list_id: string;
  name: string;
  kind: 'user' | 'curated';
  slug: string | null;
  description: string | null;
  /** Owning account for user lists. */
  account: string | null;
  /** Part ids of the members that matched a part. */
  member_ids: number[];
  member_count: number;
  /** Members that matched no part, reported at import. */
  unmatched: { mpn: string; manufacturer: string }[];
  updated_at: string;
}

export interface EmbeddingInfo {
  /** Model name (folder or hub id); null when the index is lexical-only. */
  model: string | null;
  dims: number | null;
  /** The model's identity (embeddings/key.ts embedderIdentity); absent in snapshots from before it was recorded. */
  fingerprint?: string;
  /**
   * Parts still without a vector: the version went live before its vectors were complete (ingest
   * `--embeddings background`), and search stays lexical-only until a vector fill completes it and
   * removes this. Absent: every part has its vector (or the version is lexical-only).
   */
  pending?: number;
}

export interface CatalogMeta {
  /** Index version this snapshot belongs to. */
  version: string;
  created_at: string;
  parts: number;
  embedding: EmbeddingInfo;
  categories: CategoryData[];
  manufacturers: Manufacturer[];
  lists: ApprovedListData[];
  /** Spec names seen at ingest: parts carrying each, and the SI unit of its numeric values (most common). */
  specs?: SpecNameInfo[];
  /** Distributors named on offers, with the parts they offer; absent in snapshots ingested before it was recorded. */
  sellers?: { name: string; parts: number }[];
  /**
   * What the index version holds beyond what every version does, so that a request needing it on an
   * older version is refused instead of answered wrongly: 'price_bands', the unit price by order
   * quantity (catalog/prices.ts; PartFilters price.min_quantity); 'mpn_identity', part ids of the MPN as
   * written (catalog/normalise.ts partId; before it, of the search key); 'spec_attributes', each spec's
   * canonical attribute stored where the engine filters and counts (vocabulary/attributes.json). Absent
   * in snapshots from before.
   */
  features?: IndexFeature[];
}

export type IndexFeature = 'price_bands' | 'mpn_identity' | 'spec_attributes';

/** The features an ingest of this code writes into every new index version. */
export const INDEX_FEATURES: readonly IndexFeature[] = ['price_bands', 'mpn_identity', 'spec_attributes'];

export interface SpecNameInfo {
  name: string;
  parts: number;
  unit: string | null;
  /**
   * Whether its numeric values are plain numbers only ("Number of channels": "2"), so that a range
   * without a unit compares with them; absent in snapshots ingested before it was recorded.
   */
  unitless?: boolean;
}
