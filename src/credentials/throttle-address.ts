/**
 * The address the login throttle counts under: an IPv4 address as it is, an IPv6 address by its /64
 *. One subscriber, one LAN or one host usually gets a whole /64, and any address in it
 * can be used at will, so counting per full IPv6 address would give such a client 2^64 fresh starts.
 * IPv4-mapped IPv6 (`::ffff:10.0.0.1`) counts as its IPv4 address.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** `2001:db8:1:2:aaaa::1` → `2001:db8:1:2::/64`; IPv4 and anything unparsable unchanged. */
export function throttleAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped !== null) return mapped[1] as string;
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const groups = expand(ip.replace(/%.*$/, ''));
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail as two groups). */
function expand(ip: string): string[] {
  let text = ip.toLowerCase();
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (v4 !== null) {
    const [a, b, c, d] = (v4[1] as string).split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -(v4[1] as string).length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...fill, ...right];
}
