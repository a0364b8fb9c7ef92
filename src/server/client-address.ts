/**
 * The client's address and scheme: the socket's, unless the socket belongs to a trusted proxy, in
 * which case the right-most untrusted `X-Forwarded-For` entry (and its `X-Forwarded-Proto`).
 * Trusted proxies are addresses, subnets (`10.0.0.0/8`, `fd00::/8`: a load balancer whose address a
 * container network assigns) or `loopback`.
 */
import { BlockList, isIP } from 'node:net';

export interface ClientAddress {
  ip: string;
  proto: string;
}

/** Resolves the client behind `socketIp` given the forwarded headers and the trusted proxies. */
export function clientAddress(
  socketIp: string,
  forwardedFor: string | undefined,
  forwardedProto: string | undefined,
  trusted: readonly string[],
): ClientAddress {
  const ip = normalize(socketIp);
  if (!isTrusted(ip, trusted) || !forwardedFor) return { ip, proto: 'http' };
  const chain = forwardedFor
    .split(',')
    .map((s) => normalize(s.trim()))
    .filter(Boolean);
  let client = ip;
  for (let i = chain.length - 1; i >= 0; i--) {
    client = chain[i] as string;
    if (!isTrusted(client, trusted)) break;
  }
  const proto = forwardedProto?.split(',')[0]?.trim().toLowerCase();
  return { ip: client, proto: proto === 'https' ? 'https' : 'http' };
}

const subnetsOf = new WeakMap<readonly string[], BlockList>();

/** The subnets among the trusted entries, built once per list. */
function subnets(trusted: readonly string[]): BlockList {
  let list = subnetsOf.get(trusted);
  if (list === undefined) {
    list = new BlockList();
    for (const entry of trusted) {
      const [net, bits] = entry.split('/');
      const family = isIP(net ?? '');
      if (bits !== undefined && family !== 0 && /^\d+$/.test(bits)) list.addSubnet(net!, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
    }
    subnetsOf.set(trusted, list);
  }
  return list;
}

function isTrusted(ip: string, trusted: readonly string[]): boolean {
  if (trusted.length === 0) return false;
  if (trusted.includes(ip) || (trusted.includes('loopback') && (ip === '127.0.0.1' || ip === '::1'))) return true;
  const family = isIP(ip);
  return family !== 0 && subnets(trusted).check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

/** `::ffff:127.0.0.1` → `127.0.0.1`. */
function normalize(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}
