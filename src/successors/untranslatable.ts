/** The fault for a legacy call its successor cannot answer exactly: never a silently different answer. */
import { type LegacyError, pythonError } from '../errors.ts';

export function cannotTranslate(model: string, method: string, successor: string, what: string): LegacyError {
  return pythonError(
    'NotImplementedError',
    `legacy-rpc-gateway cannot answer ${model}.${method}() exactly through its successor ${successor}(): ${what}. ` +
      `Call ${successor} instead, or use an upstream that still has ${method}.`,
  );
}
