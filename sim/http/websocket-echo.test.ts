import { describe, expect, it } from 'vitest';
import { websocketAccept } from './websocket-echo.ts';

describe('websocketAccept()', () => {
  it("computes RFC 6455 §1.3's example", () => {
    expect(websocketAccept('dGhlIHNhbXBsZSBub25jZQ==')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  });
});
