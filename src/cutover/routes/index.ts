/** Route modes (`--routes-file`, `--default-mode`): the file, matching, reloads and the verify checks. */
export { parseRoutes, readRoutesFile, routeModes, type RouteMode, type RouteRule } from './routes-file.ts';
export { compileRoutes, type CallFacts, type Route, type Routes } from './match.ts';
export { createRouteTable, routeChanges, RoutesFileError, type ReloadResult, type RouteTable } from './route-table.ts';
export { createVerifier, verifyKind, type Verifier, type VerifyExchange, type VerifyResult } from './verify.ts';
