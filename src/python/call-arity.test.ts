import { describe, expect, it } from 'vitest';
import { arityError } from './call-arity.ts';

// Expected texts produced by CPython 3.11 for the same calls.
describe('arityError()', () => {
  const login = { name: 'exp_login', params: ['db', 'login', 'password'], required: 3 };
  const about = { name: 'exp_about', params: ['extended'], required: 0 };
  const version = { name: 'exp_version', params: [], required: 0 };
  const setLevel = { name: 'exp_set_loglevel', params: ['loglevel', 'logger'], required: 1 };
  it.each([
    [login, 2, "exp_login() missing 1 required positional argument: 'password'"],
    [login, 1, "exp_login() missing 2 required positional arguments: 'login' and 'password'"],
    [login, 0, "exp_login() missing 3 required positional arguments: 'db', 'login', and 'password'"],
    [login, 4, 'exp_login() takes 3 positional arguments but 4 were given'],
    [about, 2, 'exp_about() takes from 0 to 1 positional arguments but 2 were given'],
    [version, 1, 'exp_version() takes 0 positional arguments but 1 was given'],
    [setLevel, 0, "exp_set_loglevel() missing 1 required positional argument: 'loglevel'"],
    [setLevel, 3, 'exp_set_loglevel() takes from 1 to 2 positional arguments but 3 were given'],
  ])('%#: %o with %i arguments', (sig, given, message) => {
    expect(arityError(sig, given)).toBe(message);
  });

  it('binds calls within range', () => {
    expect(arityError(login, 3)).toBeUndefined();
    expect(arityError(about, 0)).toBeUndefined();
  });
});
