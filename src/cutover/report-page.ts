/**
 * The migration report as a small self-contained HTML page (`/gateway/report`): the fleet table of
 * what to migrate first, then the clients grouped by database and login with the methods they call
 * most. No script, no external resource; every client-supplied string is escaped by hono/html.
 */
import { json2EquivalentOf, type Json2Equivalent } from './equivalents/index.ts';
import type { CutoverClientReport, CutoverMethodReport, CutoverSnapshot, ShadowStatus } from './cutover-report.ts';
import { clientLabel, type FleetMethod } from './fleet.ts';
import { methodName } from './method-name.ts';
import { seriesText, type MethodVerdict, type SeriesClients } from './verdicts.ts';
import type { ClientReport, DroppedCounts, MethodReport, ReportSnapshot } from '../report/migration-report.ts';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/**
 * hono/html's `html` escapes every interpolated string (and joins arrays, escaping each element that
 * is not itself `html`); it returns a promise only when a promise is interpolated, which this page
 * never does, so `page` hands back the synchronous result.
 */
function page(strings: TemplateStringsArray, ...values: unknown[]): HtmlEscapedString {
  const out = html(strings, ...values);
  if (out instanceof Promise) throw new TypeError('report page: a promise was interpolated');
  return out;
}

const style = `
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}
h1{font-size:1.4rem}h2{font-size:1.2rem;margin:1.2rem 0 .4rem}h3.group-title{font-size:1.05rem;margin:1.2rem 0 .3rem}h4{font-size:1rem;margin:0 0 .3rem;word-break:break-all}h5{font-size:.95rem;margin:.8rem 0 .3rem}
ul.who{margin:0;padding-left:1rem;font-size:.9em}#fleet table{width:100%}#dropped{color:#8a4b00}details summary{cursor:pointer;color:#555}
section.client{border:1px solid #ccc;border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
table{border-collapse:collapse;margin-top:.5rem}th,td{border-bottom:1px solid #eee;padding:.2rem .6rem;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.muted{color:#666}code{font-size:.95em}
pre{background:#f6f6f6;padding:.4rem .6rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.readiness,.verdict{font-weight:600}.breaks-through,.warning,.gw{color:#8a0000}.deprecated li,.difference{margin:.3rem 0}.json2{border-top:1px dashed #ddd;padding-top:.3rem;margin-top:.5rem}`;

/** Methods listed per client on the page (the JSON lists all the report keeps). */
export const methodsShownPerClient = 10;

/**
 * The page for `snapshot` in pieces (one per fleet row and per client), so that a server can send
 * it while yielding to other work between pieces. The fleet table comes first: what to migrate;
 * then the clients, grouped by database and login.
 */
export function* reportPageChunks(snapshot: ReportSnapshot | CutoverSnapshot): Generator<string> {
  const calls = snapshot.clients.reduce((sum, c) => sum + c.calls, 0);
  const shadowOn = 'shadow' in snapshot && snapshot.shadow.enabled;
  // a client's own body is shown only where it differs from the fleet table's
  const fleetBodies = new Map<string, string>();
  if ('fleet' in snapshot) for (const m of snapshot.fleet) if (m.json2?.body !== undefined) fleetBodies.set(m.name, m.json2.body);
  yield String(page`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Legacy RPC migration report</title>
<style>${raw(style)}</style>
</head>
<body>
<h1>Legacy RPC migration report</h1>
<p id="summary"><span id="client-count">${snapshot.clients.length}</span> legacy clients, <span id="call-count">${calls}</span> calls; generated <time datetime="${snapshot.generatedAt}">${snapshot.generatedAt}</time>. <a href="report.json">JSON</a> (every method of every client).</p>
${droppedLine(snapshot.dropped)}`);
  // the switch verdicts first: which client can leave Odoo's own endpoint, on which route it is now
  if ('shadow' in snapshot && snapshot.clients.length > 0) yield String(switchSection(snapshot));
  if ('shadow' in snapshot) yield String(shadowSection(snapshot.shadow));
  if (snapshot.clients.length === 0) {
    yield '<p id="empty">No legacy call since the report started.</p>\n</body>\n</html>\n';
    return;
  }
  if ('fleet' in snapshot) yield* fleetSection(snapshot.fleet);
  if ('breaks' in snapshot) yield String(breaksSection(snapshot.breaks));
  yield '<h2 id="clients-title">Clients by database and login</h2>\n';
  if ('fleet' in snapshot)
    yield `<p class="muted" id="clients-legend">A fault is one Odoo's own legacy endpoint would have answered too (the script's own) unless marked the gateway's. A method's JSON-2 request is given once it succeeded, with the client's body where it differs from the one under What to migrate.</p>\n`;
  // grouped by database, then login; within a group the most recently seen first
  const groups = new Map<string, (ClientReport | CutoverClientReport)[]>();
  for (const c of snapshot.clients) {
    const key = JSON.stringify([c.database ?? '', c.user ?? '']);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [c]);
    else group.push(c);
  }
  const ordered = [...groups.values()].sort(
    (a, b) =>
      ((a[0] as ClientReport).database ?? '\uffff').localeCompare((b[0] as ClientReport).database ?? '\uffff') ||
      ((a[0] as ClientReport).user ?? '\uffff').localeCompare((b[0] as ClientReport).user ?? '\uffff'),
  );
  for (const group of ordered) {
    const first = group[0] as ClientReport;
    const db =
      first.database === undefined
        ? page`<span class="muted">no database (calls without credentials)</span>`
        : page`database <code>${first.database}</code>`;
    const login = 'login' in first && typeof first.login === 'string' ? page` (<span class="login">${first.login}</span>)` : '';
    const user = first.user === undefined ? '' : page`, <code class="user">${first.user}</code>${login}`;
    yield String(
      page`<div class="group" data-database="${first.database ?? ''}" data-user="${first.user ?? ''}"><h3 class="group-title">${db}${user}: ${group.length} client${group.length === 1 ? '' : 's'}</h3>\n`,
    );
    for (const c of group) yield `${String(clientSection(c, shadowOn, fleetBodies))}\n`;
    yield '</div>\n';
  }
  yield '</body>\n</html>\n';
}

/** What the bounds dropped, when they dropped anything. */
function droppedLine(dropped: DroppedCounts | undefined): HtmlEscapedString | '' {
  if (dropped === undefined) return '';
  const parts = [
    dropped.anonymousClients > 0 ? page`${dropped.anonymousClients} anonymous clients left to make room` : '',
    dropped.authenticatedClients > 0
      ? page`${dropped.authenticatedClients} authenticated clients left to make room (no anonymous one was left)`
      : '',
    dropped.unlistedCalls > 0
      ? page`${dropped.unlistedCalls} calls were counted but not listed under their method (a client's method bound or the report's size bound)`
      : '',
    dropped.foldedCalls > 0
      ? page`${dropped.foldedCalls} calls are listed as <code>other</code> (past the bound of distinct method names)`
      : '',
  ].filter((part): part is HtmlEscapedString => part !== '');
  return parts.length === 0
    ? ''
    : page`<p id="dropped">To stay within its bounds (<code>--report-size</code>, <code>--report-max-bytes</code>): ${joined(parts, '; ')}.</p>\n`;
}

/** `parts` with `separator` between them, as one piece of HTML. */
function joined(parts: HtmlEscapedString[], separator: string): HtmlEscapedString {
  return page`${parts.flatMap((part, i) => (i === 0 ? [part] : [separator, part]))}`;
}

/** The fleet table: one row per method, the methods called by the most clients first. */
function* fleetSection(fleet: FleetMethod[]): Generator<string> {
  const headers = fleet.find((m) => m.json2?.headers !== undefined)?.json2?.headers;
  const headerBlock =
    headers === undefined
      ? ''
      : page`<p>Every JSON-2 request below sends these headers:</p><pre class="headers">${Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n')}</pre>\n`;
  yield String(page`<section id="fleet">
<h2>What to migrate: ${fleet.length} methods</h2>
${headerBlock}<table>
<thead><tr><th>Method</th><th>Clients</th><th>Calls</th><th>Faults</th><th>Last seen</th><th>Succeeded</th><th>Removed in</th><th>JSON-2 equivalent</th></tr></thead>
<tbody>
`);
  for (const m of fleet) {
    const named = m.topClients.map((t) => page`<li>${t.client} <span class="muted">(${t.calls})</span></li>`);
    const more = m.clients > m.topClients.length ? page`<li class="muted">and ${m.clients - m.topClients.length} more</li>` : '';
    const equivalent =
      m.json2 === undefined
        ? page`<span class="muted">${m.succeeded ? 'none' : 'only for a method that succeeded'}</span>`
        : equivalentOf(m.name, m.json2);
    yield String(
      page`<tr data-method="${m.name}"><td><code>${m.name}</code></td><td><span class="clients">${m.clients}</span><ul class="who">${named}${more}</ul></td><td class="n">${m.calls}</td><td class="n">${m.faults}</td><td>${m.lastSeen}</td><td class="succeeded">${m.succeeded ? 'yes' : 'never'}</td>${removedIn(m.verdict)}<td>${equivalent}</td></tr>\n`,
    );
  }
  yield '</tbody>\n</table>\n</section>\n';
}

/** A method's first native removal and what the gateway does there. */
function removedIn(v: MethodVerdict | undefined): HtmlEscapedString {
  if (v?.native === undefined) return page`<td class="removed-in muted">–</td>`;
  return page`<td class="removed-in"><span class="series">${seriesText(v.native)}</span><br><span class="${v.gateway === undefined ? 'muted' : 'breaks-through'}">${v.gatewayText}</span></td>`;
}

/** Per series, the clients that break there: natively, and even through the gateway (named). */
function breaksSection(breaks: SeriesClients[]): HtmlEscapedString {
  if (breaks.length === 0) return page``;
  const rows = breaks.map((b) => {
    const more = b.throughGateway > b.clients.length ? page`<li class="muted">and ${b.throughGateway - b.clients.length} more</li>` : '';
    const through =
      b.throughGateway === 0
        ? page`none even through the gateway`
        : page`<span class="through-gateway">${b.throughGateway}</span> even through the gateway:<ul class="who">${b.clients.map((c) => page`<li>${c}</li>`)}${more}</ul>`;
    return page`<li data-series="${b.onPremise}"><strong>Breaks on ${seriesText(b)}</strong>: <span class="natively">${b.natively}</span> client${b.natively === 1 ? '' : 's'} whose calls first break natively there; ${through}</li>`;
  });
  return page`<section id="breaks">
<h2>When clients break</h2>
<p>From the dates Odoo gives for its removals after 19.0 (the <code>db</code> service; <code>common</code> and <code>object</code>; each removed method and model), per client the first series where one of its calls fails natively, and the first where one fails even through this gateway.</p>
<ul>${joined(rows, '\n')}</ul>
</section>\n`;
}

/** The columns of a client's method table that say something for its rows (`columnsOf`). */
interface Columns {
  service: boolean;
  method: boolean;
  model: boolean;
  modelMethod: boolean;
  shadow: boolean;
  json2: boolean;
}

/**
 * A column that would say the same in every row, or nothing, is left out: `execute_kw` in every
 * Method cell, `object` in every Service cell, Shadow while shadow mode is off. What every row shares
 * is said once above the table instead.
 */
function columnsOf(rows: readonly MethodReport[], shadowOn: boolean, cutover: boolean): Columns {
  const distinct = (pick: (m: MethodReport) => string | undefined) => new Set(rows.map(pick)).size;
  return {
    service: distinct((m) => m.service) > 1,
    method: distinct((m) => m.method) > 1,
    model: rows.some((m) => m.model !== undefined),
    modelMethod: rows.some((m) => m.modelMethod !== undefined),
    shadow: shadowOn || rows.some((m) => m.shadow !== undefined),
    json2: cutover,
  };
}

/** Its faults, and of those the gateway's own: the others Odoo's own legacy endpoint would have answered too. */
const gatewayFaultsOf = (methods: readonly MethodReport[]): number => methods.reduce((n, m) => n + (m.gatewayFaults ?? 0), 0);

function clientSection(
  c: ClientReport | CutoverClientReport,
  shadowOn: boolean,
  fleetBodies: ReadonlyMap<string, string>,
): HtmlEscapedString {
  const agent = c.userAgent === '' ? page`<span class="muted">(no User-Agent)</span>` : page`<code>${c.userAgent}</code>`;
  const perService = Object.entries(c.services)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  const perDialect = Object.entries(c.dialects)
    .map(([d, n]) => `${d} ${n}`)
    .join(', ');
  const shown = c.methods.slice(0, methodsShownPerClient);
  const columns = columnsOf(shown, shadowOn, 'readiness' in c);
  const notShown =
    c.methods.length > shown.length
      ? page`<p class="muted">${c.methods.length - shown.length} more methods in <a href="report.json">the JSON</a>.</p>`
      : '';
  const unlisted =
    c.unlistedCalls > 0 ? page`<p class="muted">${c.unlistedCalls} calls to further methods are counted but not listed.</p>` : '';
  const first = shown[0];
  const shared =
    first === undefined || (columns.service && columns.method)
      ? ''
      : page`<p class="shared">Every call listed: <code>${[columns.service ? undefined : first.service, columns.method ? undefined : first.method].filter((x) => x !== undefined).join('.')}</code>.</p>\n`;
  const gatewayFaults = gatewayFaultsOf(c.methods);
  const faultOrigin =
    gatewayFaults === 0
      ? ''
      : page` (<span class="gateway-faults">${gatewayFaults}</span> the gateway's own, <span class="odoo-faults">${c.faults - gatewayFaults}</span> Odoo would have answered too)`;
  const th = (on: boolean, title: string) => (on ? page`<th>${title}</th>` : '');

  return page`<section class="client" data-user-agent="${c.userAgent}" data-ip="${c.ip}">
<h4>${agent} from <code>${c.ip}</code></h4>
${'sharedUserAgent' in c && c.sharedUserAgent !== undefined ? page`<p class="shares">${c.sharedUserAgent.line}</p>\n` : ''}<p><span class="calls">${c.calls}</span> calls, <span class="faults">${c.faults}</span> faults${faultOrigin}; first seen ${c.firstSeen}, last seen ${c.lastSeen}.<br>Services: ${perService}. Dialects: ${perDialect}.</p>
${shared}<table>
<thead><tr>${th(columns.service, 'Service')}${th(columns.method, 'Method')}${th(columns.model, 'Model')}${th(columns.modelMethod, 'Model method')}<th>Calls</th><th>Faults</th><th>First seen</th><th>Last seen</th>${th(columns.shadow, 'Shadow')}${th(columns.json2, 'JSON-2 request')}</tr></thead>
<tbody>
${joined(
  shown.map((m) => methodRow(m, columns, fleetBodies)),
  '\n',
)}
</tbody>
</table>
${notShown}${unlisted}${'readiness' in c ? cutoverParts(c) : ''}</section>`;
}

function methodRow(m: MethodReport, columns: Columns, fleetBodies: ReadonlyMap<string, string>): HtmlEscapedString {
  const cell = (on: boolean, v: string | undefined) => (!on ? '' : v === undefined ? page`<td class="muted">–</td>` : page`<td>${v}</td>`);
  const s = m.shadow;
  const shadow = !columns.shadow
    ? ''
    : s === undefined
      ? page`<td class="shadow muted">–</td>`
      : page`<td class="shadow">${s.equal} equal, ${s.intended} intended, ${s.differs} differ${s.errors > 0 ? `, ${s.errors} failed` : ''}${s.dropped > 0 ? `, ${s.dropped} dropped` : ''}</td>`;
  const own = m.gatewayFaults ?? 0;
  // whose faults they are: Odoo's own legacy endpoint would have answered them too, unless flagged the gateway's
  const faults =
    own === 0
      ? page`<td class="n">${m.faults}</td>`
      : page`<td class="n" data-gateway="${own}">${m.faults}<span class="gw">, ${own} the gateway's</span></td>`;
  const json2 = columns.json2 ? clientJson2(m, fleetBodies) : '';
  return page`<tr>${cell(columns.service, m.service)}${cell(columns.method, m.method)}${cell(columns.model, m.model)}${cell(columns.modelMethod, m.modelMethod)}<td class="n">${m.calls}</td>${faults}<td>${m.firstSeen}</td><td>${m.lastSeen}</td>${shadow}${json2}</tr>`;
}

/**
 * A client's own JSON-2 request for one of its methods: the request line, the warning where the
 * answer changes, and the client's own placeholder body (folded away) where it differs from the
 * fleet table's. Kept short, as a page at the report's bounds has 10,000 such cells: the notes and
 * the curl and Python snippets are in the fleet table.
 */
function clientJson2(m: MethodReport, fleetBodies: ReadonlyMap<string, string>): HtmlEscapedString {
  const e = m.calls > m.faults ? json2EquivalentOf(m, { examples: false }) : undefined;
  if (e?.request === undefined) return page`<td class="muted">–</td>`;
  const warning = e.warning === undefined ? '' : page`<p class="warning">${e.warning}</p>`;
  const own = m.json2Body !== undefined && e.body !== undefined && fleetBodies.get(methodName(m)) !== e.body;
  const body = own ? page`<details><summary>its body</summary><pre class="body">${e.body}</pre></details>` : '';
  return page`<td><code class="request">${e.request}</code>${warning}${body}</td>`;
}

/** Shadow mode's state, above the clients. */
function shadowSection(shadow: ShadowStatus): HtmlEscapedString {
  const state = shadow.enabled
    ? page`on: ${shadow.samplePercent} % of the calls to ${joined(
        shadow.methods.map((m) => page`<code>${m}</code>`),
        ', ',
      )}, at most ${shadow.maxInFlight} in flight`
    : page`off (<code>--shadow-sample</code>)`;
  const gone = shadow.gone.map((g) => page`<li class="gone" data-service="${g.service}">${g.service}: ${g.reason} (since ${g.since})</li>`);
  return page`<section id="shadow"><p>Shadow mode is <span id="shadow-state">${state}</span>.</p>${gone.length === 0 ? '' : page`<p>Shadow mode stopped for:</p><ul>${gone}</ul>`}</section>\n`;
}

/** Readiness, deprecated calls, differences and JSON-2 equivalents of one client. */
function cutoverParts(c: CutoverClientReport): HtmlEscapedString {
  const k = c.knownClient;
  const known =
    k === undefined
      ? ''
      : page`<h5>Recognised: ${k.name}</h5>\n<p class="known-client" data-known="${k.id}">It calls ${k.calls}. To leave the legacy API: ${k.switchTo} See ${k.source}.</p>\n`;
  const readiness = page`${known}<h5>Switch verdict</h5>\n<p class="switch-verdict">${c.switchReadiness.line} Route: ${routesText(c)}.</p>\n<h5>Readiness</h5>\n<p class="readiness">${c.readiness.line}</p>\n<h5>Dated verdict</h5>\n<p class="verdict">${c.verdict.line}</p>\n`;
  const deprecated =
    c.deprecated.length === 0
      ? ''
      : page`<h5>Deprecated methods (the first to go in a later Odoo)</h5>\n<ul class="deprecated">${joined(
          c.deprecated.map(
            (d) =>
              page`<li data-method="${d.method}"><code>${d.model === undefined ? d.method : `${d.model}.${d.method}`}</code>, ${d.calls} calls: “${d.message}”${d.since === null ? '' : page` (deprecated since ${d.since})`}${d.replacement === undefined ? '' : page`; replace with <code class="replacement">${d.replacement}</code>`}</li>`,
          ),
          '\n',
        )}</ul>\n`;
  const differences = c.methods.filter((m) => (m.differences ?? []).length > 0).flatMap(differencesOf);
  return page`${readiness}${deprecated}${differences.length === 0 ? '' : page`<h5>Differences that persisted</h5>\n${joined(differences, '\n')}\n`}`;
}

function differencesOf(m: CutoverMethodReport): HtmlEscapedString[] {
  return (m.differences ?? []).map(
    (d) => page`<div class="difference" data-method="${methodName(m)}"><p><code>${methodName(m)}</code> (${d.dialect}, ${d.at}):</p>
<ul>${d.differences.map((x) => page`<li>${x}</li>`)}</ul>
<p>Gateway:</p><pre class="gateway-answer">${d.gateway}</pre><p>Legacy endpoint:</p><pre class="legacy-answer">${d.legacy}</pre></div>`,
  );
}

/** A method's JSON-2 request; the body and the curl and Python snippets fold away. */
function equivalentOf(name: string, e: Json2Equivalent): HtmlEscapedString {
  const head = page`${e.replaces === undefined ? '' : page`<span class="muted">replaced by</span> `}${e.request === undefined ? page`<span class="muted">no request replaces it</span>` : page`<code class="request">${e.request}</code>`}`;
  const details = [
    e.note === undefined ? undefined : page`<p class="note">${e.note}</p>`,
    e.body === undefined ? undefined : page`<pre class="body">${e.body}</pre>`,
    e.curl === undefined ? undefined : page`<p>curl:</p><pre class="curl">${e.curl}</pre>`,
    e.python === undefined ? undefined : page`<p>Python (requests):</p><pre class="python">${e.python}</pre>`,
  ].filter((part) => part !== undefined);
  // shown outside the fold: the client's code has to change, not only its request
  const warning = e.warning === undefined ? '' : page`<p class="warning">${e.warning}</p>`;
  return page`<div class="json2" data-method="${name}">${head}${warning}${details.length === 0 ? '' : page`<details><summary>request</summary>${joined(details, '\n')}</details>`}</div>`;
}

/** A client's routes as the page shows them: `rule → mode`, or the default mode. */
function routesText(c: CutoverClientReport): string {
  if (c.routes === undefined || c.routes.length === 0) return 'translate';
  return c.routes.map((r) => `${r.rule === undefined ? '(default)' : r.rule} → ${r.mode}`).join('; ');
}

/** The switch verdicts, ready clients first, with each client's route. */
function switchSection(snapshot: CutoverSnapshot): HtmlEscapedString {
  const clients = [...snapshot.clients].sort(
    (a, b) => Number(b.switchReadiness.verdict === 'ready to switch') - Number(a.switchReadiness.verdict === 'ready to switch'),
  );
  const rows = clients.map(
    (c) =>
      page`<tr><td>${clientLabel(c)}</td><td>${routesText(c)}</td><td class="verdict">${c.switchReadiness.verdict}</td><td>${c.switchReadiness.line}</td></tr>`,
  );
  const routes = snapshot.routes;
  const fallbacks =
    routes === undefined || routes.fallbacks.length === 0
      ? ''
      : page`<p id="route-fallbacks">Served by translate instead of natively: ${joined(
          routes.fallbacks.map((g) => page`${g.service} since ${g.since} (${g.reason})`),
          '; ',
        )}.</p>`;
  const head =
    routes === undefined
      ? ''
      : page`<p id="routes-in-force">Routes: ${routes.rules.length} rules from ${routes.file ?? '(no file)'}, default mode ${routes.defaultMode}.</p>`;
  return page`<section id="switch"><h2>Switch verdicts</h2>
${head}${fallbacks}<table><thead><tr><th>client</th><th>route</th><th>verdict</th><th>why</th></tr></thead><tbody>
${joined(rows, '\n')}
</tbody></table></section>
`;
}
