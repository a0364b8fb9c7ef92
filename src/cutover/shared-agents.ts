/**
 * Clients that send the same User-Agent (every script using Python's xmlrpc.client sends
 * `Python-xmlrpc/3.x`) are told apart by what else differs between them — the address, the
 * database, the login — and the report says so under each, so an operator can tell which script is
 * which before switching it.
 */
import type { ClientReport } from '../report/migration-report.ts';

/** What sets a client apart from the others with its User-Agent. */
export interface SharedUserAgent {
  /** Clients with this User-Agent, this one included. */
  clients: number;
  /** The fields whose values differ among them. */
  apartBy: ('ip' | 'database' | 'user')[];
  line: string;
}

type Who = Pick<ClientReport, 'userAgent' | 'ip' | 'database' | 'user'>;

const fields = [
  ['ip', 'address', (c: Who) => c.ip],
  ['database', 'database', (c: Who) => c.database ?? '(none)'],
  ['user', 'login', (c: Who) => c.user ?? 'anonymous'],
] as const;

/** For each client that shares its User-Agent with another, what tells it apart (in the order of `clients`). */
export function sharedUserAgents(clients: readonly Who[]): (SharedUserAgent | undefined)[] {
  const byAgent = new Map<string, Who[]>();
  for (const c of clients) {
    const group = byAgent.get(c.userAgent);
    if (group === undefined) byAgent.set(c.userAgent, [c]);
    else group.push(c);
  }
  const apart = new Map<string, SharedUserAgent['apartBy']>();
  for (const [agent, group] of byAgent) {
    if (group.length < 2) continue;
    apart.set(
      agent,
      fields.filter(([, , value]) => new Set(group.map(value)).size > 1).map(([name]) => name),
    );
  }
  return clients.map((c) => {
    const apartBy = apart.get(c.userAgent);
    if (apartBy === undefined) return undefined;
    const n = (byAgent.get(c.userAgent) as Who[]).length;
    const these = fields.filter(([name]) => apartBy.includes(name)).map(([, label, value]) => `${label} ${value(c)}`);
    return {
      clients: n,
      apartBy,
      line: `One of ${n} clients sending this User-Agent, told apart by ${these.length === 0 ? 'nothing else' : these.join(', ')}.`,
    };
  });
}
