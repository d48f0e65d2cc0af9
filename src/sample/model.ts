/** Shapes shared by the sample generator's family tables and the record builder. */
import type { Spec } from './units.ts';

export type { Spec };

/**
 * One possible part of a family, before the seeded choices (status, offers, stock...) are made.
 * Family generators enumerate candidates deterministically; the seed only decides which are used.
 */
export interface Candidate {
  mpn: string;
  /** Canonical manufacturer name (see MANUFACTURERS). */
  manufacturer: string;
  /** One line, catalogue style, without the trailing "ROHS" (added by the record builder). */
  description: string;
  package: string;
  specs: Spec[];
  series?: string;
  /** Prose; the record builder keeps it for about 30% of parts. */
  longDescription?: string;
  /** Alternate MPNs of the same part (orderable codes, type names). */
  aliases?: string[];
  /** Unit price at quantity 1, USD. */
  price: number;
  /** Reel/tube/tray as sold: "Tape & Reel (TR)", "Tube", "Tray", "Bulk". */
  packaging?: string;
  pins?: number;
  /** Popularity weight for sampling and for Basic/Preferred selection (default 1). */
  weight?: number;
  /** Always included when the family's quota allows (well-known parts the docs refer to). */
  pinned?: boolean;
  /** Fixed lifecycle, e.g. "obsolete" for a part the manufacturer has discontinued. */
  status?: string;
  /** Key of the datasheet document (a series or base part number); defaults to the MPN. */
  datasheet?: string;
}

export interface Family {
  id: string;
  /** Category path, root first; must exist in CATEGORY_TREE. */
  category: string[];
  /** Near-duplicate category some sources file this family under, and how often. */
  altCategory?: { path: string[]; share: number };
  /** Relative size of the family in the default catalogue. */
  weight: number;
  /** Passive families absorb the remainder when active families run out of candidates. */
  passive: boolean;
  /** Typical price multiplier per distributor is applied on top of Candidate.price. */
  candidates(): Candidate[];
}

export interface ManufacturerInfo {
  name: string;
  aliases: string[];
  /** Short slug used in placeholder URLs. */
  slug: string;
  /** Distributor SKU prefixes (Mouser "595-", DigiKey "296-"). */
  mouser: string;
  digikey: string;
  logo: boolean;
}

export interface CategoryNode {
  name: string;
  description?: string;
  children?: CategoryNode[];
}
