/**
 * The migration report as a small self-contained HTML page (`/gateway/report`): one section per
 * legacy client with the methods it called. No script, no external resource; every client-supplied
 * string is escaped.
 */
import type { CutoverClientReport, CutoverMethodReport, CutoverSnapshot, ShadowStatus } from './cutover.ts';
import { methodName } from './cutover.ts';
import type { ClientReport, MethodReport, ReportSnapshot } from './migration-report.ts';

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const style = `
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}
h1{font-size:1.4rem}h2{font-size:1.05rem;margin:0 0 .3rem;word-break:break-all}
section.client{border:1px solid #ccc;border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
table{border-collapse:collapse;margin-top:.5rem}th,td{border-bottom:1px solid #eee;padding:.2rem .6rem;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.muted{color:#666}code{font-size:.95em}
h3{font-size:.95rem;margin:.8rem 0 .3rem}pre{background:#f6f6f6;padding:.4rem .6rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.readiness{font-weight:600}.deprecated li,.difference{margin:.3rem 0}.json2{border-top:1px dashed #ddd;padding-top:.3rem;margin-top:.5rem}`;

/** Renders the page for `snapshot` (with the cutover parts when it has them: `withCutover`). */
export function renderReportPage(snapshot: ReportSnapshot | CutoverSnapshot): string {
  const calls = snapshot.clients.reduce((sum, c) => sum + c.calls, 0);
  const shadow = 'shadow' in snapshot ? shadowSection(snapshot.shadow) : '';
  const body =
    snapshot.clients.length === 0
      ? '<p id="empty">No legacy call since the report started.</p>'
      : snapshot.clients.map((c) => clientSection(c)).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Legacy RPC migration report</title>
<style>${style}</style>
</head>
<body>
<h1>Legacy RPC migration report</h1>
<p id="summary"><span id="client-count">${snapshot.clients.length}</span> legacy clients, <span id="call-count">${calls}</span> calls; generated <time datetime="${snapshot.generatedAt}">${snapshot.generatedAt}</time>. <a href="report.json">JSON</a></p>
${shadow}${body}
</body>
</html>
`;
}

function clientSection(c: ClientReport | CutoverClientReport): string {
  const agent = c.userAgent === '' ? '<span class="muted">(no User-Agent)</span>' : `<code>${escapeHtml(c.userAgent)}</code>`;
  const perService = Object.entries(c.services).map(([s, n]) => `${escapeHtml(s)} ${n}`).join(', ');
  const perDialect = Object.entries(c.dialects).map(([d, n]) => `${escapeHtml(d)} ${n}`).join(', ');
  const unlisted = c.unlistedCalls > 0 ? `<p class="muted">${c.unlistedCalls} calls to further methods are counted but not listed.</p>` : '';
  return `<section class="client" data-user-agent="${escapeHtml(c.userAgent)}" data-ip="${escapeHtml(c.ip)}">
<h2>${agent} from <code>${escapeHtml(c.ip)}</code></h2>
<p><span class="calls">${c.calls}</span> calls, <span class="faults">${c.faults}</span> faults; first seen ${c.firstSeen}, last seen ${c.lastSeen}.<br>Services: ${perService}. Dialects: ${perDialect}.</p>
<table>
<thead><tr><th>Service</th><th>Method</th><th>Model</th><th>Model method</th><th>Calls</th><th>Faults</th><th>First seen</th><th>Last seen</th><th>Shadow</th></tr></thead>
<tbody>
${c.methods.map(methodRow).join('\n')}
</tbody>
</table>
${unlisted}${'readiness' in c ? cutoverParts(c) : ''}</section>`;
}

function methodRow(m: MethodReport): string {
  const cell = (v: string | undefined) => (v === undefined ? '<td class="muted">–</td>' : `<td>${escapeHtml(v)}</td>`);
  const s = m.shadow;
  const shadow = s === undefined ? '<td class="shadow muted">–</td>' : `<td class="shadow">${s.equal} equal, ${s.intended} intended, ${s.differs} differ${s.errors > 0 ? `, ${s.errors} failed` : ''}${s.dropped > 0 ? `, ${s.dropped} dropped` : ''}</td>`;
  return `<tr>${cell(m.service)}${cell(m.method)}${cell(m.model)}${cell(m.modelMethod)}<td class="n">${m.calls}</td><td class="n">${m.faults}</td><td>${m.firstSeen}</td><td>${m.lastSeen}</td>${shadow}</tr>`;
}

/** Shadow mode's state, above the clients. */
function shadowSection(shadow: ShadowStatus): string {
  const state = shadow.enabled
    ? `on: ${shadow.samplePercent} % of the calls to ${shadow.methods.map((m) => `<code>${escapeHtml(m)}</code>`).join(', ')}, at most ${shadow.maxInFlight} in flight`
    : 'off (<code>--shadow-sample</code>)';
  const gone = shadow.gone.map((g) => `<li class="gone" data-service="${escapeHtml(g.service)}">${escapeHtml(g.service)}: ${escapeHtml(g.reason)} (since ${escapeHtml(g.since)})</li>`).join('');
  return `<section id="shadow"><p>Shadow mode is <span id="shadow-state">${state}</span>.</p>${gone === '' ? '' : `<p>Shadow mode stopped for:</p><ul>${gone}</ul>`}</section>\n`;
}

/** Readiness, deprecated calls, differences and JSON-2 equivalents of one client. */
function cutoverParts(c: CutoverClientReport): string {
  const readiness = `<h3>Readiness</h3>\n<p class="readiness">${escapeHtml(c.readiness.line)}</p>\n`;
  const deprecated =
    c.deprecated.length === 0
      ? ''
      : `<h3>Deprecated methods (the first to go in a later Odoo)</h3>\n<ul class="deprecated">${c.deprecated
          .map(
            (d) =>
              `<li data-method="${escapeHtml(d.method)}"><code>${escapeHtml(d.model === undefined ? d.method : `${d.model}.${d.method}`)}</code>, ${d.calls} calls: “${escapeHtml(d.message)}”${d.since === null ? '' : ` (deprecated since ${escapeHtml(d.since)})`}${d.replacement === undefined ? '' : `; replace with <code class="replacement">${escapeHtml(d.replacement)}</code>`}</li>`,
          )
          .join('\n')}</ul>\n`;
  const differences = c.methods.filter((m) => (m.differences ?? []).length > 0).map(differencesOf).join('\n');
  const equivalents = c.methods.filter((m) => m.json2 !== undefined).map(equivalentOf).join('\n');
  return `${readiness}${deprecated}${differences === '' ? '' : `<h3>Differences that persisted</h3>\n${differences}\n`}${equivalents === '' ? '' : `<h3>The JSON-2 way off legacy</h3>\n${equivalents}\n`}`;
}

function differencesOf(m: CutoverMethodReport): string {
  return (m.differences ?? [])
    .map(
      (d) => `<div class="difference" data-method="${escapeHtml(methodName(m))}"><p><code>${escapeHtml(methodName(m))}</code> (${escapeHtml(d.dialect)}, ${escapeHtml(d.at)}):</p>
<ul>${d.differences.map((x) => `<li>${escapeHtml(x)}</li>`).join('')}</ul>
<p>Gateway:</p><pre class="gateway-answer">${escapeHtml(d.gateway)}</pre><p>Legacy endpoint:</p><pre class="legacy-answer">${escapeHtml(d.legacy)}</pre></div>`,
    )
    .join('\n');
}

function equivalentOf(m: CutoverMethodReport): string {
  const e = m.json2 as NonNullable<CutoverMethodReport['json2']>;
  const headers = e.headers === undefined ? '' : Object.entries(e.headers).map(([k, v]) => `${escapeHtml(k)}: ${escapeHtml(v)}`).join('\n');
  const parts = [
    `<p><code>${escapeHtml(methodName(m))}</code>${e.replaces === undefined ? '' : ` (deprecated: replaced by <code>${escapeHtml(e.request?.split('/').at(-1) ?? '')}</code>)`}: ${e.request === undefined ? '<span class="muted">no request replaces it</span>' : `<code class="request">${escapeHtml(e.request)}</code>`}</p>`,
    e.note === undefined ? '' : `<p class="note">${escapeHtml(e.note)}</p>`,
    headers === '' ? '' : `<pre class="headers">${headers}</pre>`,
    e.body === undefined ? '' : `<pre class="body">${escapeHtml(e.body)}</pre>`,
    e.curl === undefined ? '' : `<p>curl:</p><pre class="curl">${escapeHtml(e.curl)}</pre>`,
    e.python === undefined ? '' : `<p>Python (requests):</p><pre class="python">${escapeHtml(e.python)}</pre>`,
  ];
  return `<div class="json2" data-method="${escapeHtml(methodName(m))}">${parts.filter(Boolean).join('\n')}</div>`;
}
