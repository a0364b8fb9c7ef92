import { describe, expect, it } from 'vitest';
import { compareDumpAnswer } from './dump-answer.ts';
import { loadCases } from './load-cases.ts';
import { compareWebDatabaseAnswer, webDatabaseRecording } from './web-database-case.ts';

const cases = loadCases();
const byId = (id: string) => {
  const c = cases.find((x) => x.id === id);
  if (c === undefined) throw new Error(id);
  return c;
};
const html = 'text/html; charset=utf-8';

describe('compareWebDatabaseAnswer()', () => {
  const drop = byId('webdb-drop-ok');
  const recorded = drop.legacy?.responseBody ?? '';

  it('accepts the recorded redirect', () => {
    expect(
      compareWebDatabaseAnswer(drop, webDatabaseRecording(drop), {
        status: 303,
        headers: { location: '/web/database/manager' },
        contentType: html,
        body: recorded,
      }),
    ).toEqual([]);
  });

  it('sees another Location, status or body', () => {
    const paths = compareWebDatabaseAnswer(drop, webDatabaseRecording(drop), {
      status: 200,
      headers: { location: '/odoo' },
      contentType: html,
      body: 'x',
    }).map((d) => d.path);
    expect(paths).toEqual(['status', 'location', 'body']);
  });

  it('wants the recorded error text on an error page', () => {
    const badpw = byId('webdb-change_password-badpw');
    const recording = webDatabaseRecording(badpw);
    expect(recording.errorTextHtml).toBe('<div class="alert alert-danger">Master password update error: Access Denied</div>');
    const other = (badpw.legacy?.responseBody ?? '').replace('Access Denied', 'Something else');
    expect(
      compareWebDatabaseAnswer(badpw, recording, { status: 200, headers: {}, contentType: html, body: other }).map((d) => d.path),
    ).toEqual(['error', 'body']);
  });
});

describe('compareDumpAnswer()', () => {
  const zip = byId('db-dump-zip-xmlrpc2');
  const head = '<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value><string>';
  const tail = '</string></value>\n</param>\n</params>\n\n</methodResponse>\n';
  const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');

  it('accepts a complete answer holding a zip', () => {
    expect(compareDumpAnswer(zip, head + b64('PK\u0003\u0004 anything') + tail)).toEqual([]);
  });

  it.each([
    ['a truncated answer', head + b64('PK\u0003\u0004 anything')],
    ['another kind of file', head + b64('PGDMP custom') + tail],
    ['a fault', '<?xml version="1.0"?>\n<methodResponse>\n<fault>\n'],
  ])('refuses %s', (_what, body) => {
    expect(compareDumpAnswer(zip, body)).toHaveLength(1);
  });

  it('wants PGDMP for the dump format', () => {
    expect(compareDumpAnswer(byId('db-dump-dump-xmlrpc2'), head + b64('PGDMP\u0001') + tail)).toEqual([]);
    expect(compareDumpAnswer(byId('db-dump-dump-xmlrpc2'), head + b64('PK\u0003\u0004') + tail)).toHaveLength(1);
  });
});
