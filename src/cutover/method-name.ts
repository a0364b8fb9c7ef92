import type { MethodReport } from '../report/migration-report.ts';

/** How the report names a method in lists: `res.partner.read`, `common.version`. */
export function methodName(m: Pick<MethodReport, 'service' | 'method' | 'model' | 'modelMethod'>): string {
  return m.service === 'object' && m.model !== undefined && m.modelMethod !== undefined
    ? `${m.model}.${m.modelMethod}`
    : `${m.service}.${m.method}`;
}
