/**
 * The API's own absolute base URL, for the links it writes (a job's `stream_url`, citation links):
 * PUBLIC_BASE_URL when set (behind a proxy or load balancer, the address clients use); otherwise the
 * address and port this request's connection reached, read from the connection itself. Never the Host
 * header: the client writes it, and a link built from it points wherever the client said (an attacker's
 * host in a job result another key of the account reads, or in a cache).
 */
import type { TLSSocket } from 'node:tls';
import type { Context } from 'koa';

export function publicBaseUrl(configured: string | null, ctx: Context): string {
  if (configured) return configured;
  const socket = ctx.req.socket;
  const scheme = (socket as TLSSocket).encrypted ? 'https' : 'http';
  return `${scheme}://${hostOf(socket.localAddress ?? '127.0.0.1')}:${socket.localPort ?? 80}`;
}

/** A local address as a URL host: an IPv4-mapped IPv6 address as IPv4, IPv6 in brackets without a zone. */
function hostOf(address: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1]!;
  return address.includes(':') ? `[${address.replace(/%.*$/, '')}]` : address;
}
