import { describe, expect, it } from 'vitest';
import { maxAnswerChars, redactDifferences, redactText, renderAnswer, secretsOf } from './redact.ts';

const xmlCall = (params: string[]) =>
  `<?xml version='1.0'?>\n<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n${params.map((p) => `<param>\n<value>${p}</value>\n</param>\n`).join('')}</params>\n</methodCall>\n`;
const key = 'a'.repeat(40);

describe('secretsOf()', () => {
  it("takes an object call's password and argument strings, not its model and method", () => {
    const body = xmlCall([
      '<string>gw</string>',
      '<int>2</int>',
      '<string>pw</string>',
      '<string>res.partner</string>',
      '<string>search_read</string>',
      '<array><data><value><array><data><value><string>email</string></value><value><string>=</string></value><value><string>jane@example.com</string></value></data></array></value></data></array>',
    ]);
    const secrets = secretsOf('xmlrpc2', body, 'object');
    expect(secrets.passwords).toEqual(['pw']);
    expect(secrets.strings).toEqual(['jane@example.com', 'email', 'pw']);
  });

  it("takes a JSON-RPC login's password and a db call's master password", () => {
    const login = JSON.stringify({
      jsonrpc: '2.0',
      method: 'call',
      id: 1,
      params: { service: 'common', method: 'login', args: ['gw', 'admin', 's3cret'] },
    });
    expect(secretsOf('jsonrpc', login, 'common').passwords).toEqual(['s3cret']);
    const countries = JSON.stringify({
      jsonrpc: '2.0',
      method: 'call',
      id: 1,
      params: { service: 'db', method: 'list_countries', args: ['master-pw'] },
    });
    expect(secretsOf('jsonrpc', countries, 'db').passwords).toEqual(['master-pw']);
  });

  it('takes nothing from a body it cannot read', () => {
    expect(secretsOf('xmlrpc2', 'not xml', 'object').strings).toEqual([]);
  });
});

describe('redactText()', () => {
  it('cuts every secret and every API key', () => {
    expect(redactText(`login jane@example.com with pw and ${key}`, { passwords: ['pw'], strings: ['jane@example.com', 'pw'] })).toBe(
      'login ‹redacted› with ‹redacted› and ‹redacted›',
    );
  });
});

describe('renderAnswer()', () => {
  const secrets = { passwords: ['pw'], strings: ['Jane', 'pw'] };

  it('keeps types and field names, cuts argument values, hides values under secret-looking names', () => {
    const xml =
      '<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value><struct>\n<member>\n<name>name</name>\n<value><string>Jane Doe</string></value>\n</member>\n<member>\n<name>password</name>\n<value><string>hunter2</string></value>\n</member>\n<member>\n<name>rate</name>\n<value><double>1.5</double></value>\n</member>\n</struct></value>\n</param>\n</params>\n\n</methodResponse>\n';
    expect(renderAnswer('xmlrpc2', 200, xml, secrets)).toBe(
      '{"name": <string>"‹redacted› Doe", "password": <string>"‹redacted›", "rate": <double>"1.5"}',
    );
    const json = '{"jsonrpc": "2.0", "id": 1, "result": [{"name": "Jane", "api_key": "x", "n": 2.0}]}';
    expect(renderAnswer('jsonrpc', 200, json, secrets)).toBe(
      '{"jsonrpc": "2.0", "id": 1, "result": [{"name": "‹redacted›", "api_key": "‹redacted›", "n": 2.0}]}',
    );
  });

  it('truncates a long answer and keeps a page that is no legacy answer as text', () => {
    const long = `{"jsonrpc": "2.0", "id": 1, "result": "${'x'.repeat(5000)}"}`;
    expect(renderAnswer('jsonrpc', 200, long, secrets).length).toBe(maxAnswerChars + 1);
    expect(renderAnswer('xmlrpc2', 502, '<html>Bad gateway pw</html>', secrets)).toBe('HTTP 502: <html>Bad gateway ‹redacted›</html>');
  });
});

describe('redactDifferences()', () => {
  it('keeps paths readable, cuts values, hides secret-looking members and keeps five', () => {
    const secrets = { passwords: ['pw'], strings: ['email', 'pw'] };
    const differences = [
      { path: 'result[0].email', message: 'expected "email x", got "y"' },
      { path: 'result[0].password', message: 'expected "a", got "b"' },
      ...Array.from({ length: 6 }, (_, i) => ({ path: `result[${i}]`, message: 'x' })),
    ];
    const kept = redactDifferences(differences, secrets);
    expect(kept).toHaveLength(5);
    expect(kept[0]).toBe('result[0].email: expected "‹redacted› x", got "y"');
    expect(kept[1]).toBe('result[0].password: ‹redacted›');
  });
});
