/**
 * Shadow mode's equality: the project's own typed comparison (`src/cutover/compare/compare.ts`, the
 * conformance runner's): HTTP status and content type, then XML-RPC values with their tags (an
 * `<int>` is not a `<double>`, member order counts) or JSON-RPC values losslessly (int vs float),
 * faults by code and exception line. Values are compared exactly — both answers come from the same
 * database moments apart, so `write_date` too — and XML bytes are not compared (a client reads values).
 */
import type { Dialect } from '../../call.ts';
import type { WireResponse } from '../../wire/response.ts';
import { answerText } from './answer-copy.ts';
import { viewAnswer, type AnswerView } from './answer-view.ts';
import { explainDifference, type IntendedDeviation } from './intended.ts';
import { compareHttp, compareJsonrpcBodies, compareXmlrpcBodies, type Difference, type ValueCompareOptions } from '../compare/compare.ts';

/** One HTTP answer, whole. */
export interface HttpAnswer {
  status: number;
  contentType: string;
  body: string;
}

const exact: ValueCompareOptions = { shapeMembers: new Set(), bytes: false };

/** Every difference between the gateway's answer and the legacy endpoint's. */
export function compareAnswers(dialect: Dialect, gateway: HttpAnswer, legacy: HttpAnswer): Difference[] {
  const out = compareHttp({ status: legacy.status, contentType: legacy.contentType }, gateway);
  if (out.length > 0) return out;
  // the usual case against Odoo: the gateway wrote Odoo's bytes, so there is nothing to parse
  if (gateway.body === legacy.body) return [];
  // the legacy answer is the yardstick: "expected" is what Odoo said, "got" what the gateway said
  return dialect === 'jsonrpc'
    ? compareJsonrpcBodies(legacy.body, gateway.body, exact)
    : compareXmlrpcBodies(legacy.body, gateway.body, exact);
}

/** The gateway's own answer to a call (`answer`), read whole up to `maxBytes` for comparing, or what went wrong. */
export async function gatewayAnswerOf(answer: () => Promise<WireResponse>, maxBytes: number): Promise<HttpAnswer | Error> {
  try {
    const response = await answer();
    const text = await answerText(response, maxBytes);
    if (text === undefined) return new Error(`the gateway's answer is larger than ${maxBytes} bytes`);
    return { status: response.status, contentType: response.contentType, body: text };
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** One pair judged: equal, an intended deviation COMPATIBILITY.md lists (named), or the differences. */
export function judgeAnswers(
  deviations: readonly IntendedDeviation[],
  dialect: Dialect,
  call: { service: string; method: string },
  gateway: HttpAnswer,
  legacy: HttpAnswer,
  legacyView: AnswerView = viewAnswer(dialect, legacy.body),
): { equal: true } | { deviation: string } | { differences: Difference[] } {
  const differences = compareAnswers(dialect, gateway, legacy);
  if (differences.length === 0) return { equal: true };
  const deviation = explainDifference(deviations, call, viewAnswer(dialect, gateway.body), legacyView);
  return deviation === undefined ? { differences } : { deviation };
}
