/**
 * Everything the upstream can answer or fail with, read into the project's error model
 * (`src/errors.ts`, docs/architecture.md §6): the one entry point the rest of `src/upstream/` uses.
 * - a failure to reach Odoo (refused, reset, timed out): `errorFromTransport`, `upstreamError`;
 * - an HTTP answer: JSON parsed losslessly or refused, an error status read by its body
 *   (`jsonFromAnswer`, `errorFromAnswer`), Odoo's error object mapped by its exception name
 *   (`errorFromJson2`, `kindFromName`), a JSON-RPC envelope's error (`errorFromJsonRpc`);
 * - a `/web/database/*` form's answer: redirect, error page or neither (`classifyDatabaseAnswer`),
 *   and the error page's text as the legacy `db` service's exception (`errorFromDatabaseText`).
 */
export {
  errorFromAnswer,
  errorFromJsonRpc,
  jsonFromAnswer,
  jsonTextFromAnswer,
  unauthorizedName,
  unknownDatabase,
  isUnknownDatabaseAnswer,
  type UpstreamAnswer,
} from './answer.ts';
export { errorFromJson2, kindFromName } from './error-json.ts';
export { classifyDatabaseAnswer, errorTextOf, type DatabaseAnswer } from './database-answer.ts';
export { errorFromDatabaseText, type DatabaseOperation } from './database-error.ts';
export { errorFromTransport, upstreamError } from './transport-error.ts';
