/**
 * Compares one legacy answer with a case's recorded answer: HTTP status and content type always,
 * then the body by the case's dialect (`compare.ts`), with the case's volatile markers and the run's
 * id table. Shared by the replay and the runner's self-test.
 */
import {
  compareHttp,
  compareJsonrpcBodies,
  compareXmlrpcBodies,
  type Difference,
  type IdLookup,
  type ValueCompareOptions,
} from '../../src/cutover/compare/compare.ts';
import type { ConformanceCase } from './load-cases.ts';

/** An answer as received. */
export interface LegacyAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** The comparison options a case's `volatile` list implies. */
export function caseValueOptions(c: ConformanceCase, mapId?: IdLookup): ValueCompareOptions {
  return {
    volatilePaths: c.volatile.includes('legacy_decoded.value') ? [''] : [],
    ...(mapId === undefined ? {} : { mapId }),
  };
}

/** Every difference between `answer` and the case's recorded legacy answer. */
export function compareLegacyAnswer(c: ConformanceCase, answer: LegacyAnswer, mapId?: IdLookup): Difference[] {
  const legacy = c.legacy;
  if (legacy === undefined) return [];
  const out = compareHttp({ status: legacy.status, contentType: legacy.responseContentType }, answer);
  if (legacy.truncated) return out;
  if (c.legacyDecoded?.kind === 'http' || !/xml|json/.test(legacy.responseContentType)) {
    if (answer.body !== legacy.responseBody) {
      out.push({
        path: 'body',
        message: `expected ${JSON.stringify(legacy.responseBody).slice(0, 300)}, got ${JSON.stringify(answer.body).slice(0, 300)}`,
      });
    }
    return out;
  }
  const options = caseValueOptions(c, mapId);
  out.push(
    ...(/json/.test(legacy.responseContentType)
      ? compareJsonrpcBodies(legacy.responseBody, answer.body, options)
      : compareXmlrpcBodies(legacy.responseBody, answer.body, options)),
  );
  return out;
}
