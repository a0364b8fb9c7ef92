import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

describe('clientAddress()', () => {
  it('uses the socket address when the peer is not a trusted proxy', () => {
    expect(clientAddress('::ffff:10.0.0.5', '1.2.3.4', 'https', [])).toEqual({ ip: '10.0.0.5', proto: 'http' });
  });

  it('takes the right-most untrusted X-Forwarded-For entry behind a trusted proxy', () => {
    expect(clientAddress('10.0.0.1', '6.6.6.6, 1.2.3.4, 10.0.0.2', 'https', ['10.0.0.1', '10.0.0.2'])).toEqual({
      ip: '1.2.3.4',
      proto: 'https',
    });
  });

  it('understands the loopback keyword', () => {
    expect(clientAddress('::1', '1.2.3.4', undefined, ['loopback'])).toEqual({ ip: '1.2.3.4', proto: 'http' });
  });

  it('trusts proxies by subnet (IPv4 and IPv6), and nothing outside it', () => {
    const trusted = ['172.16.0.0/12', 'fd00::/8'];
    expect(clientAddress('::ffff:172.18.0.7', '1.2.3.4', 'https', trusted)).toEqual({ ip: '1.2.3.4', proto: 'https' });
    expect(clientAddress('fd12::7', '1.2.3.4, 172.20.0.9', undefined, trusted)).toEqual({ ip: '1.2.3.4', proto: 'http' });
    expect(clientAddress('172.32.0.1', '1.2.3.4', undefined, trusted)).toEqual({ ip: '172.32.0.1', proto: 'http' });
  });
});
