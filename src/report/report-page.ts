/**
 * The migration report as a small self-contained HTML page (`/gateway/report`): one section per
 * legacy client with the methods it called. No script, no external resource; every client-supplied
 * string is escaped.
 */
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
td.n{text-align:right;font-variant-numeric:tabular-nums}.muted{color:#666}code{font-size:.95em}`;

/** Renders the page for `snapshot`. */
export function renderReportPage(snapshot: ReportSnapshot): string {
  const calls = snapshot.clients.reduce((sum, c) => sum + c.calls, 0);
  const body =
    snapshot.clients.length === 0
      ? '<p id="empty">No legacy call since the report started.</p>'
      : snapshot.clients.map(clientSection).join('\n');
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
${body}
</body>
</html>
`;
}

function clientSection(c: ClientReport): string {
  const agent = c.userAgent === '' ? '<span class="muted">(no User-Agent)</span>' : `<code>${escapeHtml(c.userAgent)}</code>`;
  const perService = Object.entries(c.services).map(([s, n]) => `${escapeHtml(s)} ${n}`).join(', ');
  const perDialect = Object.entries(c.dialects).map(([d, n]) => `${escapeHtml(d)} ${n}`).join(', ');
  const unlisted = c.unlistedCalls > 0 ? `<p class="muted">${c.unlistedCalls} calls to further methods are counted but not listed.</p>` : '';
  return `<section class="client" data-user-agent="${escapeHtml(c.userAgent)}" data-ip="${escapeHtml(c.ip)}">
<h2>${agent} from <code>${escapeHtml(c.ip)}</code></h2>
<p><span class="calls">${c.calls}</span> calls, <span class="faults">${c.faults}</span> faults; first seen ${c.firstSeen}, last seen ${c.lastSeen}.<br>Services: ${perService}. Dialects: ${perDialect}.</p>
<table>
<thead><tr><th>Service</th><th>Method</th><th>Model</th><th>Model method</th><th>Calls</th><th>Faults</th><th>First seen</th><th>Last seen</th></tr></thead>
<tbody>
${c.methods.map(methodRow).join('\n')}
</tbody>
</table>
${unlisted}</section>`;
}

function methodRow(m: MethodReport): string {
  const cell = (v: string | undefined) => (v === undefined ? '<td class="muted">–</td>' : `<td>${escapeHtml(v)}</td>`);
  return `<tr>${cell(m.service)}${cell(m.method)}${cell(m.model)}${cell(m.modelMethod)}<td class="n">${m.calls}</td><td class="n">${m.faults}</td><td>${m.firstSeen}</td><td>${m.lastSeen}</td></tr>`;
}
