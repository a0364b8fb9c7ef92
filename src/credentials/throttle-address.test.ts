import { describe, expect, it } from 'vitest';
import { throttleAddress } from './throttle-address.ts';

describe('throttleAddress()', () => {
  it.each([
    ['2001:db8:1:2:aaaa:bbbb:cccc:1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::10.0.0.1', '64:ff9b:0:0::/64'],
  ])('counts IPv6 %s under its /64 %s', (ip, key) => {
    expect(throttleAddress(ip)).toBe(key);
  });

  it.each([
    ['10.0.0.1', '10.0.0.1'],
    ['::ffff:10.0.0.1', '10.0.0.1'],
    ['not an address', 'not an address'],
  ])('keeps %s as %s', (ip, key) => {
    expect(throttleAddress(ip)).toBe(key);
  });
});
