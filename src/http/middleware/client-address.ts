/**
 * The client address a request is throttled by when its credential fails (guard.ts, accounts/gate.ts).
 *
 * The peer of the connection, unless that peer is a proxy listed in TRUSTED_PROXIES: then
 * X-Forwarded-For is read from its right end, hop by hop, past the trusted proxies, and the first hop
 * that is not one of them is the client (as Express's `trust proxy` reads it). Koa's own reading
 * (app.proxy) trusts the header from anyone, who could then pick a fresh address per request; here
 * a client that reaches the API directly cannot move its own address. Behind a proxy that is not
 * listed, every client is the proxy's address.
 *
 * IPv6 clients are grouped by their /64: one host usually holds a whole /64 and could otherwise use a
 * fresh address per request. IPv4-mapped IPv6 addresses are read as IPv4.
 */
import { BlockList, isIP, type Socket } from 'node:net';
import type { Context } from 'koa';
import { parseAddressBlock } from '../../util/address-block.ts';

/** The throttle bucket of a client address's failed authentications (the guard's and the token route's). */
export const failureBucket = (address: string): string => `fail:${address}`;

/** A function giving each request's client address (a throttle bucket's name: see the header). */
export function clientAddresses(trustedProxies: readonly string[]): (ctx: Context) => string {
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const b = parseAddressBlock(entry);
    if (!b) throw new RangeError(`not an address or CIDR block: ${entry}`);
    trusted.addSubnet(b.address, b.prefix, b.family);
  }
  const isTrusted = (address: string) => trustedProxies.length > 0 && trusted.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  // The peer of a connection never changes: read once per connection.
  const peers = new WeakMap<Socket, { address: string; client: string }>();
  const peerOf = (socket: Socket) => {
    let p = peers.get(socket);
    if (!p) {
      const address = plain(socket.remoteAddress ?? '');
      p = { address, client: grouped(address) };
      peers.set(socket, p);
    }
    return p;
  };
  return (ctx) => {
    const peer = peerOf(ctx.req.socket);
    if (!isTrusted(peer.address)) return peer.client;
    const hops = ctx.get('X-Forwarded-For').split(',');
    let client = peer.address;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plain(withoutPort(hops[i]!.trim()));
      // Not an address (or none): the last hop read is as far as the proxies vouch for.
      if (isIP(hop) === 0) break;
      client = hop;
      if (!isTrusted(hop)) break;
    }
    return grouped(client);
  };
}

/** An IPv4-mapped IPv6 address as IPv4; an IPv6 address without its zone. */
function plain(address: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return v4 ? v4[1]! : address.replace(/%.*$/, '');
}

/** A forwarded hop without the port some proxies add ("203.0.113.7:5711", "[2001:db8::1]:443"). */
function withoutPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1]!;
  return /^\d+\.\d+\.\d+\.\d+:\d+$/.test(hop) ? hop.slice(0, hop.lastIndexOf(':')) : hop;
}

/** The address as a client: IPv4 as it is, IPv6 as its /64 ("2001:db8:1:2::/64"). */
function grouped(address: string): string {
  if (isIP(address) !== 6) return address;
  const hextets = expandIpv6(address);
  return `${hextets.slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of an IPv6 address (lower case, no leading zeros), an embedded IPv4 tail included. */
function expandIpv6(address: string): string[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((h) => parseInt(h, 16).toString(16));
}
