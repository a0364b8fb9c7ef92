import { describe, expect, it } from 'vitest';
import { badCredentials, mintRefusal, throttled } from '../credentials/refusals.ts';
import { LegacyError, accessDenied, pythonError, userError } from '../errors.ts';
import { errorFromAnswer, unknownDatabase } from '../upstream/errors/answer.ts';
import { upstreamError } from '../upstream/errors/transport-error.ts';
import { isGatewayFault } from './fault-origin.ts';

const json2Error = (name: string, message: string) =>
  errorFromAnswer(
    {
      status: 422,
      contentType: 'application/json; charset=utf-8',
      text: JSON.stringify({
        name,
        message,
        arguments: [message],
        context: {},
        debug: `Traceback (most recent call last):\n${name}: ${message}\n`,
      }),
      elapsedMs: 3,
    },
    'http://odoo/json/2/res.partner/write',
    'gw',
    64,
  );

describe('isGatewayFault()', () => {
  it("counts as Odoo's the faults Odoo's own legacy endpoint answers too", () => {
    for (const err of [
      json2Error('odoo.exceptions.ValidationError', 'The field Name is required'),
      json2Error('builtins.TypeError', "BaseModel.write() got an unexpected keyword argument 'foo'"),
      badCredentials(),
      accessDenied(),
      userError("Object res.partnerx doesn't exist"),
      pythonError('builtins.TypeError', 'execute_kw() takes from 6 to 7 positional arguments but 8 were given'),
      unknownDatabase('nope'),
      new LegacyError('user_error', { name: 'legacy_rpc_gateway.NativeFault', message: "Odoo's own legacy endpoint answered a fault" }),
    ])
      expect(isGatewayFault(err), err.message).toBe(false);
  });

  it("counts as the gateway's an upstream that did not answer and every refusal of its own", () => {
    for (const err of [
      upstreamError('upstream_timeout', 'upstream did not answer in time', 'http://odoo', 30_000),
      upstreamError('upstream_unavailable', 'upstream refused the connection', 'http://odoo', 1),
      errorFromAnswer({ status: 502, contentType: 'text/html', text: '<h1>Bad gateway</h1>', elapsedMs: 1 }, 'http://odoo', 'gw', 64),
      throttled(5000),
      mintRefusal('the wizard failed.', 'wizard'),
      pythonError('legacy_rpc_gateway.NotSupported', 'rename is not supported'),
      LegacyError.from(new Error('boom')),
    ])
      expect(isGatewayFault(err), err.message).toBe(true);
  });
});
