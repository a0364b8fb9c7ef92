/**
 * Shadow mode's equality: the project's own typed comparison (`src/cutover/compare/compare.ts`, the
 * conformance runner's): HTTP status and content type, then XML-RPC values with their tags (an
 * `<int>` is not a `<double>`, member order counts) or JSON-RPC values losslessly (int vs float),
 * faults by code and exception line. Values are compared exactly — both answers come from the same
 * database moments apart, so `write_date` too — and XML bytes are not compared (a client reads values).
 */
import type { Dialect } from '../../call.ts';
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
