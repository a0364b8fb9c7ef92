import { describe, expect, it } from 'vitest';
import { errorFromDatabaseText } from './database-error.ts';

describe('errorFromDatabaseText()', () => {
  it.each([
    ['Access Denied', 'access_denied', 'odoo.exceptions.AccessDenied', 'odoo.exceptions.AccessDenied: Access Denied'],
    ['database "gw3" already exists\n', 'internal', 'psycopg2.errors.DuplicateDatabase', 'psycopg2.errors.DuplicateDatabase: database "gw3" already exists\n'],
    ['template database "nope" does not exist\n', 'internal', 'psycopg2.errors.InvalidCatalogName', 'psycopg2.errors.InvalidCatalogName: template database "nope" does not exist\n'],
    ["database 'gw6' already exists!", 'internal', 'odoo.service.db.DatabaseExists', "odoo.service.db.DatabaseExists: database 'gw6' already exists!"],
    ["'NoneType' object has no attribute 'uid'", 'internal', 'builtins.AttributeError', "AttributeError: 'NoneType' object has no attribute 'uid'"],
    ['Database already exists', 'internal', 'builtins.Exception', 'Exception: Database already exists'],
    ["Couldn't restore database", 'internal', 'builtins.Exception', "Exception: Couldn't restore database"],
    ['Couldn\'t rename database gw3 to gw4b: database "gw3" does not exist\n', 'internal', 'builtins.Exception', 'Exception: Couldn\'t rename database gw3 to gw4b: database "gw3" does not exist\n'],
  ])('%j → %s %s', (text, kind, name, lastLine) => {
    const err = errorFromDatabaseText(text, 'gw');
    expect(err).toMatchObject({ kind, name, message: text });
    expect(err.lastLine).toBe(lastLine);
  });

  it("answers the backup's unknown name with legacy's unknown-database fault", () => {
    const err = errorFromDatabaseText("Database 'nope' is not known", 'nope');
    expect(err.name).toBe('psycopg2.OperationalError');
    expect(err.lastLine).toBe('psycopg2.OperationalError: connection to server failed: FATAL:  database "nope" does not exist\n');
  });
});
