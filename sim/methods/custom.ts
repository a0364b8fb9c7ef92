/**
 * Methods the simulator adds to the recorded Odoo 19 tables, as a database's own modules would: they
 * are absent from `_method-table.json` (so from the gateway's built-in table) and documented on
 * `/doc-bearer`, which is how a gateway with a service key learns their signatures.
 */
import { parseJson } from '../../src/json/index.ts';
import { pyTypeName, type Value } from '../../src/value.ts';
import { checkModelAccess } from '../orm/access.ts';
import { typeError } from '../errors.ts';
import { existingOrMissing, writeRecords } from '../orm/orm-write.ts';
import type { MethodSpec } from '../seed.ts';
import type { MethodImpl } from './call.ts';

/** One custom method: what JSON-2 binds against, what `/doc-bearer` shows, and what runs. */
export interface CustomMethod {
  model: string;
  method: string;
  spec: MethodSpec;
  /** Its `/doc-bearer` method entry, as Odoo's `_doc_method` renders it. */
  doc: Value;
  impl: MethodImpl;
}

/**
 * `res.partner.action_gateway_demo(self, note, flag=False)`: writes `note` into each partner's
 * `comment` and returns `{ids, note, flag}` as it received them, so a test sees which argument
 * landed in which parameter.
 */
const actionGatewayDemo: MethodImpl = (call) => {
  checkModelAccess(call.env, call.model, 'write');
  const rows = existingOrMissing(call.env, call.model, call.ids);
  const note = call.arg('note');
  writeRecords(call.env, call.model, rows, new Map([['comment', note]]));
  return new Map<string, Value>([
    ['ids', rows.map((r) => r.id)],
    ['note', note],
    ['flag', call.arg('flag')],
  ]);
};

/** `@api.model res.partner.gateway_demo_echo(self, text, times=1)`: Python's `text * times`. */
const gatewayDemoEcho: MethodImpl = (call) => {
  const text = call.arg('text');
  const times = call.arg('times');
  if (typeof text !== 'string' || typeof times !== 'number' || !Number.isInteger(times)) {
    throw typeError(`can't multiply sequence by non-int of type '${pyTypeName(times)}'`);
  }
  return text.repeat(Math.max(0, times));
};

/** A `/doc-bearer` method entry from plain data, parsed losslessly as the route serves it. */
const docEntry = (doc: object): Value => parseJson(JSON.stringify(doc));

/** The custom methods, in the order `/doc-bearer` lists them after the recorded ones. */
export const customMethods: readonly CustomMethod[] = [
  {
    model: 'res.partner',
    method: 'action_gateway_demo',
    spec: {
      apiModel: false,
      qualname: 'ResPartner.action_gateway_demo',
      params: [
        { name: 'note', kind: 'POSITIONAL_OR_KEYWORD', default: null },
        { name: 'flag', kind: 'POSITIONAL_OR_KEYWORD', default: 'False' },
      ],
    },
    doc: docEntry({
      signature: '(note, flag=False) -> dict',
      parameters: { note: { annotation: 'str' }, flag: { default: false, annotation: 'bool' } },
      model: 'res.partner',
      module: 'gateway_demo',
    }),
    impl: actionGatewayDemo,
  },
  {
    model: 'res.partner',
    method: 'gateway_demo_echo',
    spec: {
      apiModel: true,
      qualname: 'ResPartner.gateway_demo_echo',
      params: [
        { name: 'text', kind: 'POSITIONAL_OR_KEYWORD', default: null },
        { name: 'times', kind: 'POSITIONAL_OR_KEYWORD', default: '1' },
      ],
    },
    doc: docEntry({
      signature: '(text, times=1) -> str',
      parameters: { text: { annotation: 'str' }, times: { default: 1, annotation: 'int' } },
      api: ['model'],
      model: 'res.partner',
      module: 'gateway_demo',
    }),
    impl: gatewayDemoEcho,
  },
];

/** A copy of the method table with the custom methods added (the seed's own maps stay untouched). */
export function withCustomSpecs(methods: ReadonlyMap<string, ReadonlyMap<string, MethodSpec>>): Map<string, Map<string, MethodSpec>> {
  const out = new Map([...methods].map(([model, specs]) => [model, new Map(specs)]));
  for (const custom of customMethods) out.get(custom.model)?.set(custom.method, custom.spec);
  return out;
}
