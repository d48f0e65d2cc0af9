/**
 * The narrow dependencies the use cases take. Each use case names the smallest of these it needs, so
 * that a caller (the composition root, a test, the relevance runner) builds only what it uses.
 */
import type { AccountStore } from '../accounts/port.ts';
import type { BillingConfig } from '../accounts/billing.ts';
import type { CatalogProvider } from '../catalog/view.ts';
import type { Embedder } from '../embeddings/port.ts';
import type { SearchReader } from '../engines/port.ts';

/** The live catalogue's snapshot (taxonomy, manufacturers, lists, matchers), cached in memory. */
export interface CatalogDeps {
  catalog: CatalogProvider;
}

/** Searching: the engine's reads and the catalogue snapshot. */
export interface SearchDeps extends CatalogDeps {
  engine: SearchReader;
}

/** Searching with free text: the query embedder too (null: lexical-only). */
export interface TextSearchDeps extends SearchDeps {
  embedder: Embedder | null;
}

/** An account's usage and balance. */
export interface UsageDeps {
  accounts: Pick<AccountStore, 'usage' | 'getAccount'>;
  billing: BillingConfig;
}
