/**
 * Baseline for bench/opensearch-client.ts: the adapter's way to OpenSearch before the official client,
 * kept only to be measured against it. node:http (node:https for an https URL) to one URL, keep-alive
 * connections, no `accept-encoding`, the answer parsed with JSON.parse; no node list, failover,
 * sniffing, TLS options or request signing. Plugs into client.ts through OsClientOptions.transport.
 */
import http from 'node:http';
import https from 'node:https';
import { NodeFailure, type NodeAnswer, type NodeRequest, type NodeTransport } from '../../src/engines/opensearch/cluster-transport.ts';

const TRANSIENT = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function createHttpTransport(baseUrl: string): NodeTransport {
  const root = baseUrl.replace(/\/+$/, '');
  const secure = new URL(root).protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const send = secure ? https.request : http.request;
  let closed = false;
  return {
    get closed() {
      return closed;
    },
    hasLivingNode: () => false,
    send(r: NodeRequest) {
      if (closed) return Promise.reject(new NodeFailure('closed', false, 'CLOSED'));
      return new Promise<NodeAnswer>((resolve, reject) => {
        let settled = false;
        const headers: Record<string, string | number> = { accept: 'application/json' };
        if (r.body !== undefined) {
          headers['content-type'] = r.ndjson ? 'application/x-ndjson' : 'application/json';
          headers['content-length'] = Buffer.byteLength(r.body);
        }
        const url = `${root}${r.path}${r.querystring ? `?${r.querystring}` : ''}`;
        const req = send(url, { method: r.method, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', fail);
          res.on('close', () => {
            if (!res.complete) fail(Object.assign(new Error('the connection closed before the whole answer arrived'), { code: 'ECONNRESET' }));
          });
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
            let body: unknown = text;
            if (text && (res.headers['content-type'] ?? '').includes('json')) {
              try {
                body = JSON.parse(text);
              } catch {
                body = text;
              }
            }
            const h = res.headers;
            resolve({ status: res.statusCode ?? 0, body, header: (name) => (Array.isArray(h[name]) ? h[name].join(', ') : (h[name] as string | undefined)) });
          });
        });
        function fail(e: NodeJS.ErrnoException) {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(new NodeFailure(e.message, e.name === 'TimeoutError' || TRANSIENT.has(e.code ?? ''), e.code));
        }
        const timer = setTimeout(() => {
          const e = Object.assign(new Error(`no answer within ${r.timeoutMs} ms`), { name: 'TimeoutError' });
          fail(e);
          req.destroy(e);
        }, r.timeoutMs);
        req.on('error', fail);
        req.end(r.body);
      });
    },
    close() {
      closed = true;
      agent.destroy();
    },
  };
}
