/** Address blocks as configured (TRUSTED_PROXIES): an IPv4 or IPv6 address, or a CIDR block of either. */
import { isIP } from 'node:net';

/** The block `text` names, or null when it is no address or CIDR block. */
export function parseAddressBlock(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  const v = isIP(address);
  if (v === 0 || rest.length > 0) return null;
  const max = v === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, family: v === 4 ? 'ipv4' : 'ipv6' };
}
