import { describe, expect, it } from 'vitest';
import { LegacyError } from '../errors.ts';
import { backupKindOf, cleanBase64 } from './restore-payload.ts';

describe('cleanBase64()', () => {
  it.each([
    ['UEsDBA==', 'UEsDBA=='],
    ['UEsD\nBA==\n', 'UEsDBA=='],
    ['UE sD-BA*==', 'UEsDBA=='],
    ['UEsDBA===', 'UEsDBA=='],
  ])('reads %j as %j (characters outside the alphabet dropped)', (input, output) => {
    expect(cleanBase64(input)).toBe(output);
  });

  it.each([
    ['UEsDB', 'binascii.Error: Invalid base64-encoded string: number of data characters (5) cannot be 1 more than a multiple of 4'],
    ['UEsDBA', 'binascii.Error: Incorrect padding'],
    ['UEsDBA=', 'binascii.Error: Incorrect padding'],
    ['UEsD BA', 'binascii.Error: Incorrect padding'],
  ])('refuses %j as Python does', (input, lastLine) => {
    let err: unknown;
    try {
      cleanBase64(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LegacyError);
    expect((err as LegacyError).lastLine).toBe(lastLine);
  });
});

describe('backupKindOf()', () => {
  it.each([
    [Buffer.from('PK\u0003\u0004rest').toString('base64'), 'zip'],
    [Buffer.from('PK\u0003\u0004').toString('base64'), 'zip'],
    [Buffer.from('PGDMP\u0001\u000e').toString('base64'), 'dump'],
    [Buffer.from('not a dump').toString('base64'), undefined],
    [Buffer.from('PK\u0005\u0006').toString('base64'), undefined],
    ['', undefined],
  ])('%s is %s', (base64, kind) => {
    expect(backupKindOf(base64)).toBe(kind);
  });
});
