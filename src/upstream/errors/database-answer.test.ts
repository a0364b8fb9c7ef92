import { describe, expect, it } from 'vitest';
import { renderManagerPage } from '../../../sim/manager/database-manager-page.ts';
import { classifyDatabaseAnswer, errorTextOf } from './database-answer.ts';

const html = 'text/html; charset=utf-8';
const errorPage = (error: string, insecure = true) => renderManagerPage({ databases: ['gw', 'gw2'], insecure, error });
const laterPage = (text: string) =>
  `<!DOCTYPE html><html><body><main><div class="alert alert-danger" role="alert">${text}</div></main></body></html>`;

describe('classifyDatabaseAnswer()', () => {
  it('takes a 303 as success, with its Location', () => {
    expect(classifyDatabaseAnswer(303, html, '/web/database/manager', '<!doctype html>…')).toEqual({
      kind: 'done',
      location: '/web/database/manager',
    });
  });

  it.each([
    ['19.0, protected manager', 200, errorPage('Master password update error: Access Denied', false), 'Access Denied'],
    [
      '19.0, unprotected manager',
      200,
      errorPage('Database duplication error: database "gw8" already exists\n'),
      'database "gw8" already exists\n',
    ],
    [
      '19.0, escaped quotes',
      200,
      errorPage("Database duplication error: 'NoneType' object has no attribute 'uid'"),
      "'NoneType' object has no attribute 'uid'",
    ],
    ['19.0, backup', 200, errorPage("Database backup error: Database 'nope' is not known"), "Database 'nope' is not known"],
    ['later versions, 403', 403, laterPage('Could not drop database. Access Denied'), 'Access Denied'],
    [
      'later versions, 400',
      400,
      laterPage('Could not duplicate database. database &#34;gw8&#34; already exists\n'),
      'database "gw8" already exists\n',
    ],
  ])('reads the error text of a %s page', (_what, status, body, text) => {
    expect(classifyDatabaseAnswer(status, html, undefined, body)).toEqual({ kind: 'error', text });
  });

  it.each([
    ['the manager page without an error', 200, html, renderManagerPage({ databases: [], insecure: true })],
    ['a proxy error page', 502, html, '<html><body><div class="alert alert-danger">Bad gateway</div></body></html>'],
    ['a JSON answer', 200, 'application/json', '{}'],
    ['a 404 page', 404, html, '<!doctype html><title>404 Not Found</title>'],
  ])('calls %s unexpected', (_what, status, contentType, body) => {
    expect(classifyDatabaseAnswer(status, contentType, undefined, body)).toEqual({ kind: 'unexpected', status });
  });
});

describe('errorTextOf()', () => {
  it('keeps a text without a known prefix whole', () => {
    expect(errorTextOf('<div class="alert alert-danger"> Something odd </div>')).toBe('Something odd');
  });
});
