/**
 * The cutover tools (docs/architecture.md §8): shadow mode, which checks the gateway's answers
 * against the upstream's own legacy endpoints (`shadow/`, comparing with `compare/`); the JSON-2 way
 * off legacy (`equivalents/`); and the migration report as served, with each client's readiness and
 * its page (`cutover-report.ts`, `fleet.ts`, `report-page.ts`). What the gateway's server uses.
 */
export { createShadow, maxCompareBytes, shadowMethodsOf, type Shadow } from './shadow/index.ts';
export { placeholderBody } from './equivalents/index.ts';
export { withCutover, withCutoverSliced, type ShadowStatus } from './cutover-report.ts';
export { reportPageChunks } from './report-page.ts';
