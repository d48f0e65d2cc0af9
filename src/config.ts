/**
 * Configuration: read once from the environment (and an optional `.env` file), validated, typed and
 * frozen. A bad value stops start-up with a message naming the variable. Every key is documented in
 * `.env.example`; this file is the single source of defaults.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_PRICES_USD, micros, type BillingConfig } from './accounts/billing.ts';
import { USAGE_CLASSES, type UsageClass } from './accounts/port.ts';
import { DEFAULT_TOKEN_TTL_SECONDS } from './accounts/tokens.ts';
import { DEFAULT_QUERY_CACHE } from './embeddings/query-cache.ts';
import { DEFAULT_CACHE_KEEP } from './embeddings/vector-cache.ts';
import { DEFAULT_RECORD_CACHE } from './engines/port.ts';
import { parseAddressBlock } from './util/address-block.ts';
import {
  DEFAULT_LAYOUT,
  isReplicaSetting,
  parseNodeList,
  type OpenSearchAuth,
  type OpenSearchConnection,
  type OpenSearchIndexLayout,
} from './engines/opensearch/options.ts';
import { PROJECT_ROOT } from './util/project.ts';

export type EngineKind = 'sqlite' | 'opensearch';

export interface Config {
  /** HTTP port of the API. */
  readonly port: number;
  /** Interface the API binds to. */
  readonly host: string;
  /** Folder for the SQLite database, rejects reports and the generated sample catalogue. */
  readonly dataDir: string;
  /** Search engine behind the engine port. */
  readonly engine: EngineKind;
  /**
   * OpenSearch node URLs as given, comma-separated, trailing slashes trimmed (used when
   * engine=opensearch, and by the OpenSearch test suites).
   */
  readonly opensearchUrl: string | null;
  /** How to reach the cluster (nodes, auth, TLS, sniffing, retries) and the parts index layout; null without OPENSEARCH_URL. */
  readonly opensearch: {
    readonly connection: OpenSearchConnection;
    readonly layout: OpenSearchIndexLayout;
    /** Shard copies searches prefer (OpenSearch's `preference`); null: adaptive replica selection. */
    readonly searchPreference: string | null;
  } | null;
  /** Prefix of every OpenSearch index and alias this service owns. */
  readonly opensearchIndexPrefix: string;
  /** Segments a loaded OpenSearch version is merged down to before it goes live (0: left as loaded). */
  readonly opensearchMergeSegments: number;
  /** Redis URL; when set, accounts, keys, the ledger and the throttle live in Redis. */
  readonly redisUrl: string | null;
  /** Prefix of every Redis key this service owns. */
  readonly redisPrefix: string;
  /** Folder with an ONNX sentence-embedding model and its tokenizer (transformers.js layout). */
  readonly embeddingModelDir: string | null;
  /** Hub model id tried when no folder is configured (only when the hub is reachable). */
  readonly embeddingModelId: string | null;
  /** Texts per embedding batch. */
  readonly embeddingBatchSize: number;
  /**
   * Threads of one forward pass (onnxruntime intra-op threads); null: 1 for the API (one short query
   * at a time, beside the thread serving requests), every core for bulk embedding (ingest).
   */
  readonly embeddingThreads: number | null;
  /** Query embeddings the API keeps for queries asked again (embeddings/query-cache.ts; 0 keeps none). */
  readonly embeddingQueryCache: number;
  /** File of the part vectors kept across ingests (embeddings/vector-cache.ts); null: none kept, every ingest embeds every part. */
  readonly embeddingCacheFile: string | null;
  /** Successful ingests whose vectors the cache keeps. */
  readonly embeddingCacheKeep: number;
  /** SQLite engine: parsed part records kept for reuse (RECORD_CACHE_SIZE; 0 keeps none). */
  readonly recordCacheSize: number;
  /** Log level. */
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Prices, quotas, request cap and default throttle. */
  readonly billing: BillingConfig;
  /** Secret mixed into stored key hashes (HMAC); null: a per-data-dir secret file is used. */
  readonly keyPepper: string | null;
  /** Lifetime of the OAuth2 access tokens POST /connect/token issues, seconds. */
  readonly accessTokenTtlSeconds: number;
  /** AI provider of the jobs: local rules (no LLM, no key) or an OpenAI-compatible endpoint. */
  readonly llmProvider: 'local' | 'openai';
  /** OpenAI-compatible base URL (e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1). */
  readonly llmBaseUrl: string | null;
  readonly llmApiKey: string | null;
  readonly llmModel: string;
  /** Sampling temperature sent with each LLM call; null sends none (reasoning models refuse one). */
  readonly llmTemperature: number | null;
  /** Most LLM tokens one AI job may use; its price is held at creation. */
  readonly aiTokenBudget: number;
  /** Job workers in the API process (0: only `partsearch worker` processes run jobs). */
  readonly jobWorkers: number;
  /**
   * Proxies (addresses or CIDR blocks) whose X-Forwarded-For names the client, for throttling failed
   * authentications per client address (http/middleware/client-address.ts); empty: the connection's peer.
   */
  readonly trustedProxies: readonly string[];
  /** Absolute base URL of the API as clients reach it (stream_url, citation links); null: the address the connection reached (http/public-url.ts). */
  readonly publicBaseUrl: string | null;
  /**
   * Exchange rates for GraphQL's converted prices: units of each currency per US dollar (USD is 1).
   * A currency without a rate is not converted into (the answer says so).
   */
  readonly currencyRates: Readonly<Record<string, number>>;
  /** GET /graphql serves the interactive explorer to browsers. */
  readonly graphqlExplorer: boolean;
  /** GET /graphql?query=... runs read-only queries. */
  readonly graphqlGet: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v.trim() === '' ? null : v.trim();
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === null) return def;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be a whole number, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], def: T): T {
  const v = str(env, name);
  if (v === null) return def;
  const lower = v.toLowerCase() as T;
  if (!values.includes(lower)) throw new ConfigError(name, `must be one of ${values.join(', ')}, got "${v}"`);
  return lower;
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const v = str(env, name);
  if (v === null) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${v}"`);
  }
  if (!protocols.includes(u.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${u.protocol}"`);
  }
  return v.replace(/\/+$/, '');
}

/** A comma-separated list of addresses and CIDR blocks ("10.0.0.0/8, ::1"). */
function addressBlocks(env: Env, name: string): readonly string[] {
  const v = str(env, name);
  if (v === null) return Object.freeze([]);
  const out = v
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  for (const x of out) if (!parseAddressBlock(x)) throw new ConfigError(name, `must list IP addresses or CIDR blocks, got "${x}"`);
  return Object.freeze(out);
}

/** "class=value,class=value" over the usage classes, each value a non-negative number. */
function classTable(env: Env, name: string): Partial<Record<UsageClass, number>> {
  const v = str(env, name);
  const out: Partial<Record<UsageClass, number>> = {};
  if (v === null) return out;
  for (const item of v.split(',')) {
    const m = /^\s*([a-z_]+)\s*=\s*([0-9]*\.?[0-9]+)\s*$/.exec(item);
    if (!m) throw new ConfigError(name, `must look like "part_records=0.002,ai_tokens=0.01", got "${item.trim()}"`);
    const cls = m[1] as UsageClass;
    if (!USAGE_CLASSES.includes(cls)) throw new ConfigError(name, `names an unknown class "${cls}" (known: ${USAGE_CLASSES.join(', ')})`);
    out[cls] = Number(m[2]);
  }
  return out;
}

function bool(env: Env, name: string, def: boolean): boolean {
  const v = str(env, name);
  if (v === null) return def;
  const lower = v.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
  if (['0', 'false', 'no', 'off'].includes(lower)) return false;
  throw new ConfigError(name, `must be true or false, got "${v}"`);
}

/** "EUR=0.92,GBP=0.79": units of each currency (three letters) per US dollar. */
function currencyRates(env: Env): Readonly<Record<string, number>> {
  const v = str(env, 'CURRENCY_RATES');
  const out: Record<string, number> = { USD: 1 };
  for (const item of v === null ? [] : v.split(',')) {
    const m = /^\s*([A-Za-z]{3})\s*=\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*$/.exec(item);
    if (!m || !(Number(m[2]) > 0))
      throw new ConfigError('CURRENCY_RATES', `must look like "EUR=0.92,GBP=0.79" (per US dollar, positive), got "${item.trim()}"`);
    out[m[1]!.toUpperCase()] = m[1]!.toUpperCase() === 'USD' ? 1 : Number(m[2]);
  }
  return Object.freeze(out);
}

function redisPrefix(env: Env): string {
  const v = str(env, 'REDIS_KEY_PREFIX') ?? 'partsearch:';
  if (!/^[A-Za-z0-9:_.-]+$/.test(v)) throw new ConfigError('REDIS_KEY_PREFIX', `must be letters, digits or :_.-, got "${v}"`);
  return v;
}

function llm(env: Env): Pick<Config, 'llmProvider' | 'llmBaseUrl' | 'llmApiKey' | 'llmModel' | 'llmTemperature'> {
  const llmProvider = oneOf(env, 'LLM_PROVIDER', ['local', 'openai'] as const, 'local');
  const llmBaseUrl = url(env, 'LLM_BASE_URL', ['http:', 'https:']);
  const llmApiKey = str(env, 'LLM_API_KEY');
  const llmModel = str(env, 'LLM_MODEL') ?? 'gpt-4o-mini';
  if (llmProvider === 'openai' && llmBaseUrl === null) throw new ConfigError('LLM_BASE_URL', 'is required when LLM_PROVIDER=openai');
  const t = str(env, 'LLM_TEMPERATURE');
  let llmTemperature: number | null = 0;
  if (t !== null && t.toLowerCase() === 'none') llmTemperature = null;
  else if (t !== null) {
    llmTemperature = Number(t);
    if (!/^\d+(\.\d+)?$/.test(t) || llmTemperature > 2) throw new ConfigError('LLM_TEMPERATURE', `must be a number from 0 to 2, or none, got "${t}"`);
  }
  return { llmProvider, llmBaseUrl, llmApiKey, llmModel, llmTemperature };
}

function file(env: Env, name: string): string | null {
  const v = str(env, name);
  if (v === null) return null;
  const f = path.resolve(v);
  if (!fs.existsSync(f)) throw new ConfigError(name, `names a file that does not exist: ${f}`);
  return f;
}

/** OPENSEARCH_*: the cluster's nodes, auth, TLS, sniffing, retries, and the parts index layout. */
function opensearchSettings(env: Env): Config['opensearch'] {
  const raw = str(env, 'OPENSEARCH_URL');
  if (raw === null) return null;
  let list: ReturnType<typeof parseNodeList>;
  try {
    list = parseNodeList(raw);
  } catch (e) {
    const why = (e as Error).message;
    throw new ConfigError(
      'OPENSEARCH_URL',
      why.startsWith('must') || why.startsWith('names') ? why : `must be a URL or a comma-separated list of URLs, got "${raw}"`,
    );
  }
  const username = str(env, 'OPENSEARCH_USERNAME');
  const password = env.OPENSEARCH_PASSWORD ?? null;
  if ((username === null) !== (password === null))
    throw new ConfigError(username === null ? 'OPENSEARCH_USERNAME' : 'OPENSEARCH_PASSWORD', 'is required with the other (Basic auth)');
  if (username !== null && list.credentials) throw new ConfigError('OPENSEARCH_USERNAME', 'and credentials in OPENSEARCH_URL: give one of them');
  const region = str(env, 'OPENSEARCH_AWS_REGION');
  const service = oneOf(env, 'OPENSEARCH_AWS_SERVICE', ['es', 'aoss'] as const, 'es');
  let auth: OpenSearchAuth | null = list.credentials ? { kind: 'basic', ...list.credentials } : null;
  if (username !== null) auth = { kind: 'basic', username, password: password! };
  if (region !== null) {
    if (auth) throw new ConfigError('OPENSEARCH_AWS_REGION', 'signs requests with AWS SigV4: drop the Basic auth credentials');
    if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) throw new ConfigError('OPENSEARCH_AWS_REGION', `must be an AWS region such as eu-west-1, got "${region}"`);
    const accessKeyId = str(env, 'AWS_ACCESS_KEY_ID');
    const secretAccessKey = str(env, 'AWS_SECRET_ACCESS_KEY');
    if ((accessKeyId === null) !== (secretAccessKey === null))
      throw new ConfigError(accessKeyId === null ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY', 'is required with the other');
    const sessionToken = str(env, 'AWS_SESSION_TOKEN') ?? undefined;
    auth = {
      kind: 'aws',
      region,
      service,
      credentials: accessKeyId ? { accessKeyId, secretAccessKey: secretAccessKey!, ...(sessionToken ? { sessionToken } : {}) } : null,
    };
  }
  const certFile = file(env, 'OPENSEARCH_TLS_CERT_FILE');
  const keyFile = file(env, 'OPENSEARCH_TLS_KEY_FILE');
  if ((certFile === null) !== (keyFile === null))
    throw new ConfigError(certFile === null ? 'OPENSEARCH_TLS_CERT_FILE' : 'OPENSEARCH_TLS_KEY_FILE', 'is required with the other (client certificate)');
  const sniff = bool(env, 'OPENSEARCH_SNIFF', false);
  if (sniff && auth?.kind === 'aws')
    throw new ConfigError('OPENSEARCH_SNIFF', 'cannot be on with AWS SigV4: a managed domain is reached through its endpoint only');
  const sniffSeconds = int(env, 'OPENSEARCH_SNIFF_INTERVAL', 300, 0, 86_400);
  const replicas = str(env, 'OPENSEARCH_REPLICAS') ?? DEFAULT_LAYOUT.replicas;
  if (!isReplicaSetting(replicas)) throw new ConfigError('OPENSEARCH_REPLICAS', `must be a whole number or a range such as 0-1 or 0-all, got "${replicas}"`);
  const preference = str(env, 'OPENSEARCH_SEARCH_PREFERENCE') ?? '_local';
  if (!/^[A-Za-z0-9_:,.|*-]+$/.test(preference))
    throw new ConfigError('OPENSEARCH_SEARCH_PREFERENCE', `must be an OpenSearch preference such as _local, or none, got "${preference}"`);
  return Object.freeze({
    searchPreference: preference.toLowerCase() === 'none' ? null : preference,
    connection: Object.freeze({
      nodes: list.nodes,
      auth,
      tls: Object.freeze({ caFile: file(env, 'OPENSEARCH_TLS_CA_FILE'), certFile, keyFile, verify: bool(env, 'OPENSEARCH_TLS_VERIFY', true) }),
      sniff: sniff ? { intervalMs: sniffSeconds === 0 ? null : sniffSeconds * 1000 } : null,
      requestTimeoutMs: int(env, 'OPENSEARCH_REQUEST_TIMEOUT', 120, 1, 3600) * 1000,
      retries: int(env, 'OPENSEARCH_RETRIES', 5, 0, 100),
    }),
    layout: Object.freeze({
      shards: int(env, 'OPENSEARCH_SHARDS', DEFAULT_LAYOUT.shards, 1, 1024),
      replicas,
      healthTimeoutMs: int(env, 'OPENSEARCH_HEALTH_TIMEOUT', DEFAULT_LAYOUT.healthTimeoutMs / 1000, 1, 86_400) * 1000,
    }),
  });
}

/** The model folder the project's own script provides, used when EMBEDDING_MODEL_DIR is unset. */
export const DEFAULT_MODEL_DIR = path.join(PROJECT_ROOT, 'models', 'all-MiniLM-L6-v2');

export function loadConfig(env: Env = process.env): Config {
  const engine = oneOf(env, 'SEARCH_ENGINE', ['sqlite', 'opensearch'] as const, 'sqlite');
  const opensearch = opensearchSettings(env);
  const opensearchUrl = opensearch
    ? str(env, 'OPENSEARCH_URL')!
        .split(',')
        .map((u) => u.trim().replace(/\/+$/, ''))
        .filter(Boolean)
        .join(',')
    : null;
  if (engine === 'opensearch' && opensearchUrl === null) {
    throw new ConfigError('OPENSEARCH_URL', 'is required when SEARCH_ENGINE=opensearch');
  }
  const modelDir = str(env, 'EMBEDDING_MODEL_DIR');
  let embeddingModelDir: string | null;
  if (modelDir === null) embeddingModelDir = fs.existsSync(DEFAULT_MODEL_DIR) ? DEFAULT_MODEL_DIR : null;
  else if (modelDir.toLowerCase() === 'none') embeddingModelDir = null;
  else {
    embeddingModelDir = path.resolve(modelDir);
    if (!fs.existsSync(embeddingModelDir)) {
      throw new ConfigError('EMBEDDING_MODEL_DIR', `names a folder that does not exist: ${embeddingModelDir}`);
    }
  }
  const prefix = str(env, 'OPENSEARCH_INDEX_PREFIX') ?? 'partsearch';
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(prefix)) {
    throw new ConfigError('OPENSEARCH_INDEX_PREFIX', `must be lower-case letters, digits, - or _, got "${prefix}"`);
  }
  const hubId = str(env, 'EMBEDDING_MODEL_ID');
  const dataDir = path.resolve(str(env, 'PARTSEARCH_DATA_DIR') ?? './data');
  const cacheFile = str(env, 'EMBEDDING_CACHE');
  return Object.freeze({
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST') ?? '127.0.0.1',
    dataDir,
    engine,
    opensearchUrl,
    opensearch,
    opensearchIndexPrefix: prefix,
    opensearchMergeSegments: int(env, 'OPENSEARCH_MERGE_SEGMENTS', 1, 0, 1000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: redisPrefix(env),
    embeddingModelDir,
    embeddingModelId: hubId === null || hubId.toLowerCase() === 'none' ? null : hubId,
    embeddingBatchSize: int(env, 'EMBEDDING_BATCH_SIZE', 64, 1, 1024),
    embeddingThreads: str(env, 'EMBEDDING_THREADS') === null ? null : int(env, 'EMBEDDING_THREADS', 1, 1, 256),
    embeddingQueryCache: int(env, 'EMBEDDING_QUERY_CACHE', DEFAULT_QUERY_CACHE, 0, 1_000_000),
    embeddingCacheFile: cacheFile === null ? path.join(dataDir, 'embedding-cache.db') : cacheFile.toLowerCase() === 'none' ? null : path.resolve(cacheFile),
    embeddingCacheKeep: int(env, 'EMBEDDING_CACHE_KEEP', DEFAULT_CACHE_KEEP, 1, 1000),
    recordCacheSize: int(env, 'RECORD_CACHE_SIZE', DEFAULT_RECORD_CACHE, 0, 10_000_000),
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info'),
    billing: Object.freeze({
      prices: Object.freeze(
        Object.fromEntries(Object.entries({ ...DEFAULT_PRICES_USD, ...classTable(env, 'PRICES_USD') }).map(([k, v]) => [k, micros(v)])) as Record<
          UsageClass,
          number
        >,
      ),
      quotas: Object.freeze(classTable(env, 'MONTHLY_QUOTAS')),
      monthlyRequestCap: int(env, 'MONTHLY_REQUEST_CAP', 100_000, 1, 1_000_000_000),
      defaultRateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    }),
    keyPepper: str(env, 'PARTSEARCH_KEY_PEPPER'),
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', DEFAULT_TOKEN_TTL_SECONDS, 60, 30 * 86_400),
    ...llm(env),
    aiTokenBudget: int(env, 'AI_JOB_TOKEN_BUDGET', 20_000, 1, 10_000_000),
    jobWorkers: int(env, 'JOB_WORKERS', 2, 0, 64),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']),
    trustedProxies: addressBlocks(env, 'TRUSTED_PROXIES'),
    currencyRates: currencyRates(env),
    graphqlExplorer: bool(env, 'GRAPHQL_EXPLORER', true),
    graphqlGet: bool(env, 'GRAPHQL_GET', true),
  });
}

/** Loads `.env` from the working directory into process.env (variables already set win). */
export function loadDotEnv(file = path.resolve('.env')): void {
  if (!fs.existsSync(file)) return;
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    const [, key, raw] = m as unknown as [string, string, string];
    if (process.env[key] === undefined) process.env[key] = raw.replace(/^(['"])(.*)\1$/, '$2');
  }
}
