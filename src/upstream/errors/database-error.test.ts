import { describe, expect, it } from 'vitest';
import { errorFromDatabaseText } from './database-error.ts';

describe('errorFromDatabaseText()', () => {
  it.each([
    ['Access Denied', 'access_denied', 'odoo.exceptions.AccessDenied', 'odoo.exceptions.AccessDenied: Access Denied'],
    [
      'database "gw3" already exists\n',
      'internal',
      'psycopg2.errors.DuplicateDatabase',
      'psycopg2.errors.DuplicateDatabase: database "gw3" already exists\n',
    ],
    [
      'template database "nope" does not exist\n',
      'internal',
      'psycopg2.errors.InvalidCatalogName',
      'psycopg2.errors.InvalidCatalogName: template database "nope" does not exist\n',
    ],
    [
      "database 'gw6' already exists!",
      'internal',
      'odoo.service.db.DatabaseExists',
      "odoo.service.db.DatabaseExists: database 'gw6' already exists!",
    ],
    [
      "'NoneType' object has no attribute 'uid'",
      'internal',
      'builtins.AttributeError',
      "AttributeError: 'NoneType' object has no attribute 'uid'",
    ],
    ['Database already exists', 'internal', 'builtins.Exception', 'Exception: Database already exists'],
    ["Couldn't restore database", 'internal', 'builtins.Exception', "Exception: Couldn't restore database"],
    [
      'Couldn\'t rename database gw3 to gw4b: database "gw3" does not exist\n',
      'internal',
      'builtins.Exception',
      'Exception: Couldn\'t rename database gw3 to gw4b: database "gw3" does not exist\n',
    ],
  ])('%j → %s %s', (text, kind, name, lastLine) => {
    const err = errorFromDatabaseText(text, { route: 'create', db: 'gw' });
    expect(err).toMatchObject({ kind, name, message: text });
    expect(err.lastLine).toBe(lastLine);
  });

  describe("the rewritten manager's texts (saas-19.1+), as 19.0's legacy db words them", () => {
    it.each([
      ['create', 'Database management function blocked, bad admin password.', 'odoo.exceptions.AccessDenied: Access Denied'],
      ['drop', 'Database management functions blocked, admin disabled database listing.', 'odoo.exceptions.AccessDenied: Access Denied'],
      ['change_password', 'Database management function blocked, bad admin password.', 'odoo.exceptions.AccessDenied: Access Denied'],
      [
        'backup',
        "Database 'nope' doesn't exist",
        'psycopg2.OperationalError: connection to server failed: FATAL:  database "nope" does not exist\n',
      ],
      ['create', "Database 'nope' already exists!", "odoo.service.db.DatabaseExists: database 'nope' already exists!"],
      ['restore', "Database 'nope' already exists", 'Exception: Database already exists'],
      ['restore', 'File is not a zip file', "Exception: Couldn't restore database"],
      ['restore', '1', "Exception: Couldn't restore database"],
      ['restore', "There is no item named 'dump.sql' in the archive", "Exception: Couldn't restore database"],
      [
        'drop',
        'database "nope" is being accessed by other users\nDETAIL:  There is 1 other session using the database.\n',
        'Exception: Couldn\'t drop database nope: database "nope" is being accessed by other users\nDETAIL:  There is 1 other session using the database.\n',
      ],
      ['rename', 'database "gw9" already exists\n', 'Exception: Couldn\'t rename database nope to gw9: database "gw9" already exists\n'],
      [
        'create',
        "Houston, we have a database naming issue! Make sure you only use letters, numbers, underscores, hyphens, or dots in the database name, and you'll be golden.",
        "AttributeError: 'NoneType' object has no attribute 'uid'",
      ],
      ['duplicate', "Invalid db_name='a b'", "AttributeError: 'NoneType' object has no attribute 'uid'"],
    ])('%s: %j', (route, text, lastLine) => {
      expect(errorFromDatabaseText(text, { route, db: 'nope', newName: 'gw9' }).lastLine).toBe(lastLine);
    });

    it("keeps 19.0's own drop and rename texts as they are", () => {
      const drop = 'Couldn\'t drop database gw: database "gw" is being accessed by other users\n';
      expect(errorFromDatabaseText(drop, { route: 'drop', db: 'gw' }).message).toBe(drop);
    });
  });

  it("answers the backup's unknown name with legacy's unknown-database fault", () => {
    const err = errorFromDatabaseText("Database 'nope' is not known", { route: 'backup', db: 'nope' });
    expect(err.name).toBe('psycopg2.OperationalError');
    expect(err.lastLine).toBe('psycopg2.OperationalError: connection to server failed: FATAL:  database "nope" does not exist\n');
  });
});
