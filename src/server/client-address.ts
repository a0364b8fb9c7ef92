/**
 * The client's address and scheme: the socket's, unless the socket belongs to a trusted proxy, in
 * which case the right-most untrusted `X-Forwarded-For` entry (and its `X-Forwarded-Proto`).
 */

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
  const chain = forwardedFor.split(',').map((s) => normalize(s.trim())).filter(Boolean);
  let client = ip;
  for (let i = chain.length - 1; i >= 0; i--) {
    client = chain[i] as string;
    if (!isTrusted(client, trusted)) break;
  }
  const proto = forwardedProto?.split(',')[0]?.trim().toLowerCase();
  return { ip: client, proto: proto === 'https' ? 'https' : 'http' };
}

function isTrusted(ip: string, trusted: readonly string[]): boolean {
  return trusted.includes(ip) || (trusted.includes('loopback') && (ip === '127.0.0.1' || ip === '::1'));
}

/** `::ffff:127.0.0.1` → `127.0.0.1`. */
function normalize(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}
