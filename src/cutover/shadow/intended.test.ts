import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderIntendedRulesModule } from '../../../scripts/gen-cutover-tables.ts';
import type { Value } from '../../value.ts';
import type { AnswerView } from './answer-view.ts';
import { explainDifference, intendedDeviations, parseRule } from './intended.ts';

const compatibility = readFileSync(new URL('../../../COMPATIBILITY.md', import.meta.url), 'utf8');
const fault = (text: string, accessDenied = false): AnswerView => ({ kind: 'fault', code: text.split('\n')[0] ?? '', text, accessDenied });
const result = (value: Value): AnswerView => ({ kind: 'result', value });
const deviations = intendedDeviations();
const explain = (gateway: AnswerView, legacy: AnswerView, service = 'object', method = 'execute_kw') =>
  explainDifference(deviations, { service, method }, gateway, legacy);

describe('intended-rules.generated.ts', () => {
  it('is up to date with the - Shadow: lines of COMPATIBILITY.md', () => {
    const onDisk = readFileSync(new URL('./intended-rules.generated.ts', import.meta.url), 'utf8');
    expect(onDisk, 'run `npm run gen:cutover`').toBe(renderIntendedRulesModule(compatibility));
  });

  it('holds a rule for the deviations a read-only call can show, each in the grammar', () => {
    expect(deviations.length).toBeGreaterThanOrEqual(8);
  });
});

describe('parseRule()', () => {
  it.each(['gateway fault', 'legacy fault "', 'same fault without x', 'same result without x', 'result maybe for db.list', 'anything'])(
    'refuses %j',
    (rule) => {
      expect(() => parseRule(rule)).toThrow('outside the grammar');
    },
  );
});

describe('explainDifference() with the rules of COMPATIBILITY.md', () => {
  it.each([
    [
      'an unknown database named with the server address by Odoo',
      fault('1\npsycopg2.OperationalError: connection to server failed: FATAL:  database "nope" does not exist\n\n'),
      fault(
        '1\npsycopg2.OperationalError: connection to server at "127.0.0.1", port 5432 failed: FATAL:  database "nope" does not exist\n\n',
      ),
      'Unknown-database faults do not name the PostgreSQL server',
    ],
    [
      'an unknown database named with the socket by Odoo',
      fault('1\npsycopg2.OperationalError: connection to server failed: FATAL:  database "nope" does not exist\n\n'),
      fault(
        '1\npsycopg2.OperationalError: connection to server on socket "/run/postgresql/.s.PGSQL.5432" failed: FATAL:  database "nope" does not exist\n\n',
      ),
      'Unknown-database faults do not name the PostgreSQL server',
    ],
    [
      "a TypeError naming the first definition's class",
      fault("1\nTypeError: BaseModel.action_x() missing 1 required positional argument: 'a'\n"),
      fault("1\nTypeError: ResPartner.action_x() missing 1 required positional argument: 'a'\n"),
      "Discovered signatures describe a method's first definition",
    ],
    [
      'a call with a positional-only argument',
      fault("1\nTypeError: cannot call x.m through JSON-2 (named arguments only): X.m() would receive its positional-only argument 'a'\n"),
      result([1]),
      'Positional-only and *args parameters cannot be reached',
    ],
    [
      'a kwarg named ids',
      fault(
        "1\nTypeError: cannot call x.m through JSON-2 (named arguments only): argument 'ids' would be taken as JSON-2's own 'ids', not passed to X.m()\n",
      ),
      result(true),
      'Keyword arguments named ids or context, or named like a positional-only parameter',
    ],
    [
      'a method no signature source knows',
      fault('1\nTypeError: legacy-rpc-gateway cannot map the positional arguments of x.m() … (--signatures-file).\n'),
      result(true),
      'A method no signature source knows takes only its ids by position',
    ],
    ['a password changed a moment ago', result(3), fault('3\nAccess Denied', true), 'A changed password keeps working for up to 5 s'],
    [
      'a <base64> argument',
      result(7),
      fault("1\nTypeError: argument should be a bytes-like object or ASCII string, not 'Binary'\n"),
      '<base64> values are accepted',
    ],
  ])('counts %s as intended', (_what, gateway, legacy, title) => {
    expect(explain(gateway, legacy)).toBe(title);
  });

  it('counts a db.list the dbfilter narrowed, and a db_exist it hid, as intended', () => {
    const title = "db.list and db.db_exist see the databases Odoo's dbfilter lets through";
    expect(explain(result(['a']), result(['a', 'b']), 'db', 'list')).toBe(title);
    expect(explain(result(false), result(true), 'db', 'db_exist')).toBe(title);
    expect(explain(result(['a', 'c']), result(['a', 'b']), 'db', 'list')).toBeUndefined();
    expect(explain(result(true), result(false), 'db', 'db_exist')).toBeUndefined();
    expect(explain(result(['a']), result(['a', 'b']), 'object', 'execute_kw')).toBeUndefined();
  });

  it("counts a copy's name translated where Odoo keeps the English source as intended, and nothing else in the record", () => {
    const title = "Texts _() translates where it finds no record come out in the request's language";
    const record = (name: string, color = 1) =>
      result([
        new Map<string, Value>([
          ['id', 0],
          ['name', name],
          ['color', color],
        ]),
      ]);
    expect(explain(record('21 Days (copie)'), record('21 Days (copy)'))).toBe(title);
    expect(explain(record('21 Days (copie)', 2), record('21 Days (copy)'))).toBeUndefined();
    expect(explain(record('22 Days (copie)'), record('21 Days (copy)'))).toBeUndefined();
    const integrity = (message: string) => fault(`1\nodoo.exceptions.ValidationError: ${message}\n`);
    expect(
      explain(
        integrity("L'opération ne peut pas être terminée : Les contacts nécessitent un nom"),
        integrity('The operation cannot be completed: Contacts require a name'),
      ),
    ).toBe(title);
  });

  it.each([
    ['a different value', result([1, 2]), result([1, 3])],
    ['a fault where Odoo answers', fault('2\nRecord does not exist'), result([])],
    ['another exception', fault('1\nValueError: a\n'), fault('1\nKeyError: b\n')],
    ['Access Denied from the gateway', fault('3\nAccess Denied', true), result(1)],
  ])('leaves %s unexplained', (_what, gateway, legacy) => {
    expect(explain(gateway, legacy)).toBeUndefined();
  });
});
