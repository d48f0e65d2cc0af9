/**
 * How the adapter reaches an OpenSearch cluster and how it lays out the parts index: plain data, read
 * from the configuration (src/config.ts) and given to createOpenSearchEngine. No client in here.
 */

/** Authentication sent with every request. */
export type OpenSearchAuth =
  | { kind: 'basic'; username: string; password: string }
  /**
   * AWS Signature V4 (Amazon OpenSearch Service: service `es`; Serverless: `aoss`). Without static
   * credentials the AWS SDK's default chain is used (@aws-sdk/credential-provider-node, when installed).
   */
  | {
      kind: 'aws';
      region: string;
      service: 'es' | 'aoss';
      credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null;
    };

export interface OpenSearchTls {
  /** PEM file of the certificate authorities to trust (else the system's). */
  caFile: string | null;
  /** PEM files of a client certificate and its key (mutual TLS). */
  certFile: string | null;
  keyFile: string | null;
  /** Whether the nodes' certificates are verified (false: accepted whatever they are). */
  verify: boolean;
}

export interface OpenSearchConnection {
  /** Base URLs of the nodes first contacted (no credentials in them); requests go round-robin. */
  nodes: string[];
  auth: OpenSearchAuth | null;
  tls: OpenSearchTls;
  /**
   * Sniffing: learn the cluster's nodes from `_nodes/_all/http` at start and after a connection
   * failure, and again every intervalMs (null: never on a timer). null: only `nodes` are used.
   */
  sniff: { intervalMs: number | null } | null;
  /** Time limit of one request to one node (ms). */
  requestTimeoutMs: number;
  /** Attempts after the first when a request fails for a reason that may pass. */
  retries: number;
}

/** The layout of each parts index version. */
export interface OpenSearchIndexLayout {
  shards: number;
  /** A number of replicas ("1"), or an auto-expand range as OpenSearch writes it ("0-1", "0-all"). */
  replicas: string;
  /** How long a load waits for its version's shard copies before it gives up (ms). */
  healthTimeoutMs: number;
}

export const DEFAULT_TLS: OpenSearchTls = Object.freeze({ caFile: null, certFile: null, keyFile: null, verify: true });

export const DEFAULT_LAYOUT: OpenSearchIndexLayout = Object.freeze({ shards: 1, replicas: '0-1', healthTimeoutMs: 300_000 });

/** Whether `v` is a replica setting OpenSearch takes: a whole number, or "min-max" / "min-all". */
export function isReplicaSetting(v: string): boolean {
  const m = /^(\d+)(?:-(\d+|all))?$/.exec(v);
  if (!m) return false;
  return m[2] === undefined || m[2] === 'all' || Number(m[2]) >= Number(m[1]);
}

/**
 * One URL or a comma-separated list: each URL without trailing slashes, credentials taken out. The
 * credentials (the same on every URL that has any) come back apart, for Basic auth.
 */
export function parseNodeList(value: string): { nodes: string[]; credentials: { username: string; password: string } | null } {
  const nodes: string[] = [];
  let credentials: { username: string; password: string } | null = null;
  for (const raw of value.split(',').map((s) => s.trim())) {
    if (raw === '') continue;
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`must use http: or https:, got "${u.protocol}"`);
    if (u.username || u.password) {
      const c = { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
      if (credentials && (credentials.username !== c.username || credentials.password !== c.password)) {
        throw new TypeError('names different credentials on different nodes; give one user (OPENSEARCH_USERNAME/OPENSEARCH_PASSWORD)');
      }
      credentials = c;
      u.username = '';
      u.password = '';
    }
    nodes.push(u.toString().replace(/\/+$/, ''));
  }
  if (nodes.length === 0) throw new TypeError('names no node');
  return { nodes, credentials };
}

/** The connection to a plain (no TLS options, no sniffing) list of nodes given as one string. */
export function connectionFromUrl(value: string, over: Partial<OpenSearchConnection> = {}): OpenSearchConnection {
  const { nodes, credentials } = parseNodeList(value);
  return {
    nodes,
    auth: credentials ? { kind: 'basic', ...credentials } : null,
    tls: DEFAULT_TLS,
    sniff: null,
    requestTimeoutMs: 120_000,
    retries: 5,
    ...over,
  };
}
