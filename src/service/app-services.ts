/** What the composition root builds (src/composition.ts): the adapters it chose, handed to the HTTP and GraphQL adapters, the job workers and the CLI. */
import type { Gate } from '../accounts/gate.ts';
import type { AccountStore, Throttle } from '../accounts/port.ts';
import type { TokenService } from '../accounts/tokens.ts';
import type { CatalogProvider } from '../catalog/view.ts';
import type { Config } from '../config.ts';
import type { Embedder } from '../embeddings/port.ts';
import type { VectorFillProgress } from '../embeddings/vector-fill.ts';
import type { SearchEngine } from '../engines/port.ts';
import type { Logger } from '../log.ts';
import type { AiProvider } from '../ai/port.ts';
import type { JobStore } from '../jobs/port.ts';
import type { Services } from './services.ts';

/**
 * The use cases (`parts`, `categories`, `manufacturers`, `lists`, `attributes`, `usage`, `jobs`: services.ts) and the
 * adapters under them. The REST routes and GraphQL resolvers call the use cases; the guard, the job
 * workers and the CLI use the adapters.
 */
export interface AppServices extends Services {
  config: Config;
  engine: SearchEngine;
  /** In-memory view of the live catalogue snapshot (taxonomy, manufacturers, lists, matchers). */
  catalog: CatalogProvider;
  embedder: Embedder | null;
  /** Why search is hybrid or lexical-only. */
  embedderMessage: string;
  /** The vector fill this process runs in the background (serve), for diagnostics; absent elsewhere. */
  vectorFill?: { status(): Readonly<VectorFillProgress> | null };
  log: Logger;
  accounts: AccountStore;
  throttle: Throttle;
  /**
   * Admission (throttle + key + request count) in one step; absent: composed from `accounts` and
   * `throttle` (createGate). The Redis composition sets a one-round-trip gate.
   */
  gate?: Gate;
  /** Issues and verifies the OAuth2 access tokens standing for API keys (POST /connect/token). */
  tokens: TokenService;
  /** The AI jobs' store (and queue). */
  jobStore: JobStore;
  aiProvider: AiProvider;
}
