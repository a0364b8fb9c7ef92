/**
 * The fleet-wide migration list: one row per method (`model.method` or `service.method`) with the
 * clients that call it, how often, when last, whether it ever succeeded, and — only then — the
 * JSON-2 request that replaces it. Derived from the stored report when it is served.
 */
import { json2EquivalentOf, type Json2Equivalent } from './equivalents/index.ts';
import { methodName } from './method-name.ts';
import type { MethodVerdict, Verdicts } from './verdicts.ts';
import type { ClientReport } from '../report/migration-report.ts';

/** Clients named per method; the others are counted. */
export const clientsNamedPerMethod = 3;

/** One method across the fleet. */
export interface FleetMethod {
  /** `res.partner.read`, `common.version`. */
  name: string;
  service: string;
  method: string;
  model?: string;
  modelMethod?: string;
  /** Clients that call it. */
  clients: number;
  /** The clients that call it most (at most {@link clientsNamedPerMethod}), as {@link clientLabel} names them. */
  topClients: { client: string; calls: number }[];
  calls: number;
  faults: number;
  lastSeen: string;
  /** At least one call of it succeeded. */
  succeeded: boolean;
  /** The JSON-2 request that replaces it: only for a method that succeeded. */
  json2?: Json2Equivalent;
  /** The dated removals that concern it and whether the gateway serves it there (`verdicts.ts`). */
  verdict?: MethodVerdict;
}

/** A client as one line: `demo / login:1a2b… / Python-xmlrpc/3.11 @ 10.0.0.5`. */
export function clientLabel(c: Pick<ClientReport, 'database' | 'user' | 'userAgent' | 'ip'>): string {
  return `${c.database ?? '(no database)'} / ${c.user ?? 'anonymous'} / ${c.userAgent === '' ? '(no User-Agent)' : c.userAgent} @ ${c.ip}`;
}

/** The fleet table built client by client (so that a large report is gathered in slices). */
export interface FleetTable {
  add(client: ClientReport): void;
  /** The rows: the methods called by the most clients first, then by calls. */
  rows(): FleetMethod[];
}

/** `verdicts`: each row gets its method's dated verdict. */
export function createFleetTable(verdicts?: Verdicts): FleetTable {
  const rows = new Map<string, FleetMethod & { json2Body?: string }>();
  return {
    add(c) {
      const label = clientLabel(c);
      for (const m of c.methods) {
        const name = methodName(m);
        let row = rows.get(name);
        if (row === undefined) {
          row = {
            name,
            service: m.service,
            method: m.method,
            ...(m.model === undefined ? {} : { model: m.model }),
            ...(m.modelMethod === undefined ? {} : { modelMethod: m.modelMethod }),
            clients: 0,
            topClients: [],
            calls: 0,
            faults: 0,
            lastSeen: m.lastSeen,
            succeeded: false,
            ...(verdicts === undefined ? {} : { verdict: verdicts.of(m) }),
          };
          rows.set(name, row);
        }
        row.clients++;
        row.calls += m.calls;
        row.faults += m.faults;
        if (m.lastSeen > row.lastSeen) row.lastSeen = m.lastSeen;
        if (m.calls > m.faults) row.succeeded = true;
        // the body of the first client that has one stands for the method
        if (m.json2Body !== undefined && row.json2Body === undefined) row.json2Body = m.json2Body;
        // the clients calling it most, kept while adding (a stable sort's order: the earlier first among equals)
        const at = row.topClients.findIndex((t) => t.calls < m.calls);
        if (at >= 0) row.topClients.splice(at, 0, { client: label, calls: m.calls });
        else if (row.topClients.length < clientsNamedPerMethod) row.topClients.push({ client: label, calls: m.calls });
        if (row.topClients.length > clientsNamedPerMethod) row.topClients.pop();
      }
    },
    rows() {
      return [...rows.values()]
        .sort((a, b) => b.clients - a.clients || b.calls - a.calls || a.name.localeCompare(b.name))
        .map(({ json2Body, ...row }) => {
          const json2 = row.succeeded ? json2EquivalentOf({ ...row, json2Body }) : undefined;
          return { ...row, topClients: [...row.topClients], ...(json2 === undefined ? {} : { json2 }) };
        });
    },
  };
}
