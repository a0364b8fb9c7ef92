import { describe, expect, it } from 'vitest';
import { childGatewayEnv } from './child-gateway.ts';

describe('childGatewayEnv()', () => {
  it("keeps the test run's environment but none of the gateway's own settings", () => {
    const env = childGatewayEnv({
      PATH: '/usr/bin',
      REDIS_URL: 'redis://elsewhere:6380',
      STATE_SECRET_FILE: '/x',
      PORT: '1',
      HOME: '/root',
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/root' });
  });
});
