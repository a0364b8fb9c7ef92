import { describe, expect, it } from 'vitest';
import { LegacyError } from '../errors.ts';
import type { Json2Call, Upstream } from '../upstream/index.ts';
import type { Value } from '../value.ts';
import { createRpcPolicy, policyTtlMs } from './rpc-policy.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const origin = testCallOrigin({ ip: '10.0.0.7', userAgent: 'Python-xmlrpc/3.11', database: 'gw' });

/** An upstream whose ir.module.module / ir.model answers are the given rows (or a thrown error). */
function fakeUpstream(answers: { modules: Value | LegacyError; configs?: Record<string, string> }) {
  const calls: Json2Call[] = [];
  const upstream = {
    async json2(call: Json2Call) {
      calls.push(call);
      if (call.model === 'ir.module.module') {
        if (answers.modules instanceof LegacyError) throw answers.modules;
        return answers.modules;
      }
      return Object.entries(answers.configs ?? {}).map(
        ([model, text]) =>
          new Map<string, Value>([
            ['model', model],
            ['rpc_config_edit', text],
          ]),
      );
    },
  } as unknown as Upstream;
  return { upstream, calls };
}

const installed = [new Map<string, Value>([['state', 'installed']])];
const warnings: unknown[] = [];
const log = { warn: (...args: unknown[]) => void warnings.push(args) };

describe('createRpcPolicy()', () => {
  it('refuses as rpc_helper does: a listed method, "all", Python\'s `in` on a str or a dict', async () => {
    const { upstream } = fakeUpstream({
      modules: installed,
      configs: {
        'res.partner': '{"disable": ["create", "write"]}',
        'res.company': '{"disable": ["all"]}',
        'res.country': '{"disable": "unlink,copy"}',
        'res.currency': '{"disable": {"search": 1}}',
        'res.lang': '{"other": ["create"]}',
      },
    });
    const policy = createRpcPolicy({ upstream, serviceKeyFor: () => 'svc', log });
    const refused = async (model: string, method: Value) => (await policy.refusal(model, method, origin))?.message;
    expect(await refused('res.partner', 'create')).toBe('RPC call on res.partner is not allowed');
    expect(await refused('res.partner', 'search')).toBeUndefined();
    expect(await refused('res.company', 'read')).toBe('RPC call on res.company is not allowed');
    expect(await refused('res.country', 'link')).toBe('RPC call on res.country is not allowed');
    expect(await refused('res.currency', 'search')).toBe('RPC call on res.currency is not allowed');
    expect(await refused('res.lang', 'create')).toBeUndefined();
    expect(await refused('res.users', 'create')).toBeUndefined();
    expect((await policy.refusal('res.partner', 'create', origin))?.name).toBe('odoo.exceptions.UserError');
  });

  it('reads nothing more while the module is not installed, and once per TTL', async () => {
    let t = 0;
    const { upstream, calls } = fakeUpstream({ modules: [] });
    const policy = createRpcPolicy({ upstream, serviceKeyFor: () => 'svc', log, now: () => t });
    await Promise.all([policy.refusal('res.partner', 'create', origin), policy.refusal('res.partner', 'read', origin)]);
    t += policyTtlMs - 1;
    expect(await policy.refusal('res.partner', 'create', origin)).toBeUndefined();
    expect(calls.map((c) => `${c.db} ${c.key} ${c.model}`)).toEqual(['gw svc ir.module.module']);
    t += 1;
    await policy.refusal('res.partner', 'create', origin);
    expect(calls).toHaveLength(2);
  });

  it('applies nothing without a service key, asking Odoo nothing', async () => {
    const { upstream, calls } = fakeUpstream({ modules: installed, configs: { 'res.partner': '{"disable": ["all"]}' } });
    const policy = createRpcPolicy({ upstream, serviceKeyFor: () => undefined, log });
    expect(await policy.refusal('res.partner', 'create', origin)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('applies nothing, logged once, when the service key may not read the modules', async () => {
    warnings.length = 0;
    const refused = new LegacyError('access_error', { name: 'odoo.exceptions.AccessError', message: 'You are not allowed to access' });
    const { upstream } = fakeUpstream({ modules: refused });
    let t = 0;
    const policy = createRpcPolicy({ upstream, serviceKeyFor: () => 'svc', log, now: () => t });
    expect(await policy.refusal('res.partner', 'create', origin)).toBeUndefined();
    t += policyTtlMs;
    expect(await policy.refusal('res.partner', 'create', origin)).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings)).not.toContain('svc');
  });

  it('fails the call when the policy cannot be read for another reason', async () => {
    const down = new LegacyError('upstream_unavailable', { name: 'legacy_rpc_gateway.UpstreamError', message: 'connection refused' });
    const { upstream } = fakeUpstream({ modules: down });
    const policy = createRpcPolicy({ upstream, serviceKeyFor: () => 'svc', log });
    await expect(policy.refusal('res.partner', 'create', origin)).rejects.toBe(down);
  });
});
