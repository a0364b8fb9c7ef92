/**
 * The `web-database` cases: raw `/web/database/*` exchanges (the controllers the gateway's `db`
 * service runs on), replayed against the simulator alone. Compared: status, content type, the
 * redirect's `Location`, the error text the page shows (`legacy.error_text_html`), and the body —
 * whole, or its kept start when the corpus truncated it. A restore whose file the corpus did not
 * keep is sent with the simulator's own backup of the same database as a stand-in.
 */
import { readFileSync } from 'node:fs';
import type { Value } from '../../src/value.ts';
import type { CaseOutcome } from './classify.ts';
import { compareHttp, compareJsonValues, parseJsonText, type Difference } from '../../src/cutover/compare/compare.ts';
import { simDatabaseOps } from './db-scenario.ts';
import { casesUrl, type ConformanceCase } from './load-cases.ts';
import { headersToSend, sendRequest, type HttpAnswer } from './replay.ts';

/** What a web-database case records beyond the exchange (INDEX.md file format). */
export interface WebDatabaseRecording {
  formFields: Record<string, string> | undefined;
  location: string | undefined;
  errorTextHtml: string | undefined;
  /** For a multipart upload whose body was not kept: its file fields. */
  fileFields: Record<string, { filename: string }> | undefined;
}

/** Reads the web-database fields of a case's file. */
export function webDatabaseRecording(c: ConformanceCase): WebDatabaseRecording {
  const raw = JSON.parse(readFileSync(new URL(c.file, casesUrl), 'utf8')) as {
    legacy?: {
      form_fields?: Record<string, string>;
      location?: string;
      error_text_html?: string;
      request_body_meta?: { file_fields?: Record<string, { filename: string }> };
    };
  };
  const legacy = raw.legacy ?? {};
  return {
    formFields: legacy.form_fields,
    location: legacy.location,
    errorTextHtml: legacy.error_text_html,
    fileFields: legacy.request_body_meta?.file_fields,
  };
}

/**
 * Sends the case's request to the simulator and records the answer and its differences in
 * `outcome`. `via`: where the form is posted — the gateway's passthrough, as in a deployment where
 * Odoo is reachable through the gateway alone (docs/security.md), so the gateway hears of a master
 * password a form set; a restore's stand-in backup is read from the simulator itself.
 */
export async function runWebDatabaseCase(c: ConformanceCase, outcome: CaseOutcome, simUrl: string, via = simUrl): Promise<void> {
  const legacy = c.legacy;
  if (legacy === undefined) throw new Error(`${c.id} records no exchange`);
  const recording = webDatabaseRecording(c);
  const notes = outcome.notes;
  let actual: HttpAnswer;
  const file = recording.fileFields?.backup_file;
  if (file !== undefined && recording.formFields !== undefined) {
    const ops = simDatabaseOps(simUrl);
    const source = file.filename.replace(/\.[^.]*$/, '');
    actual = await ops.restore(recording.formFields, { filename: file.filename, data: await ops.backup(source) });
    notes.push(`stand-in: backup_file is the simulator's backup of ${source} (the corpus keeps only the start of the recorded file)`);
  } else {
    actual = await sendRequest(via, {
      method: legacy.method,
      path: legacy.path,
      headers: headersToSend(legacy.requestHeaders),
      body: legacy.requestBody,
    });
  }
  outcome.actual = { status: actual.status, contentType: actual.contentType, body: actual.body };
  outcome.differences.push(...compareWebDatabaseAnswer(c, recording, actual));
}

/** Every difference between a web-database answer and its recording. */
export function compareWebDatabaseAnswer(c: ConformanceCase, recording: WebDatabaseRecording, actual: HttpAnswer): Difference[] {
  const legacy = c.legacy;
  if (legacy === undefined) return [];
  const out = compareHttp({ status: legacy.status, contentType: legacy.responseContentType }, actual);
  if ((recording.location ?? '') !== (actual.headers.location ?? '')) {
    out.push({
      path: 'location',
      message: `expected ${JSON.stringify(recording.location)}, got ${JSON.stringify(actual.headers.location)}`,
    });
  }
  if (recording.errorTextHtml !== undefined && !actual.body.includes(recording.errorTextHtml)) {
    const shown = /<div class="alert alert-danger">[\s\S]*?<\/div>/.exec(actual.body)?.[0];
    out.push({
      path: 'error',
      message: `expected the page to show ${JSON.stringify(recording.errorTextHtml)}, it shows ${JSON.stringify(shown ?? '(no error)')}`,
    });
  }
  if (legacy.truncated) {
    if (!actual.body.startsWith(legacy.responseBody))
      out.push({ path: 'body', message: `the answer does not start with the ${legacy.responseBody.length} recorded characters` });
    return out;
  }
  const expected: Value | undefined = /json/.test(legacy.responseContentType) ? parseJsonText(legacy.responseBody) : undefined;
  if (expected !== undefined) {
    const got = parseJsonText(actual.body);
    out.push(
      ...(got === undefined ? [{ path: 'body', message: `not JSON: ${actual.body.slice(0, 200)}` }] : compareJsonValues(expected, got, {})),
    );
  } else if (legacy.responseBody !== actual.body) {
    out.push({
      path: 'body',
      message: `expected ${JSON.stringify(legacy.responseBody).slice(0, 300)}, got ${JSON.stringify(actual.body).slice(0, 300)}`,
    });
  }
  return out;
}
