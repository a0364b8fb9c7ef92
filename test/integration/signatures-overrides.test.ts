/**
 * The operator's signatures file (`--signatures-file`) end to end: it wins over discovery and the
 * built-in table, and declared signatures meet JSON-2's limits (positional-only, `*args`,
 * keyword-only, `**kwargs`) with Python's texts or the gateway's "cannot call through JSON-2".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import type { Value } from '../../src/value.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';

const signatures = `# corrections and custom methods for this database
res.partner:
  action_gateway_demo:        # corrects /doc-bearer: this database runs (flag, note)
    level: record
    parameters:
      flag: {default: false}
      note: {default: ''}
  search_count:               # corrects the built-in table
    level: model
    parameters:
      domain:
      limit: {default: null}
    qualname: PartnerOverride.search_count
  action_varargs:
    level: record
    parameters:
      args: {kind: VAR_POSITIONAL}
  action_posonly:
    level: model
    parameters:
      a: {kind: POSITIONAL_ONLY}
      b: {default: 0}
  action_kwonly:
    level: record
    parameters:
      mode: {kind: KEYWORD_ONLY}
  action_varkw:
    level: record
    parameters:
      note:
      options: {kind: VAR_KEYWORD}
`;

const dir = mkdtempSync(join(tmpdir(), 'gw-overrides-'));
let stack: Stack;
let key: string;

beforeAll(async () => {
  const file = join(dir, 'signatures.yaml');
  writeFileSync(file, signatures);
  stack = await startStack({ flags: (sim) => ['--service-key', sim.keyFor('demo', 'admin'), '--signatures-file', file] });
  key = stack.sim.keyFor('demo', 'admin');
});
afterAll(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => stack.sim.clearLog());

const call = (method: string, args: unknown[], kw: Record<string, unknown> = {}) =>
  stack.jsonrpc('object', 'execute_kw', ['demo', 2, key, 'res.partner', method, args, kw]);
const sentBody = (method: string) => {
  const sent = stack.sim.log.filter((r) => r.path === `/json/2/res.partner/${method}`);
  return sent.length === 0 ? undefined : parseJson(sent.at(-1)!.body);
};
const docRequests = () => stack.sim.log.filter((r) => r.path.startsWith('/doc-bearer/')).length;

describe('precedence', () => {
  it('wins over discovery: the declared order binds, and /doc-bearer is not asked', async () => {
    const { result } = await call('action_gateway_demo', [[3], true, 'declared order']);
    expect(result).toEqual(
      new Map<string, Value>([
        ['ids', [3]],
        ['note', 'declared order'],
        ['flag', true],
      ]),
    );
    expect(sentBody('action_gateway_demo')).toEqual(
      new Map<string, Value>([
        ['ids', [3]],
        ['flag', true],
        ['note', 'declared order'],
      ]),
    );
    expect(docRequests()).toBe(0);
  });

  it('leaves the methods it does not declare to discovery', async () => {
    expect((await call('gateway_demo_echo', ['ab', 2])).result).toBe('abab');
    expect(docRequests()).toBe(1);
  });

  it('wins over the built-in table, qualname included', async () => {
    expect(typeof (await call('search_count', [[['is_company', '=', true]]])).result).toBe('number');
    expect(errorData((await call('search_count', [[], 1, 2])).error).message).toBe(
      'PartnerOverride.search_count() takes from 2 to 3 positional arguments but 4 were given',
    );
  });
});

describe("JSON-2's limits on declared signatures", () => {
  it.each([
    [
      'positionals for *args',
      'action_varargs',
      [[3], 'x', 'y'],
      {},
      "cannot call res.partner.action_varargs through JSON-2 (named arguments only): ResPartner.action_varargs() would receive 2 positional arguments in '*args'",
    ],
    [
      'a positional-only parameter given',
      'action_posonly',
      ['x'],
      {},
      "cannot call res.partner.action_posonly through JSON-2 (named arguments only): ResPartner.action_posonly() would receive its positional-only argument 'a'",
    ],
    [
      'a positional-only parameter named as a keyword (Python refuses it first)',
      'action_posonly',
      [],
      { a: 1 },
      "ResPartner.action_posonly() got some positional-only arguments passed as keyword arguments: 'a'",
    ],
    [
      'a keyword-only parameter given by position',
      'action_kwonly',
      [[3], 'fast'],
      {},
      'ResPartner.action_kwonly() takes 1 positional argument but 2 were given',
    ],
    [
      'a missing keyword-only parameter',
      'action_kwonly',
      [[3]],
      {},
      "ResPartner.action_kwonly() missing 1 required keyword-only argument: 'mode'",
    ],
    [
      'a **kwargs keyword named ids',
      'action_varkw',
      [[3], 'n'],
      { ids: [4] },
      "cannot call res.partner.action_varkw through JSON-2 (named arguments only): argument 'ids' would be taken as JSON-2's own 'ids', not passed to ResPartner.action_varkw()",
    ],
  ])('refuses %s before calling upstream', async (_what, method, args, kw, message) => {
    expect(errorData((await call(method, args, kw)).error)).toMatchObject({ name: 'builtins.TypeError', message });
    expect(sentBody(method)).toBeUndefined();
  });

  it('sends keyword-only parameters and **kwargs extras by name, unchanged', async () => {
    await call('action_kwonly', [[3]], { mode: 'fast' });
    expect(sentBody('action_kwonly')).toEqual(
      new Map<string, Value>([
        ['ids', [3]],
        ['mode', 'fast'],
      ]),
    );
    const { error } = await call('action_varkw', [[3], 'n'], { extra: 1, more: [true], context: { lang: 'en_US' } });
    expect(sentBody('action_varkw')).toEqual(
      new Map<string, Value>([
        ['ids', [3]],
        ['context', new Map([['lang', 'en_US']])],
        ['note', 'n'],
        ['extra', 1],
        ['more', [true]],
      ]),
    );
    // The simulator has no such method: its answer passes through as legacy's AttributeError.
    expect(errorData(error)).toMatchObject({
      name: 'builtins.AttributeError',
      message: "The method 'res.partner.action_varkw' does not exist",
    });
  });
});
