/**
 * Legacy clients the report recognises, and the switch each needs to leave the legacy API by
 * itself. A client is recognised by what it sends every time — its User-Agent and its dialect —
 * never by a guess from the methods it happened to call (docs/migration-report.md, "Recognised
 * clients").
 */
import type { ClientReport } from '../report/migration-report.ts';

/** A recognised client and what to change in it. */
export interface KnownClient {
  /** Stable identifier, for tools reading the JSON. */
  id: string;
  /** What it is, as an operator knows it. */
  name: string;
  /** How it calls the legacy API. */
  calls: string;
  /** The switch it needs to call JSON-2 itself. */
  switchTo: string;
  /** Where that switch is described. */
  source: string;
}

interface Rule extends KnownClient {
  userAgents: readonly string[];
  /** The dialects it speaks: a client seen on any other is someone else with the same User-Agent. */
  dialects: readonly string[];
}

const rules: readonly Rule[] = [
  {
    id: 'n8n-odoo-node',
    name: "n8n's Odoo node",
    // `n8n` now, `https://n8n.io` in older releases (n8n's packages/nodes-base/nodes/Odoo/GenericFunctions.ts)
    userAgents: ['n8n', 'https://n8n.io'],
    dialects: ['jsonrpc'],
    calls: '/jsonrpc with the login and password of its "Odoo API" credential (object.execute, positional arguments)',
    switchTo:
      'In each workflow, set its Odoo nodes to node version 2 and give them the "Odoo API (API Key)" credential (an API key of the same user, Odoo 19 or later): the node then calls JSON-2 itself, POST /json/2/<model>/<method> with a bearer key.',
    source: 'n8n-io/n8n#30796',
  },
];

/** What `c` is, when its User-Agent and dialects are those of a client the report knows. */
export function knownClientOf(c: Pick<ClientReport, 'userAgent' | 'dialects'>): KnownClient | undefined {
  const dialects = Object.keys(c.dialects);
  const rule = rules.find(
    (r) => r.userAgents.includes(c.userAgent) && dialects.length > 0 && dialects.every((d) => r.dialects.includes(d)),
  );
  if (rule === undefined) return undefined;
  const { userAgents: _userAgents, dialects: _dialects, ...known } = rule;
  return known;
}
