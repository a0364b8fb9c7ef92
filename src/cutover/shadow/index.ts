/** Shadow mode: verifying the gateway's answers against the upstream's own legacy endpoints. */
export {
  createShadow,
  maxCompareBytes,
  type Shadow,
  type ShadowDeps,
  type ShadowExchange,
  type ShadowResult,
  type ShadowSettings,
} from './shadow.ts';
export { defaultShadowMethods, notShadowedReason, shadowableDbFunctions, shadowMethodsOf } from './policy.ts';
export type { GoneService } from './legacy-gone.ts';
