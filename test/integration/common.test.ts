/**
 * The common service end to end over /jsonrpc and /xmlrpc/2: version, about, set_loglevel,
 * Python's arity errors, unknown methods and services, and user_agent_env handling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorData, startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let key: string;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  key = stack.sim.keyFor('demo', 'admin');
});
afterAll(() => stack.close());

describe('common', () => {
  it('answers version() from the upstream and reuses it for a while', async () => {
    // the start-up check read it (startStack waits for it): the version cache holds its answer
    stack.sim.clearLog();
    const first = await stack.jsonrpc('common', 'version', []);
    await stack.jsonrpc('common', 'version', []);
    expect(first.result).toEqual(
      new Map<string, unknown>([
        ['server_version', '19.0'],
        ['server_version_info', [19, 0, 0, 'final', 0, '']],
        ['server_serie', '19.0'],
        ['protocol_version', 1],
      ]),
    );
    expect(stack.sim.log.filter((r) => r.path === '/web/webclient/version_info')).toHaveLength(0);
  });

  it('asks the upstream again once --version-cache-ttl has passed since the start-up check read it', async () => {
    const short = await startStack({ databases: ['demo'], flags: ['--version-cache-ttl', '50'] });
    try {
      await new Promise((resolve) => setTimeout(resolve, 80));
      await short.jsonrpc('common', 'version', []);
      await short.jsonrpc('common', 'version', []);
      expect(short.sim.log.filter((r) => r.path === '/web/webclient/version_info').length).toBeGreaterThanOrEqual(1);
    } finally {
      await short.close();
    }
  });

  it('answers about() and about(True) as Odoo does', async () => {
    expect((await stack.jsonrpc('common', 'about', [])).result).toBe('See http://openerp.com');
    expect((await stack.jsonrpc('common', 'about', [true])).result).toEqual(['See http://openerp.com', '19.0']);
  });

  it('answers set_loglevel with True and changes nothing', async () => {
    expect((await stack.jsonrpc('common', 'set_loglevel', ['debug'])).result).toBe(true);
  });

  it.each([
    ['login', ['demo', 'admin'], "exp_login() missing 1 required positional argument: 'password'"],
    ['version', [1], 'exp_version() takes 0 positional arguments but 1 was given'],
    ['set_loglevel', [], "exp_set_loglevel() missing 1 required positional argument: 'loglevel'"],
  ])("raises Python's TypeError for %s with the wrong arity", async (method, args, message) => {
    expect(errorData((await stack.jsonrpc('common', method, args)).error)).toMatchObject({ name: 'builtins.TypeError', message });
  });

  it('answers an unknown method with Exception "Method not found"', async () => {
    expect(errorData((await stack.jsonrpc('common', 'foo', [])).error)).toMatchObject({
      name: 'builtins.Exception',
      message: 'Method not found: foo',
    });
  });

  it('answers an unknown service with KeyError', async () => {
    const e = errorData((await stack.jsonrpc('report', 'render_report', [])).error);
    expect(e).toMatchObject({ name: 'builtins.KeyError', message: 'report' });
    expect(e.debug.trimEnd().split('\n').at(-1)).toBe("KeyError: 'report'");
  });

  it('ignores base_location in user_agent_env and sends nothing of it upstream', async () => {
    stack.sim.clearLog();
    const env = { base_location: 'http://evil.example.com', HTTP_HOST: 'x' };
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', key, env])).result).toBe(2);
    expect(stack.sim.log.some((r) => r.body.includes('evil.example.com'))).toBe(false);
  });

  it('refuses a user_agent_env that is not a mapping, as {**env} does', async () => {
    expect(errorData((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', key, [1]])).error)).toMatchObject({
      name: 'builtins.TypeError',
      message: "'list' object is not a mapping",
    });
  });
});

describe('passwords that are no str', () => {
  it.each([5, true, 1.5, { a: 1 }, ['x']])(
    'answers authenticate with the password %j False, for a login that exists too',
    async (password) => {
      expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', password, {}])).result).toBe(false);
      expect((await stack.jsonrpc('common', 'login', ['demo', 'nobody', password])).result).toBe(false);
    },
  );
});

describe('the body Odoo reads', () => {
  const version = '<?xml version="1.0"?><methodCall><methodName>version</methodName><params></params></methodCall>';

  it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'Application/X-WWW-Form-Urlencoded; charset=utf-8'])(
    'answers XML sent as a form (%s) with the ExpatError of an empty body, as Werkzeug consumed it',
    async (contentType) => {
      const answer = await stack.post('/xmlrpc/2/common', version, contentType);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('xml.parsers.expat.ExpatError: no element found: line 1, column 0');
    },
  );

  it.each(['text/xml', 'text/plain', 'application/octet-stream'])('reads the body of any other type (%s)', async (contentType) => {
    expect((await stack.post('/xmlrpc/2/common', version, contentType)).text).toContain('<name>server_serie</name>');
  });
});
