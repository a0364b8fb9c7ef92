/** The conformance corpus's XML-RPC exchanges (fixtures/conformance/cases), for codec tests. */
import { readdirSync, readFileSync } from 'node:fs';

/** One recorded exchange: the raw legacy request and response, and the decoded answer. */
export interface CorpusExchange {
  id: string;
  path: string;
  requestBody: string;
  responseBody: string;
  decoded: { kind: string; value: unknown };
}

const dir = new URL('../../fixtures/conformance/cases/', import.meta.url);

/** Every `/xmlrpc*` POST exchange whose response body was kept whole. */
export function readXmlRpcExchanges(): CorpusExchange[] {
  const out: CorpusExchange[] = [];
  for (const file of readdirSync(dir).sort()) {
    const c = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
    const legacy = c.legacy ?? {};
    if (!String(legacy.path ?? '').startsWith('/xmlrpc') || legacy.method !== 'POST') continue;
    if (legacy.response_body_meta || legacy.request_body_meta) continue;
    out.push({
      id: c.id,
      path: legacy.path,
      requestBody: legacy.request_body ?? '',
      responseBody: legacy.response_body,
      decoded: c.legacy_decoded,
    });
  }
  return out;
}

/** One corpus exchange by id. */
export function readExchange(id: string): CorpusExchange {
  const found = readXmlRpcExchanges().find((c) => c.id === id);
  if (!found) throw new Error(`no XML-RPC corpus case ${id}`);
  return found;
}
