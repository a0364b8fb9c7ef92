/**
 * The call's database enters once (docs/architecture.md §1, "A fact enters once"): the legacy
 * service that decodes it names it in the call before anything else is checked, and what serves the
 * call (the credentials, the JSON-2 requests) reads it from there. The report still names no
 * identity for a call refused before its caller was given.
 */
import { describe, expect, it } from 'vitest';
import { callDatabase, type CallOrigin } from '../call.ts';
import type { Credentials } from '../credentials/index.ts';
import { accessError } from '../errors.ts';
import { createCallIdentities } from '../report/call-identity.ts';
import { createSignatureResolver } from '../signatures/resolver.ts';
import type { Json2Call, Upstream } from '../upstream/index.ts';
import type { Value } from '../value.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';
import { createCommonService } from './common.ts';
import { createObjectService } from './object.ts';
import type { VersionCache } from './version-cache.ts';

/** Records, for each thing asked, the database the call named when it was asked. */
function layers() {
  const seen: string[] = [];
  const upstream = {
    json2: (call: Json2Call) => {
      seen.push(`json2 ${call.db} ${call.model}.${call.method}`);
      if (call.method === 'context_get') return Promise.resolve(new Map([['lang', 'en_US']]));
      // the model probe's private name: 403, so the model exists
      if (call.method.startsWith('_')) return Promise.reject(accessError('Private methods cannot be called remotely.'));
      return Promise.resolve([1]);
    },
    json2Text: (call: Json2Call) => {
      seen.push(`json2 ${call.db} ${call.model}.${call.method}`);
      return Promise.resolve({ json: '[1]', value: () => [1] });
    },
  } as unknown as Upstream;
  const credentials: Pick<Credentials, 'callAs' | 'authenticate' | 'probeDatabase'> = {
    callAs: (uid, _password, origin, call) => (seen.push(`callAs ${callDatabase(origin)} ${uid}`), call('k')),
    authenticate: async (login, _password, origin) => (seen.push(`authenticate ${callDatabase(origin)} ${login}`), 7),
    probeDatabase: async (targetDatabase) => void seen.push(`probe ${targetDatabase}`),
  };
  const object = createObjectService({ upstream, credentials: credentials as Credentials, signatures: createSignatureResolver() });
  const common = createCommonService({ upstream, credentials: credentials as Credentials, versions: {} as VersionCache });
  return { seen, object, common };
}

const executeKw = (params: Value[]) => ({ service: 'object', method: 'execute_kw', dialect: 'xmlrpc2' as const, params });

describe("the call's database", () => {
  it('reaches the credentials and every JSON-2 request of an execute_kw from the call itself', async () => {
    const { seen, object } = layers();
    const origin = testCallOrigin();
    await object(executeKw(['gw2', 5, 'pw', 'res.partner', 'search', [[]]]), origin);
    expect(callDatabase(origin)).toBe('gw2');
    expect(seen[0]).toBe('callAs gw2 5');
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.filter((line) => line.startsWith('json2 ') && !line.startsWith('json2 gw2 '))).toEqual([]);
  });

  it('is named before the arguments are checked: a call refused early still says which database it called', async () => {
    const { seen, object } = layers();
    const origin: CallOrigin = testCallOrigin();
    await expect(object(executeKw(['gw2', 5, 'pw', 'res.partner', 'search', [], new Map(), 'extra']), origin)).rejects.toMatchObject({
      message: 'too many values to unpack (expected 2)',
    });
    expect([callDatabase(origin), seen]).toEqual(['gw2', ['probe gw2']]);
    // no caller was given yet: the report names no identity for it, as before the database was named early
    expect(createCallIdentities().of(origin)).toBeUndefined();
  });

  it("reaches common.login's credentials from the call, and the report names the login's identity", async () => {
    const { seen, common } = layers();
    const origin = testCallOrigin();
    expect(await common({ service: 'common', method: 'login', dialect: 'xmlrpc2', params: ['gw2', 'demo', 'pw'] }, origin)).toBe(7);
    expect(seen).toEqual(['authenticate gw2 demo']);
    expect(createCallIdentities().of(origin)?.database).toBe('gw2');
  });
});
